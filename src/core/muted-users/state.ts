import type { StateSlice } from '../register/slice';
import { mutedUsersOf, MUTED_USERS_EVENT } from './store';

/** `muted_users`: the users the client's user muted, `[{id, timestamp}]`; each event carries the whole list. */
export const mutedUsersSlice: StateSlice = {
  fetchTypes: ['muted_users'],
  async fetch(deps, user) {
    return { muted_users: await mutedUsersOf(deps.knex, user.id) };
  },
  apply(state, event) {
    if (event.type === MUTED_USERS_EVENT) state.muted_users = event.muted_users;
  },
};
