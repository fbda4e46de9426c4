import type { StateSlice } from '../register/slice';
import { listLinkifiers } from './queries';

/**
 * `realm_linkifiers`: the ordered list, for clients that understand URL templates
 * (`linkifier_url_template`); others get an empty list and no events, as in Zulip.
 */
export const realmLinkifiersSlice: StateSlice = {
  fetchTypes: ['realm_linkifiers'],
  async fetch(deps, _user, options) {
    if (!options.capabilities.linkifier_url_template) return { realm_linkifiers: [] };
    return { realm_linkifiers: await listLinkifiers(deps.knex, deps.realmId) };
  },
  apply(state, event, _user, options) {
    if (event.type === 'realm_linkifiers' && options.capabilities.linkifier_url_template) state.realm_linkifiers = event.realm_linkifiers;
  },
};

/** `realm_filters`, the legacy form: always empty since linkifiers hold URL templates. */
export const realmFiltersSlice: StateSlice = {
  fetchTypes: ['realm_filters'],
  async fetch() {
    return { realm_filters: [] };
  },
};
