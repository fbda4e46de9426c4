import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { tableCache, TableCacheSpec } from '../../db/table-cache';
import type { AlertWordIndex } from './matching';

/** Bus event type of a change to someone's alert words (see actions.ts). */
export const ALERT_WORDS_EVENT = 'alert_words';

function indexSpec(realmId: number): TableCacheSpec<AlertWordIndex> {
  return {
    tables: ['alert_words'],
    eventTypes: [ALERT_WORDS_EVENT],
    async load(knex: Knex) {
      // Deactivated accounts' words stay: such accounts receive no messages, so they never match.
      const rows: { user_id: number; word_key: string }[] = await knex('alert_words').where('realm_id', realmId).select('user_id', 'word_key');
      const out = new Map<string, number[]>();
      for (const { user_id, word_key: key } of rows) {
        const list = out.get(key);
        if (list) list.push(user_id);
        else out.set(key, [user_id]);
      }
      return out;
    },
  };
}

const specs = new Map<number, TableCacheSpec<AlertWordIndex>>();

/** The process's index of the organization's alert words (see TableCache for how it stays exact). */
export function alertWordsCache(deps: Pick<AppDeps, 'knex' | 'bus' | 'realmId'>) {
  let spec = specs.get(deps.realmId);
  if (!spec) specs.set(deps.realmId, (spec = indexSpec(deps.realmId)));
  return tableCache(deps, spec);
}

/** `db`: the connection the caller works on (its transaction), used when the cache must load. */
export async function alertWordIndex(deps: Pick<AppDeps, 'knex' | 'bus' | 'realmId'>, db: Knex = deps.knex): Promise<AlertWordIndex> {
  const cache = alertWordsCache(deps);
  return cache.current() ?? (await cache.get(db));
}

/** The user's alert words as they wrote them, in the order they were added. */
export async function alertWordsOf(db: Knex, userId: number): Promise<string[]> {
  const rows: { word: string }[] = await db('alert_words').where('user_id', userId).orderBy('id').select('word');
  return rows.map((r) => r.word);
}
