import type { Knex } from 'knex';
import { anyOf } from '../../db/lists';
import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { BotStorageEntry } from './model';
import { keyDoesNotExist, storableKeys } from './validation';

/** Key to value, in the order the caller asked for (or stored, when they asked for everything). */
export type BotStorage = Map<string, string>;

const ownEntries = (db: Knex, user: Pick<User, 'id'>) => BotStorageEntry.query(db).where('user_id', user.id);

/** The values of the given keys (every key when none are given); any missing key is an error. */
export async function getBotStorage(deps: AppDeps, user: User, keys?: readonly string[]): Promise<BotStorage> {
  if (keys === undefined) {
    const rows = await ownEntries(deps.knex, user).select('key', 'value').orderBy('id');
    return new Map(rows.map((row) => [row.key, row.value]));
  }
  const rows = await ownEntries(deps.knex, user)
    .select('key', 'value')
    .whereRaw(...anyOf('key', storableKeys(keys), 'text'));
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  const storage: BotStorage = new Map();
  for (const key of keys) {
    const value = byKey.get(key);
    if (value === undefined) throw keyDoesNotExist();
    storage.set(key, value);
  }
  return storage;
}

/** Characters of all the account's keys and values together, as the limit counts them. */
export async function storedSize(db: Knex, user: Pick<User, 'id'>): Promise<number> {
  const row = (await ownEntries(db, user).select(db.raw('coalesce(sum(length(key) + length(value)), 0)::bigint as size')).first()) as unknown as {
    size: string | number;
  };
  return Number(row.size);
}

/** The size each of these keys takes now (absent keys take nothing). */
export async function entrySizes(db: Knex, user: Pick<User, 'id'>, keys: readonly string[]): Promise<Map<string, number>> {
  const rows = (await ownEntries(db, user)
    .select('key', db.raw('length(key) + length(value) as size'))
    .whereRaw(...anyOf('key', storableKeys(keys), 'text'))) as unknown as { key: string; size: string | number }[];
  return new Map(rows.map((row) => [row.key, Number(row.size)]));
}

/** The account's keys, oldest first. */
export async function storedKeys(db: Knex, user: Pick<User, 'id'>): Promise<string[]> {
  return (await ownEntries(db, user).select('key').orderBy('id')).map((row) => row.key);
}
