import { addDefaultChannel, removeDefaultChannel } from '../core/default-channels/actions';
import { defaultChannelIds } from '../core/default-channels/store';
import { requireRealmAdmin } from '../core/realm/actions';
import { isGuestRole } from '../core/users/roles';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const defaultChannelRoutes: Route[] = [
  {
    method: 'GET',
    path: '/default_streams',
    endpoint: endpoint({
      params: {},
      // As in register, guests are not told the default channels.
      handler: async ({ deps, user }) => ({ default_streams: isGuestRole(user.role) ? [] : await defaultChannelIds(deps.knex, deps.realmId) }),
    }),
  },
  {
    method: 'POST',
    path: '/default_streams',
    endpoint: endpoint({
      guard: ({ user }) => requireRealmAdmin(user),
      params: { stream_id: p.int() },
      handler: async ({ deps, user, params }) => {
        await addDefaultChannel(deps, user, params.stream_id);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/default_streams',
    endpoint: endpoint({
      guard: ({ user }) => requireRealmAdmin(user),
      params: { stream_id: p.int() },
      handler: async ({ deps, user, params }) => {
        await removeDefaultChannel(deps, user, params.stream_id);
      },
    }),
  },
];
