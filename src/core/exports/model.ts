import { Model } from 'objection';

/** Zulip's export kinds: public data, full with members' consent, full (the command line's only). */
export const EXPORT_PUBLIC = 1;
export const EXPORT_FULL_WITH_CONSENT = 2;
export const EXPORT_FULL_WITHOUT_CONSENT = 3;

/** Zulip's RealmExport statuses. */
export const ExportStatus = { REQUESTED: 1, STARTED: 2, SUCCEEDED: 3, FAILED: 4, DELETED: 5 } as const;

/** A data export requested through the API. */
export class RealmExport extends Model {
  static tableName = 'realm_exports';

  id!: number;
  realm_id!: number;
  acting_user_id!: number | null;
  export_type!: number;
  status!: number;
  date_requested!: Date;
  date_started!: Date | null;
  date_succeeded!: Date | null;
  date_failed!: Date | null;
  date_deleted!: Date | null;
  export_path!: string | null;
  export_size!: number | null;
}
