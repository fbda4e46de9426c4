import { serverSettings } from '../core/realm/server-settings';
import { endpoint } from './endpoint';
import type { Route } from './router';

export const serverRoutes: Route[] = [
  {
    method: 'GET',
    path: '/server_settings',
    endpoint: endpoint({
      auth: 'none',
      params: {},
      handler: async ({ deps }) => serverSettings(deps),
    }),
  },
];
