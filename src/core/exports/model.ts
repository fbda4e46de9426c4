import { Model } from 'objection';

/** Zulip's export kinds as stored: public data, full with members' consent, full without it. */
export const EXPORT_PUBLIC = 1;
export const EXPORT_FULL_WITH_CONSENT = 2;
export const EXPORT_FULL_WITHOUT_CONSENT = 3;

/** The kinds as the API names them (feature level 449; integers before). */
export const EXPORT_TYPE_NAMES = ['public', 'full_with_consent', 'full_without_consent'] as const;
export type ExportTypeName = (typeof EXPORT_TYPE_NAMES)[number];

const STORED: Record<ExportTypeName, number> = {
  public: EXPORT_PUBLIC,
  full_with_consent: EXPORT_FULL_WITH_CONSENT,
  full_without_consent: EXPORT_FULL_WITHOUT_CONSENT,
};

export const exportTypeValue = (name: ExportTypeName): number => STORED[name];

export function exportTypeName(value: number): ExportTypeName {
  return EXPORT_TYPE_NAMES.find((name) => STORED[name] === value) ?? 'public';
}

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
