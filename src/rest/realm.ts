import { requireRealmAdmin, updateRealmSettings } from '../core/realm/actions';
import { REALM_SETTING_INPUTS } from '../core/realm/setting-input';
import { deactivateRealm, requireRealmOwner } from '../core/realm/activation';
import { sendTestWelcomeBotMessage } from '../core/system-bots/welcome-bot';
import { v } from '../validation/validate';
import { endpoint, p, Param } from './endpoint';
import type { Route } from './router';

/** One optional parameter per settable organization setting, decoded as Zulip decodes it. */
const settingParams: Record<string, Param<unknown>> = Object.fromEntries(
  REALM_SETTING_INPUTS.map((input) => [input.name, (input.rawString ? p.string().optional() : p.json(input.validate).optional()) as Param<unknown>]),
);
const rawStringInputs = REALM_SETTING_INPUTS.filter((input) => input.rawString);

export const realmRoutes: Route[] = [
  {
    method: 'PATCH',
    path: '/realm',
    endpoint: endpoint({
      guard: ({ user }) => requireRealmAdmin(user),
      params: settingParams,
      handler: async ({ deps, user, params }) => {
        const changes: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(params)) if (value !== undefined) changes[name] = value;
        // Plain-string settings get their content rules here (length, languages), after decoding.
        for (const input of rawStringInputs) if (changes[input.name] !== undefined) changes[input.name] = input.validate(changes[input.name], input.name);
        return updateRealmSettings(deps, user, changes);
      },
    }),
  },
  {
    method: 'POST',
    path: '/realm/deactivate',
    endpoint: endpoint({
      guard: ({ user }) => requireRealmOwner(user),
      // Data deletion after deactivation is not offered: the delay is accepted and has no effect.
      params: { deletion_delay_days: p.json(v.nullable(v.int())).optional() },
      handler: async ({ deps, user }) => {
        await deactivateRealm(deps, user);
      },
    }),
  },
  {
    method: 'POST',
    path: '/realm/test_welcome_bot_custom_message',
    endpoint: endpoint({
      guard: ({ user }) => requireRealmAdmin(user),
      params: { welcome_message_custom_text: p.string() },
      handler: async ({ deps, user, params }) => ({
        message_id: await sendTestWelcomeBotMessage(deps, user, params.welcome_message_custom_text),
      }),
    }),
  },
];
