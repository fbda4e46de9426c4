import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import { loadViewer } from '../channels/access';
import { REALM_SETTINGS_BY_NAME } from '../realm/catalog';
import type { User } from '../users/model';
import { accessMessage } from './access';
import { FLAG_BITS } from './flags';

/**
 * GET /messages/{id}/read_receipts: who has read a message, as Zulip answers it. Left out: the
 * sender, deactivated accounts, users with `send_read_receipts` off, users who muted the caller
 * (they could otherwise be told apart by reading everything at once) and users the caller muted.
 * Bots are included; so are users who read the message without having received it.
 */

/** The organization's `enable_read_receipts`: the catalog's value until organizations store it. */
export type ReadReceiptsSetting = (db: Knex, realmId: number) => Promise<boolean>;

const catalogDefault = REALM_SETTINGS_BY_NAME.get('enable_read_receipts')?.default === true;
export const ZULIP_DEFAULT_READ_RECEIPTS: ReadReceiptsSetting = async () => catalogDefault;

let readReceiptsSetting: ReadReceiptsSetting = ZULIP_DEFAULT_READ_RECEIPTS;

/** Where the organization's setting is read from, once organizations store it. */
export function registerReadReceiptsSetting(setting: ReadReceiptsSetting): void {
  readReceiptsSetting = setting;
}

// Muting lives in `muted_users` (user_id muted muted_user_id) once that feature's migration ran;
// only a yes is remembered (migrations add tables, never remove them).
const mutingStored = new WeakSet<Knex>();

async function hasMutedUsers(db: Knex): Promise<boolean> {
  if (mutingStored.has(db)) return true;
  const present = await db.schema.hasTable('muted_users');
  if (present) mutingStored.add(db);
  return present;
}

export async function readReceipts(deps: AppDeps, user: User, messageId: number): Promise<number[]> {
  const db = deps.knex;
  const { message } = await accessMessage(db, await loadViewer(db, user), messageId, { modifying: false });
  if (!(await readReceiptsSetting(db, deps.realmId))) throw errors.badRequest('Read receipts are disabled in this organization.');
  const muting = (await hasMutedUsers(db))
    ? `AND NOT EXISTS (SELECT 1 FROM muted_users mu WHERE (mu.user_id = um.user_id AND mu.muted_user_id = ?) OR (mu.user_id = ? AND mu.muted_user_id = um.user_id))`
    : '';
  const result = await db.raw(
    `SELECT um.user_id FROM user_messages um
     JOIN users u ON u.id = um.user_id
     LEFT JOIN user_settings us ON us.user_id = um.user_id
     WHERE um.message_id = ? AND (um.flags & ${FLAG_BITS.read}) <> 0 AND um.user_id <> ?
       AND u.is_active AND COALESCE(us.send_read_receipts, true) ${muting}
     ORDER BY um.user_id`,
    [message.id, message.sender_id, ...(muting ? [user.id, user.id] : [])],
  );
  return (result.rows as { user_id: number }[]).map((r) => Number(r.user_id));
}
