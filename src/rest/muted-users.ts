import { muteUser, unmuteUser } from '../core/muted-users/actions';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const mutedUserRoutes: Route[] = [
  {
    method: 'POST',
    path: '/users/me/muted_users/:muted_user_id',
    endpoint: endpoint({
      params: { muted_user_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await muteUser(deps, user, params.muted_user_id);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/users/me/muted_users/:muted_user_id',
    endpoint: endpoint({
      params: { muted_user_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await unmuteUser(deps, user, params.muted_user_id);
      },
    }),
  },
];
