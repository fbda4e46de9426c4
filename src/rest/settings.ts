import { REALM_DEFAULT_SETTINGS, SETTINGS, SettingSpec, SettingsMap } from '../core/settings/catalog';
import { updateOwnSettings, updateRealmDefaults } from '../core/settings/actions';
import { updateOtherUsersSettings } from '../core/settings/others';
import { decodeSettingParam } from '../core/settings/validate';
import { v } from '../validation/validate';
import { requireHuman } from '../core/presence/actions';
import { requireAdmin } from '../core/users/access';
import { endpoint, p, Param } from './endpoint';
import type { Route } from './router';

/**
 * The settings are declared as raw strings and decoded in the handler, after the caller's right to
 * use the endpoint is checked: a member sending a bad value to an administrators' endpoint is told
 * about the permission, as Zulip does. `dense_mode` (removed) is not declared, so it is reported
 * in ignored_parameters_unsupported.
 */
const raw = () => new Param<string | undefined>((value) => value, false);

function settingParams(specs: readonly SettingSpec[]): Record<string, Param<string | undefined>> {
  return Object.fromEntries(specs.map((s) => [s.name, raw()]));
}

function decodeSettings(specs: readonly SettingSpec[], params: Record<string, unknown>): SettingsMap {
  const out: SettingsMap = {};
  for (const spec of specs) {
    const value = params[spec.name];
    if (typeof value === 'string') out[spec.name] = decodeSettingParam(spec, value);
  }
  return out;
}

/** Whose settings an administrator changes: listed users and members of listed groups. */
const TARGET_USERS = v.dict<{ skip_if_already_edited: boolean; user_ids?: number[]; group_ids?: number[] }>(
  { skip_if_already_edited: v.bool() },
  { user_ids: v.list(v.int()), group_ids: v.list(v.int()) },
);

export const settingsRoutes: Route[] = [
  {
    method: 'PATCH',
    path: '/settings',
    endpoint: endpoint({
      // Bots are refused before their parameters are read, as Zulip's human_users_only does.
      guard: ({ user }) => requireHuman(user),
      params: {
        full_name: p.string().optional(),
        timezone: p.string().optional(),
        old_password: p.string().optional(),
        new_password: p.string().optional(),
        email: p.string().optional(),
        target_users: p.json(TARGET_USERS).optional(),
        ...settingParams(SETTINGS),
      },
      handler: async ({ deps, user, params }) => {
        if (params.target_users !== undefined) {
          // Full name and old password mean nothing for other users; Zulip passes over them.
          const { user_ids = [], group_ids = [], skip_if_already_edited } = params.target_users;
          await updateOtherUsersSettings(
            deps,
            user,
            { userIds: user_ids, groupIds: group_ids, skipIfAlreadyEdited: skip_if_already_edited },
            decodeSettings(SETTINGS, params),
            { email: params.email, newPassword: params.new_password, timezone: params.timezone },
          );
          return;
        }
        await updateOwnSettings(deps, user, {
          settings: decodeSettings(SETTINGS, params),
          fullName: params.full_name,
          timezone: params.timezone,
          oldPassword: params.old_password,
          newPassword: params.new_password,
          email: params.email,
        });
      },
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    endpoint: endpoint({
      params: settingParams(REALM_DEFAULT_SETTINGS),
      handler: async ({ deps, user, params }) => {
        requireAdmin(user);
        await updateRealmDefaults(deps, user, decodeSettings(REALM_DEFAULT_SETTINGS, params));
      },
    }),
  },
];
