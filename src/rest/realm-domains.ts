import { addRealmDomain, changeRealmDomain, removeRealmDomain, requireOwner } from '../core/realm-domains/actions';
import { realmDomains } from '../core/realm-domains/store';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const realmDomainRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/domains',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps }) => ({ domains: await realmDomains(deps.knex, deps.realmId) }),
    }),
  },
  {
    method: 'POST',
    path: '/realm/domains',
    endpoint: endpoint({
      guard: ({ user }) => requireOwner(user),
      params: { domain: p.string(), allow_subdomains: p.bool() },
      handler: async ({ deps, user, params }) => {
        const created = await addRealmDomain(deps, user, params.domain, params.allow_subdomains);
        return { new_domain: [created.id, created.domain] };
      },
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/domains/:domain',
    endpoint: endpoint({
      guard: ({ user }) => requireOwner(user),
      params: { domain: p.path.string(), allow_subdomains: p.bool() },
      handler: async ({ deps, user, params }) => {
        await changeRealmDomain(deps, user, params.domain, params.allow_subdomains);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/domains/:domain',
    endpoint: endpoint({
      guard: ({ user }) => requireOwner(user),
      params: { domain: p.path.string() },
      handler: async ({ deps, user, params }) => {
        await removeRealmDomain(deps, user, params.domain);
      },
    }),
  },
];
