import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inTransaction } from '../../db/unit-of-work';
import { log } from '../../log';
import type { AppDeps } from '../deps';
import { fileStore } from '../uploads/stores';
import { EXPORT_FULL_WITHOUT_CONSENT, EXPORT_PUBLIC, ExportStatus, RealmExport } from './model';
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
  // Claimed by one process only (a restarted server resumes the requested ones).
  const claimed = await RealmExport.query(deps.knex)
    .patch({ status: ExportStatus.STARTED, date_started: new Date() })
    .where({ id: exportId, status: ExportStatus.REQUESTED });
  const row = claimed === 1 ? await RealmExport.query(deps.knex).findById(exportId) : undefined;
  if (!row) return;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-realm-export-'));
  try {
    const name = `zulip-export-${crypto.randomBytes(6).toString('base64url').toLowerCase()}`;
    const file = path.join(tmp, `${name}.tar.gz`);
    // Public: nobody's private data; with consent: the consenting members'; without: everyone's.
    const consenting = row.export_type === EXPORT_PUBLIC ? [] : row.export_type === EXPORT_FULL_WITHOUT_CONSENT ? null : await consentingUserIds(deps);
    const store = fileStore(deps.config);
    await exportOrganization(deps.knex, file, quiet, store, { consentingUserIds: consenting, credentials: false });
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

/** An export started this long ago is taken to have died with its process. */
const ABANDONED_MS = 6 * 3600 * 1000;

/**
 * At start-up: runs the exports requested before the server stopped, and marks failed those whose
 * run was cut short long ago (their process is gone), so the administrators are not left waiting.
 */
export function resumeExports(deps: AppDeps): void {
  void (async () => {
    const stale = await RealmExport.query(deps.knex)
      .where({ realm_id: deps.realmId, status: ExportStatus.STARTED })
      .where('date_started', '<', new Date(Date.now() - ABANDONED_MS));
    if (stale.length > 0) {
      await inTransaction(deps, deps.realmId, async (uow) => {
        await RealmExport.query(uow.trx)
          .patch({ status: ExportStatus.FAILED, date_failed: new Date() })
          .whereIn(
            'id',
            stale.map((r) => r.id),
          );
        await emitExports(deps, uow);
      });
    }
    const requested = await RealmExport.query(deps.knex).where({ realm_id: deps.realmId, status: ExportStatus.REQUESTED }).orderBy('id');
    for (const row of requested) await runExport(deps, row.id).catch((error: unknown) => log().error({ err: error, exportId: row.id }, 'realm export failed'));
  })().catch((error: unknown) => log().error({ err: error }, 'resuming realm exports failed'));
}
