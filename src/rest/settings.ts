import { REALM_DEFAULT_SETTINGS, SETTINGS, SettingSpec, SettingsMap } from '../core/settings/catalog';
import { updateOwnSettings, updateRealmDefaults } from '../core/settings/actions';
import { decodeSettingParam } from '../core/settings/validate';
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

export const settingsRoutes: Route[] = [
  {
    method: 'PATCH',
    path: '/settings',
    endpoint: endpoint({
      params: {
        full_name: p.string().optional(),
        timezone: p.string().optional(),
        old_password: p.string().optional(),
        new_password: p.string().optional(),
        email: p.string().optional(),
        ...settingParams(SETTINGS),
      },
      handler: async ({ deps, user, params }) => {
        requireHuman(user);
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
