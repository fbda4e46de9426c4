import { isRowId } from '../../db/ids';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { log } from '../../log';
import type { AppDeps } from '../deps';
import { isSafeKey, StoredFile } from '../uploads/storage';
import { fileStore } from '../uploads/stores';
import { requireAdmin } from '../users/access';
import type { User } from '../users/model';
import { isOwnerRole } from '../users/roles';
import { EXPORT_PUBLIC, ExportStatus, ExportTypeName, exportTypeValue, RealmExport } from './model';
import { runExport } from './runner';
import { emitExports } from './events';
import { listExports } from './view';

/** Zulip's limits on exports made through the API; bigger ones are made by the operator. */
export const EXPORTS_PER_WEEK = 5;
export const MAX_MESSAGE_HISTORY = 250_000;
export const MAX_UPLOAD_BYTES = 10 * 1024 ** 3;
const WEEK_MS = 7 * 24 * 3600 * 1000;

/** GET /export/realm. */
export async function getExports(deps: AppDeps, actor: User) {
  requireAdmin(actor);
  return listExports(deps.knex, deps.config, deps.realmId);
}

/** POST /export/realm: records the request and starts the export in the background; answers its id. */
export async function requestExport(deps: AppDeps, actor: User, typeName: ExportTypeName): Promise<number> {
  requireAdmin(actor);
  // Members' private data without their consent only where the operator allows owners all content.
  if (typeName === 'full_without_consent' && !deps.config.ownerFullContentAccess) throw fullContentAccessOff();
  // Private data goes only to owners, as in Zulip.
  const exportType = exportTypeValue(typeName);
  if (exportType !== EXPORT_PUBLIC && !isOwnerRole(actor.role)) throw errors.mustBeOwner();
  const id = await inTransaction(deps, deps.realmId, async (uow) => {
    // One request at a time per organization, so the weekly count holds.
    await uow.trx('realms').where('id', deps.realmId).forUpdate().first('id');
    const recent = await uow
      .trx('realm_exports')
      .where('realm_id', deps.realmId)
      .where('date_requested', '>=', new Date(Date.now() - WEEK_MS))
      .count({ n: '*' });
    if (Number(recent[0].n) >= EXPORTS_PER_WEEK) throw errors.badRequest('Exceeded rate limit.');
    const messages = await uow.trx('messages').where('realm_id', deps.realmId).count({ n: '*' });
    const uploads = await uow.trx('attachments').where('realm_id', deps.realmId).sum({ bytes: 'size' });
    if (Number(messages[0].n) > MAX_MESSAGE_HISTORY || Number(uploads[0].bytes ?? 0) > MAX_UPLOAD_BYTES) {
      throw errors.badRequest(`Please request a manual export from ${deps.config.ownerEmail}.`);
    }
    const row = await RealmExport.query(uow.trx).insertAndFetch({
      realm_id: deps.realmId,
      acting_user_id: actor.id,
      export_type: exportType,
      status: ExportStatus.REQUESTED,
      date_requested: new Date(),
    });
    await emitExports(deps, uow);
    uow.afterCommit(() =>
      setImmediate(() => void runExport(deps, row.id).catch((error) => log().error({ err: error, exportId: row.id }, 'realm export failed'))),
    );
    return row.id;
  });
  return id;
}

const fullContentAccessOff = () => errors.badRequest("This organization's owners do not have access to all private content.");

/** DELETE /export/realm/{export_id}: removes the file; the record stays, marked deleted. */
export async function deleteExport(deps: AppDeps, actor: User, exportId: number): Promise<void> {
  requireAdmin(actor);
  let path: string | null = null;
  await inTransaction(deps, deps.realmId, async (uow) => {
    const row = isRowId(exportId) ? await RealmExport.query(uow.trx).where({ id: exportId, realm_id: deps.realmId }).forUpdate().first() : undefined;
    if (!row) throw errors.badRequest('Invalid data export ID');
    if (row.status === ExportStatus.DELETED) throw errors.badRequest('Export already deleted');
    if (row.status === ExportStatus.FAILED) throw errors.badRequest('Export failed, nothing to delete');
    if (row.status !== ExportStatus.SUCCEEDED) throw errors.badRequest('Export still in progress');
    path = row.export_path;
    await RealmExport.query(uow.trx).patch({ status: ExportStatus.DELETED, date_deleted: new Date() }).where('id', row.id);
    await emitExports(deps, uow);
  });
  if (path) await fileStore(deps.config).delete(path);
}

/**
 * GET /export/realm/consents: whether each member lets administrators export their private data,
 * and who may see their email address (feature level 430), which an export with their consent shows.
 */
export async function exportConsents(deps: AppDeps, actor: User): Promise<{ user_id: number; consented: boolean; email_address_visibility: number }[]> {
  requireAdmin(actor);
  const rows = await deps
    .knex('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .where({ 'users.realm_id': deps.realmId, 'users.is_active': true, 'users.is_bot': false })
    .orderBy('users.id')
    .select('users.id', 'users.email_address_visibility', 'user_settings.allow_private_data_export');
  return rows.map((r: { id: number; email_address_visibility: number; allow_private_data_export: boolean | null }) => ({
    user_id: r.id,
    consented: r.allow_private_data_export === true,
    email_address_visibility: r.email_address_visibility,
  }));
}

/** The file of a finished, undeleted export named by its URL's parts, or null. */
export async function exportFile(deps: AppDeps, realmId: string, token: string, fileName: string): Promise<StoredFile | null> {
  if (realmId !== String(deps.realmId)) return null;
  const key = `exports/${realmId}/${token}/${fileName}`;
  if (!isSafeKey(key)) return null;
  const row = await RealmExport.query(deps.knex).where({ realm_id: deps.realmId, export_path: key, status: ExportStatus.SUCCEEDED }).first();
  return row ? fileStore(deps.config).read(key) : null;
}
