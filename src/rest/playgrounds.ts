import { addPlayground, removePlayground } from '../core/playgrounds/actions';
import { requireAdmin } from '../core/users/access';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const playgroundRoutes: Route[] = [
  {
    method: 'POST',
    path: '/realm/playgrounds',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { name: p.string(), url_template: p.string(), pygments_language: p.string() },
      handler: async ({ deps, user, params }) => ({
        id: await addPlayground(deps, user, {
          name: params.name,
          pygmentsLanguage: params.pygments_language,
          urlTemplate: params.url_template,
        }),
      }),
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/playgrounds/:playground_id',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { playground_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await removePlayground(deps, user, params.playground_id);
      },
    }),
  },
];
