import type { StateSlice } from '../register/slice';
import { listRealmEmoji } from './queries';

/** `realm_emoji` in POST /register; a realm_emoji/update event carries the whole new map. */
export const realmEmojiSlice: StateSlice = {
  fetchTypes: ['realm_emoji'],
  async fetch(deps) {
    return { realm_emoji: await listRealmEmoji(deps.knex, deps.realmId) };
  },
  apply(state, event) {
    if (event.type === 'realm_emoji' && event.op === 'update') state.realm_emoji = event.realm_emoji;
  },
};
