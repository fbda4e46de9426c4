import { addLinkifier, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../core/linkifiers/actions';
import { listLinkifiers } from '../core/linkifiers/queries';
import { requireAdmin } from '../core/users/access';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const linkifierRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/linkifiers',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps }) => ({ linkifiers: await listLinkifiers(deps.knex, deps.realmId) }),
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/linkifiers',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { ordered_linkifier_ids: p.intList() },
      handler: async ({ deps, user, params }) => {
        await reorderLinkifiers(deps, user, params.ordered_linkifier_ids);
      },
    }),
  },
  {
    method: 'POST',
    path: '/realm/filters',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { pattern: p.string(), url_template: p.string() },
      handler: async ({ deps, user, params }) => ({
        id: await addLinkifier(deps, user, { pattern: params.pattern, urlTemplate: params.url_template }),
      }),
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/filters/:filter_id',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { filter_id: p.path.int(), pattern: p.string(), url_template: p.string() },
      handler: async ({ deps, user, params }) => {
        await updateLinkifier(deps, user, params.filter_id, { pattern: params.pattern, urlTemplate: params.url_template });
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/filters/:filter_id',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { filter_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await removeLinkifier(deps, user, params.filter_id);
      },
    }),
  },
];
