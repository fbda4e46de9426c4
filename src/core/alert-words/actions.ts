import type { AppDeps } from '../deps';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import type { User } from '../users/model';
import { ALERT_WORDS_EVENT, alertWordsCache, alertWordsOf } from './store';
import { anyOf } from '../../db/lists';

/**
 * Alert words: words or phrases that flag a message for the user (`has_alert_word`) when it holds
 * them (matching.ts). Words are kept as written and compared ignoring case; each action answers,
 * and announces to the user's clients, the whole list.
 */

/** Trimmed, without blanks (Zulip's clean_alert_words). */
export function cleanAlertWords(words: string[]): string[] {
  return words.map((w) => w.trim()).filter((w) => w !== '');
}

function announce(deps: AppDeps, uow: UnitOfWork, user: User, words: string[]): void {
  uow.emit({ type: ALERT_WORDS_EVENT, alert_words: words }, [user.id]);
  uow.afterCommit(() => alertWordsCache(deps).invalidate());
}

/** POST /users/me/alert_words: adds the words not already there (ignoring case). */
export async function addAlertWords(deps: AppDeps, user: User, words: string[]): Promise<string[]> {
  const cleaned = cleanAlertWords(words);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const existing = new Set((await alertWordsOf(db, user.id)).map((w) => w.toLowerCase()));
    // As Zulip: among new words equal but for case, the last spelling is kept.
    const fresh = new Map<string, string>();
    for (const word of cleaned) {
      if (!existing.has(word.toLowerCase())) fresh.set(word.toLowerCase(), word);
    }
    if (fresh.size > 0) {
      await db('alert_words')
        .insert([...fresh].map(([key, word]) => ({ realm_id: deps.realmId, user_id: user.id, word, word_key: key })))
        .onConflict(['user_id', 'word_key'])
        .ignore();
    }
    const after = await alertWordsOf(db, user.id);
    announce(deps, uow, user, after);
    return after;
  });
}

/** DELETE /users/me/alert_words: removes the words given (ignoring case); unknown ones are ignored. */
export async function removeAlertWords(deps: AppDeps, user: User, words: string[]): Promise<string[]> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const lowered = [...new Set(words.map((w) => w.toLowerCase()))];
    if (lowered.length > 0)
      await db('alert_words')
        .where('user_id', user.id)
        .whereRaw(...anyOf('word_key', lowered, 'text'))
        .delete();
    const after = await alertWordsOf(db, user.id);
    announce(deps, uow, user, after);
    return after;
  });
}
