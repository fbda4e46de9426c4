import type { Knex } from 'knex';
import { anyOf } from '../../db/lists';

/**
 * Typing-notification preferences (receives_typing_notifications, send_private_typing_notifications,
 * send_stream_typing_notifications). They are personal settings stored in `user_settings`; until
 * that table holds a setting, everyone has it on, which is also every setting's default.
 */
export type TypingSetting = 'receives_typing_notifications' | 'send_private_typing_notifications' | 'send_stream_typing_notifications';

const stored = new WeakMap<Knex, Set<TypingSetting>>();

/** Whether the database holds the setting; only a yes is remembered (migrations add, never remove). */
async function settingStored(db: Knex, setting: TypingSetting): Promise<boolean> {
  if (stored.get(db)?.has(setting)) return true;
  const present = (await db.schema.hasTable('user_settings')) && (await db.schema.hasColumn('user_settings', setting));
  if (present) {
    if (!stored.has(db)) stored.set(db, new Set());
    stored.get(db)!.add(setting);
  }
  return present;
}

/** Of `userIds`, those with the setting on (in the given order). */
export async function usersWithSetting(db: Knex, userIds: readonly number[], setting: TypingSetting): Promise<number[]> {
  if (userIds.length === 0 || !(await settingStored(db, setting))) return [...userIds];
  const rows: { user_id: number }[] = await db('user_settings')
    .whereRaw(...anyOf('user_id', [...new Set(userIds)]))
    .where(setting, false)
    .select('user_id');
  const off = new Set(rows.map((r) => r.user_id));
  return userIds.filter((id) => !off.has(id));
}

export async function hasSetting(db: Knex, userId: number, setting: TypingSetting): Promise<boolean> {
  return (await usersWithSetting(db, [userId], setting)).length === 1;
}
