import { parseStatus, reportPresence, requireHuman } from '../core/presence/actions';
import { realmPresence, userPresence } from '../core/presence/queries';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

/** Presence: report your own (and poll everyone's), read the organization's or one user's. */
export const presenceRoutes: Route[] = [
  {
    // Listed before /users/{user_id_or_email}/presence, which would otherwise match "me".
    method: 'POST',
    path: '/users/me/presence',
    endpoint: endpoint({
      params: {
        status: p.string(),
        last_update_id: p.int().optional(),
        history_limit_days: p.int().optional(),
        new_user_input: p.bool().default(false),
        ping_only: p.bool().default(false),
        slim_presence: p.bool().default(false),
      },
      handler: async ({ deps, user, params }) => {
        requireHuman(user);
        const status = parseStatus(params.status);
        await reportPresence(deps, user, status);
        const lastUpdateId = params.last_update_id ?? null;
        if (params.ping_only) {
          return { presence_last_update_id: lastUpdateId ?? -1, zephyr_mirror_active: false };
        }
        const serverTimestamp = Date.now() / 1000;
        const snapshot = await realmPresence(deps, user, {
          // Passing last_update_id asks for the modern format.
          slim: lastUpdateId !== null || params.slim_presence,
          lastUpdateId,
          historyLimitDays: params.history_limit_days ?? null,
        });
        return {
          presences: snapshot.presences,
          server_timestamp: serverTimestamp,
          presence_last_update_id: snapshot.presence_last_update_id,
          zephyr_mirror_active: false,
        };
      },
    }),
  },
  {
    method: 'GET',
    path: '/realm/presence',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => {
        const serverTimestamp = Date.now() / 1000;
        const { presences } = await realmPresence(deps, user, { slim: false });
        return { presences, server_timestamp: serverTimestamp };
      },
    }),
  },
  {
    method: 'GET',
    path: '/users/:user_id_or_email/presence',
    endpoint: endpoint({
      params: { user_id_or_email: p.path.string(), slim_presence: p.bool().default(false) },
      handler: async ({ deps, user, params }) => ({
        presence: await userPresence(deps, user, params.user_id_or_email, params.slim_presence),
      }),
    }),
  },
];
