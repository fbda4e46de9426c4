import { requireHuman } from '../core/presence/actions';
import { updateUserStatus } from '../core/user-status/actions';
import { getUserStatus } from '../core/user-status/queries';
import { endpoint, p } from './endpoint';
import { clientName } from './messages';
import type { Route } from './router';

/** User status: set your own, read anyone's (everyone's comes with POST /register). */
export const userStatusRoutes: Route[] = [
  {
    method: 'POST',
    path: '/users/me/status',
    endpoint: endpoint({
      guard: ({ user }) => requireHuman(user),
      params: {
        away: p.bool().optional(),
        status_text: p.string().optional(),
        emoji_name: p.string().optional(),
        emoji_code: p.string().optional(),
        reaction_type: p.string().optional(),
      },
      handler: async ({ deps, user, params, req }) => {
        const change = {
          away: params.away,
          statusText: params.status_text,
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        };
        await updateUserStatus(deps, user, change, clientName(req));
      },
    }),
  },
  {
    method: 'GET',
    path: '/users/:user_id/status',
    endpoint: endpoint({
      params: { user_id: p.path.int() },
      handler: async ({ deps, user, params }) => ({ status: await getUserStatus(deps, user, params.user_id) }),
    }),
  },
];
