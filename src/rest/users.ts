import { createUser, deactivateUser, reactivateUser, regenerateApiKey, updateUser } from '../core/users/actions';
import { loginWithPassword } from '../core/users/authenticate';
import { deactivateOwnAccount } from '../core/accounts/leave';
import { deactivationActionsValidator } from '../core/users/deactivation-actions';
import { getUserForViewer, listUsersForViewer, userIdForKey } from '../core/users/queries';
import { ownMaxMessageId, ownProfileData } from '../core/users/own-values';
import { ROLE_VALUES } from '../core/users/roles';
import { ownUserDict } from '../core/users/view';
import { updateUserProfileData } from '../core/profile-fields/actions';
import { profileDataValidator } from '../core/profile-fields/validation';
import { loginDevice } from './client-address';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

const readOpts = {
  client_gravatar: p.bool().default(true),
  include_custom_profile_fields: p.bool().default(false),
};

export const userRoutes: Route[] = [
  {
    method: 'POST',
    path: '/fetch_api_key',
    endpoint: endpoint({
      auth: 'none',
      params: { username: p.string(), password: p.string() },
      handler: async ({ deps, params, req }) => loginWithPassword(deps, params.username, params.password, loginDevice(req, deps.config.trustedProxies)),
    }),
  },
  {
    method: 'POST',
    path: '/users/me/api_key/regenerate',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ api_key: await regenerateApiKey(deps, user.id) }),
    }),
  },
  {
    method: 'GET',
    path: '/users/me',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => {
        const [maxMessageId, profileData] = await Promise.all([ownMaxMessageId(deps, user.id), ownProfileData(deps, user.id)]);
        return ownUserDict(deps.config, user, maxMessageId, profileData);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/users/me',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => {
        await deactivateOwnAccount(deps, user);
      },
    }),
  },
  {
    method: 'GET',
    path: '/users',
    endpoint: endpoint({
      params: readOpts,
      handler: async ({ deps, user, params }) => ({
        members: await listUsersForViewer(deps, user, {
          clientGravatar: params.client_gravatar,
          includeCustomProfileFields: params.include_custom_profile_fields,
        }),
      }),
    }),
  },
  {
    method: 'POST',
    path: '/users',
    endpoint: endpoint({
      params: { email: p.string(), password: p.string(), full_name: p.string() },
      handler: async ({ deps, user, params }) => {
        const created = await createUser(deps, user, {
          email: params.email,
          password: params.password,
          fullName: params.full_name,
          joining: true,
        });
        return { user_id: created.user.id };
      },
    }),
  },
  {
    method: 'GET',
    path: '/users/:user_id',
    endpoint: endpoint({
      params: { user_id: p.path.string(), ...readOpts },
      handler: async ({ deps, user, params }) => {
        const key = /^[0-9]+$/.test(params.user_id) ? Number(params.user_id) : params.user_id;
        return {
          user: await getUserForViewer(deps, user, key, {
            clientGravatar: params.client_gravatar,
            includeCustomProfileFields: params.include_custom_profile_fields,
          }),
        };
      },
    }),
  },
  {
    method: 'PATCH',
    path: '/users/:user_id',
    endpoint: endpoint({
      params: {
        // An id, or an address (Zulip's PATCH /users/{email}).
        user_id: p.path.string(),
        full_name: p.string().optional(),
        role: p.intIn(ROLE_VALUES).optional(),
        profile_data: p.json(profileDataValidator(true)).optional(),
      },
      handler: async ({ deps, user, params }) => {
        const userId = await userIdForKey(deps, user, params.user_id);
        await updateUser(deps, user, userId, { fullName: params.full_name, role: params.role });
        if (params.profile_data) await updateUserProfileData(deps, user, userId, params.profile_data);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/users/:user_id',
    endpoint: endpoint({
      params: { user_id: p.path.int(), actions: p.json(deactivationActionsValidator).optional() },
      handler: async ({ deps, user, params }) => {
        await deactivateUser(deps, user, params.user_id, params.actions);
      },
    }),
  },
  {
    method: 'POST',
    path: '/users/:user_id/reactivate',
    endpoint: endpoint({
      params: { user_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await reactivateUser(deps, user, params.user_id);
      },
    }),
  },
];
