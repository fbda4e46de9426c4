import { requireHuman } from '../core/presence/actions';
import { updateStatusForUser, updateUserStatus } from '../core/user-status/actions';
import { getUserStatus } from '../core/user-status/queries';
import { endpoint, p } from './endpoint';
import { clientName } from './messages';
import type { Route } from './router';

/** The parts of a status anyone's client may set (the user's own also take `away`). */
const statusParams = {
  status_text: p.string().optional(),
  emoji_name: p.string().optional(),
  emoji_code: p.string().optional(),
  reaction_type: p.string().optional(),
};

const statusChange = (params: { status_text?: string; emoji_name?: string; emoji_code?: string; reaction_type?: string }) => ({
  statusText: params.status_text,
  emojiName: params.emoji_name,
  emojiCode: params.emoji_code,
  reactionType: params.reaction_type,
});

/** User status: set your own (administrators: anyone's), read anyone's (everyone's comes with POST /register). */
export const userStatusRoutes: Route[] = [
  {
    method: 'POST',
    path: '/users/me/status',
    endpoint: endpoint({
      guard: ({ user }) => requireHuman(user),
      params: { away: p.bool().optional(), ...statusParams },
      handler: async ({ deps, user, params, req }) => {
        await updateUserStatus(deps, user, { away: params.away, ...statusChange(params) }, clientName(req));
      },
    }),
  },
  {
    method: 'POST',
    path: '/users/:user_id/status',
    endpoint: endpoint({
      // Administrators, and since feature level 473 administrators' bots; `away` is not for others to set.
      params: { user_id: p.path.int(), ...statusParams },
      handler: async ({ deps, user, params, req }) => {
        await updateStatusForUser(deps, user, params.user_id, statusChange(params), clientName(req));
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
