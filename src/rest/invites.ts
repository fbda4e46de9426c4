import {
  acceptInvitation,
  createMultiuseInvite,
  inviteUsers,
  MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH,
  resendEmailInvite,
  revokeEmailInvite,
  revokeMultiuseInvite,
} from '../core/invites/actions';
import { listInvitations } from '../core/invites/queries';
import { ROLE_VALUES } from '../core/users/roles';
import { endpoint, p } from './endpoint';
import type { Route } from './router';
import { v } from '../validation/validate';

/** Parameters shared by email invitations and reusable links. */
const optionParams = {
  invite_expires_in_minutes: p.json(v.nullable(v.int())).optional(),
  invite_as: p.intIn(ROLE_VALUES).default(400),
  group_ids: p.json(v.nullable(v.list(v.int()))).optional(),
  include_realm_default_subscriptions: p.bool().default(false),
  welcome_message_custom_text: p.string({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }).optional(),
};

export const inviteRoutes: Route[] = [
  {
    method: 'GET',
    path: '/invites',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ invites: await listInvitations(deps, user) }),
    }),
  },
  {
    method: 'POST',
    path: '/invites',
    endpoint: endpoint({
      params: {
        invitee_emails: p.string(),
        stream_ids: p.json(v.list(v.int())),
        notify_referrer_on_join: p.bool().default(true),
        ...optionParams,
      },
      handler: async ({ deps, user, params }) => {
        await inviteUsers(deps, user, {
          inviteeEmails: params.invitee_emails,
          expiresInMinutes: params.invite_expires_in_minutes,
          inviteAs: params.invite_as,
          streamIds: params.stream_ids,
          groupIds: params.group_ids ?? null,
          includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
          notifyReferrerOnJoin: params.notify_referrer_on_join,
          welcomeMessageCustomText: params.welcome_message_custom_text ?? null,
        });
      },
    }),
  },
  {
    method: 'POST',
    path: '/invites/multiuse',
    endpoint: endpoint({
      params: { stream_ids: p.json(v.nullable(v.list(v.int()))).optional(), ...optionParams },
      handler: async ({ deps, user, params }) => ({
        invite_link: await createMultiuseInvite(deps, user, {
          expiresInMinutes: params.invite_expires_in_minutes,
          inviteAs: params.invite_as,
          streamIds: params.stream_ids ?? [],
          groupIds: params.group_ids ?? null,
          includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
          welcomeMessageCustomText: params.welcome_message_custom_text ?? null,
        }),
      }),
    }),
  },
  {
    method: 'DELETE',
    path: '/invites/multiuse/:invite_id',
    endpoint: endpoint({
      params: { invite_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await revokeMultiuseInvite(deps, user, params.invite_id);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/invites/:invite_id',
    endpoint: endpoint({
      params: { invite_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await revokeEmailInvite(deps, user, params.invite_id);
      },
    }),
  },
  {
    method: 'POST',
    path: '/invites/:invite_id/resend',
    endpoint: endpoint({
      params: { invite_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await resendEmailInvite(deps, user, params.invite_id);
      },
    }),
  },
  {
    // Accepting an invitation: the JSON counterpart of the /join/<key>/ sign-up page.
    method: 'POST',
    path: '/join/:key',
    endpoint: endpoint({
      auth: 'none',
      params: { key: p.path.string(), full_name: p.string(), password: p.string(), email: p.string().optional() },
      handler: async ({ deps, params }) => {
        const { user, apiKey } = await acceptInvitation(deps, params.key, {
          fullName: params.full_name,
          password: params.password,
          email: params.email,
        });
        return { user_id: user.id, email: user.delivery_email, api_key: apiKey };
      },
    }),
  },
];
