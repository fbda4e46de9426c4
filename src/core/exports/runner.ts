import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inTransaction } from '../../db/unit-of-work';
import type { AppDeps } from '../deps';
import { fileStore } from '../uploads/stores';
import { EXPORT_PUBLIC, ExportStatus, RealmExport } from './model';
import { exportOrganization } from './zulip-format/export';
import { emitExports } from './events';

const quiet = { start() {}, advance() {}, stop() {} };

/** The members whose private data a full export with consent may hold. */
async function consentingUserIds(deps: AppDeps): Promise<number[]> {
  const rows = await deps
    .knex('users')
    .join('user_settings', 'user_settings.user_id', 'users.id')
    .where({ 'users.realm_id': deps.realmId, 'user_settings.allow_private_data_export': true })
    .select('users.id');
  return rows.map((r: { id: number }) => r.id);
}

/**
 * Makes a requested export: the organization in Zulip's format as a .tar.gz in the file store,
 * under an unguessable key. The administrators hear when it is ready, or that it failed.
 */
export async function runExport(deps: AppDeps, exportId: number): Promise<void> {
  const row = await RealmExport.query(deps.knex).findById(exportId);
  if (!row || row.status !== ExportStatus.REQUESTED) return;
  await RealmExport.query(deps.knex).patch({ status: ExportStatus.STARTED, date_started: new Date() }).where('id', exportId);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-realm-export-'));
  try {
    const name = `zulip-export-${crypto.randomBytes(6).toString('base64url').toLowerCase()}`;
    const file = path.join(tmp, `${name}.tar.gz`);
    const consenting = row.export_type === EXPORT_PUBLIC ? [] : await consentingUserIds(deps);
    const store = fileStore(deps.config);
    await exportOrganization(deps.knex, file, quiet, store, { consentingUserIds: consenting });
    const key = `exports/${deps.realmId}/${crypto.randomBytes(18).toString('base64url')}/${name}.tar.gz`;
    const staged = await store.stage(fs.createReadStream(file));
    await staged.commit(key);
    await inTransaction(deps, deps.realmId, async (uow) => {
      await RealmExport.query(uow.trx)
        .patch({ status: ExportStatus.SUCCEEDED, date_succeeded: new Date(), export_path: key, export_size: staged.size })
        .where('id', exportId);
      await emitExports(deps, uow);
    });
  } catch (error) {
    await inTransaction(deps, deps.realmId, async (uow) => {
      await RealmExport.query(uow.trx).patch({ status: ExportStatus.FAILED, date_failed: new Date() }).where('id', exportId);
      await emitExports(deps, uow);
    });
    throw error;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
