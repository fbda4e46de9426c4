import type { StateSlice } from '../register/slice';
import { listPlaygrounds } from './queries';

/** `realm_playgrounds`; a realm_playgrounds event carries the whole new list. */
export const realmPlaygroundsSlice: StateSlice = {
  fetchTypes: ['realm_playgrounds'],
  async fetch(deps) {
    return { realm_playgrounds: await listPlaygrounds(deps.knex, deps.realmId) };
  },
  apply(state, event) {
    if (event.type === 'realm_playgrounds') state.realm_playgrounds = event.realm_playgrounds;
  },
};
