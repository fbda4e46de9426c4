import { anyOf } from '../../db/lists';
import { inTransaction } from '../../db/unit-of-work';
import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { BotStorageEntry } from './model';
import { entrySizes, storedKeys, storedSize } from './queries';
import { BOT_STORAGE_SIZE_LIMIT, characters, keyDoesNotExist, storableKeys, storageLimitExceeded } from './validation';

/** Rows per INSERT, well under the statement's parameter limit. */
const ROWS_PER_INSERT = 1000;

/*
 * Zulip sends no event for bot storage: only the account itself reads it, by asking. Each action
 * takes the account's row lock first, so two requests of one account cannot both pass the limit.
 */

/** PUT /bot_storage: stores (or replaces) the entries, unless the account's storage would pass the limit. */
export async function updateBotStorage(deps: AppDeps, user: User, entries: ReadonlyMap<string, string>): Promise<void> {
  if (entries.size === 0) return;
  await inTransaction(deps, deps.realmId, async (uow) => {
    await uow.trx('users').where('id', user.id).forUpdate().first('id');
    const keys = [...entries.keys()];
    const current = await entrySizes(uow.trx, user, keys);
    let difference = 0;
    for (const [key, value] of entries) difference += characters(key) + characters(value) - (current.get(key) ?? 0);
    const size = (await storedSize(uow.trx, user)) + difference;
    if (size > BOT_STORAGE_SIZE_LIMIT) throw storageLimitExceeded(size);
    const rows = [...entries].map(([key, value]) => ({ realm_id: deps.realmId, user_id: user.id, key, value }));
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await uow
        .trx(BotStorageEntry.tableName)
        .insert(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflict(['user_id', 'key'])
        .merge(['value']);
    }
  });
}

/**
 * DELETE /bot_storage: removes the given keys (every key when none are given), or nothing when
 * one of them is not stored. As in Zulip, a key named twice counts as one that is missing.
 * Answers the keys removed.
 */
export async function removeBotStorage(deps: AppDeps, user: User, keys?: readonly string[]): Promise<readonly string[]> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    await uow.trx('users').where('id', user.id).forUpdate().first('id');
    const removing = keys ?? (await storedKeys(uow.trx, user));
    if (removing.length === 0) return removing;
    const found = await BotStorageEntry.query(uow.trx)
      .select('id')
      .where('user_id', user.id)
      .whereRaw(...anyOf('key', storableKeys(removing), 'text'));
    if (found.length < removing.length) throw keyDoesNotExist();
    await BotStorageEntry.query(uow.trx)
      .delete()
      .whereRaw(
        ...anyOf(
          'id',
          found.map((row) => row.id),
        ),
      );
    return removing;
  });
}
