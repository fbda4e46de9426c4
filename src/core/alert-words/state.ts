import type { StateSlice } from '../register/slice';
import { ALERT_WORDS_EVENT, alertWordsOf } from './store';

/** `alert_words`: the user's alert words; each event carries the whole list. */
export const alertWordsSlice: StateSlice = {
  fetchTypes: ['alert_words'],
  async fetch(deps, user) {
    return { alert_words: await alertWordsOf(deps.knex, user.id) };
  },
  apply(state, event) {
    if (event.type === ALERT_WORDS_EVENT) state.alert_words = event.alert_words;
  },
};
