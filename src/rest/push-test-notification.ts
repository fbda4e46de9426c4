import { sendLegacyTestNotification } from '../core/push/legacy-test-notification';
import { requireHuman } from '../core/push/tokens';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const pushTestNotificationRoutes: Route[] = [
  {
    method: 'POST',
    path: '/mobile_push/test_notification',
    endpoint: endpoint({
      guard: ({ user }) => requireHuman(user),
      params: { token: p.string().optional() },
      handler: async ({ deps, user, params }) => {
        await sendLegacyTestNotification(deps, user, params.token);
      },
    }),
  },
];
