import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { tableCache, TableCacheSpec } from '../../db/table-cache';

/**
 * Typing-notification preferences (receives_typing_notifications, send_private_typing_notifications,
 * send_stream_typing_notifications). They are personal settings stored in `user_settings`; until
 * that table holds a setting, everyone has it on, which is also every setting's default.
 *
 * Every typing notification asks them (the sender's, then each listener's), so the process keeps
 * who turned each one off in a table cache (see TableCache for how it stays exact): that list is
 * short, and a typing notification needs no statement for it.
 */
export type TypingSetting = 'receives_typing_notifications' | 'send_private_typing_notifications' | 'send_stream_typing_notifications';

const SETTINGS: TypingSetting[] = ['receives_typing_notifications', 'send_private_typing_notifications', 'send_stream_typing_notifications'];

type TurnedOff = ReadonlyMap<TypingSetting, ReadonlySet<number>>;

/** What the preferences need of the server: the database and the bus that keeps the cache exact. */
type PreferenceDeps = Pick<AppDeps, 'knex' | 'bus' | 'realmId'>;

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

function turnedOffSpec(realmId: number): TableCacheSpec<TurnedOff> {
  return {
    tables: ['user_settings'],
    // Settings changes announce themselves as user_settings events (src/core/settings/events.ts).
    eventTypes: ['user_settings'],
    async load(knex: Knex) {
      const out = new Map<TypingSetting, Set<number>>();
      for (const setting of SETTINGS) {
        const rows: { user_id: number }[] = (await settingStored(knex, setting))
          ? await knex('user_settings')
              .where({ realm_id: realmId, [setting]: false })
              .select('user_id')
          : [];
        out.set(setting, new Set(rows.map((r) => r.user_id)));
      }
      return out;
    },
  };
}

const specs = new Map<number, TableCacheSpec<TurnedOff>>();

async function turnedOff(deps: PreferenceDeps, setting: TypingSetting): Promise<ReadonlySet<number>> {
  let spec = specs.get(deps.realmId);
  if (!spec) specs.set(deps.realmId, (spec = turnedOffSpec(deps.realmId)));
  return (await tableCache(deps, spec).get()).get(setting)!;
}

/** Of `userIds`, those with the setting on (in the given order). */
export async function usersWithSetting(deps: PreferenceDeps, userIds: readonly number[], setting: TypingSetting): Promise<number[]> {
  if (userIds.length === 0) return [];
  const off = await turnedOff(deps, setting);
  return off.size === 0 ? [...userIds] : userIds.filter((id) => !off.has(id));
}

export async function hasSetting(deps: PreferenceDeps, userId: number, setting: TypingSetting): Promise<boolean> {
  return !(await turnedOff(deps, setting)).has(userId);
}
