import { addNavigationView, removeNavigationView, updateNavigationView } from '../core/navigation-views/actions';
import { listNavigationViews } from '../core/navigation-views/queries';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

/** Fragments are URL hashes such as `narrow/is/starred`, so the path takes the rest of the URL. */
export const navigationViewRoutes: Route[] = [
  {
    method: 'GET',
    path: '/navigation_views',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ navigation_views: await listNavigationViews(deps.knex, user) }),
    }),
  },
  {
    method: 'POST',
    path: '/navigation_views',
    endpoint: endpoint({
      params: { fragment: p.string(), is_pinned: p.bool(), name: p.string().optional() },
      handler: async ({ deps, user, params }) => {
        await addNavigationView(deps, user, { fragment: params.fragment, isPinned: params.is_pinned, name: params.name });
      },
    }),
  },
  {
    method: 'PATCH',
    path: '/navigation_views/*fragment',
    endpoint: endpoint({
      params: { fragment: p.path.string(), is_pinned: p.bool().optional(), name: p.string().optional() },
      handler: async ({ deps, user, params }) => {
        await updateNavigationView(deps, user, params.fragment, { isPinned: params.is_pinned, name: params.name });
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/navigation_views/*fragment',
    endpoint: endpoint({
      params: { fragment: p.path.string() },
      handler: async ({ deps, user, params }) => {
        await removeNavigationView(deps, user, params.fragment);
      },
    }),
  },
];
