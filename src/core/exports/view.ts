import type { Knex } from 'knex';
import type { Config } from '../../config';
import { exportTypeName, ExportStatus, RealmExport } from './model';

const seconds = (date: Date | null) => (date === null ? null : new Date(date).getTime() / 1000);

/** Where an export's file is served: under /user_avatars/exports, by an unguessable path (as Zulip). */
export const exportUrlPath = (key: string) => `/user_avatars/${key.split('/').map(encodeURIComponent).join('/')}`;

/** One export as GET /export/realm and the realm_export event show it. */
export function exportDict(config: Pick<Config, 'externalUrl'>, row: RealmExport) {
  return {
    id: row.id,
    acting_user_id: row.acting_user_id,
    export_time: seconds(row.date_requested),
    deleted_timestamp: seconds(row.date_deleted),
    failed_timestamp: seconds(row.date_failed),
    export_url: row.status === ExportStatus.SUCCEEDED && row.export_path ? `${config.externalUrl}${exportUrlPath(row.export_path)}` : null,
    pending: row.status === ExportStatus.REQUESTED || row.status === ExportStatus.STARTED,
    export_type: exportTypeName(row.export_type),
  };
}

export type ExportDict = ReturnType<typeof exportDict>;

/** The organization's exports of the kinds the API makes, oldest first. */
export async function listExports(db: Knex, config: Pick<Config, 'externalUrl'>, realmId: number): Promise<ExportDict[]> {
  const rows = await RealmExport.query(db).where('realm_id', realmId).orderBy('id');
  return rows.map((row) => exportDict(config, row));
}
