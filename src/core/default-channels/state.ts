import type { StateSlice } from '../register/slice';
import { isGuestRole } from '../users/roles';
import { defaultChannelIds } from './store';

/** `default_streams`: the default channels' ids; guests are not told them (as in Zulip). */
export const defaultChannelsSlice: StateSlice = {
  fetchTypes: ['default_streams'],
  async fetch(deps, user) {
    return { realm_default_streams: isGuestRole(user.role) ? [] : await defaultChannelIds(deps.knex, deps.realmId) };
  },
  apply(state, event) {
    if (event.type === 'default_streams' && 'realm_default_streams' in state) state.realm_default_streams = [...(event.default_streams as number[])];
  },
};
