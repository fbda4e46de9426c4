import type { StateSlice } from '../register/slice';
import { RealmDomainDict, realmDomains } from './store';

/** `realm_domains`: the organization's email domains. */
export const realmDomainsSlice: StateSlice = {
  fetchTypes: ['realm_domains'],
  async fetch(deps) {
    return { realm_domains: await realmDomains(deps.knex, deps.realmId) };
  },
  apply(state, event) {
    if (event.type !== 'realm_domains' || !('realm_domains' in state)) return;
    const domains = state.realm_domains as RealmDomainDict[];
    if (event.op === 'add') {
      domains.push(event.realm_domain as RealmDomainDict);
      domains.sort((a, b) => (a.domain < b.domain ? -1 : 1));
    } else if (event.op === 'change') {
      const changed = event.realm_domain as RealmDomainDict;
      const found = domains.find((d) => d.domain === changed.domain);
      if (found) found.allow_subdomains = changed.allow_subdomains;
    } else if (event.op === 'remove') {
      state.realm_domains = domains.filter((d) => d.domain !== event.domain);
    }
  },
};
