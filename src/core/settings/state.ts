import type { ZulipEvent } from '../../realtime/bus';
import type { RegisterState, StateSlice } from '../register/slice';
import { User } from '../users/model';
import { SETTINGS, SETTINGS_BY_NAME, settingChoices } from './catalog';
import { realmDefaults, userSettings } from './store';

/**
 * Register state of the settings feature:
 * - `user_settings` (fetch type "user_settings"): every personal setting plus the time zone and
 *   the choices settings screens offer;
 * - for clients without `user_settings_object`, Zulip's older layout: the display settings
 *   (fetch type "update_display_settings") and notification settings ("update_global_notifications")
 *   at the top level of the response;
 * - `realm_user_settings_defaults` (fetch type "realm_user_settings_defaults").
 */
async function ownTimezone(deps: Parameters<StateSlice['fetch']>[0], me: User): Promise<string> {
  const row = await User.query(deps.knex).findById(me.id).select('timezone');
  return row?.timezone ?? me.timezone;
}

/** A settings change as the user_settings event carries it (the only settings event sent). */
function settingChange(event: ZulipEvent): { property: string; value: unknown } | null {
  if (event.type === 'user_settings' && event.op === 'update') return { property: event.property as string, value: event.value };
  return null;
}

export const userSettingsSlice: StateSlice = {
  fetchTypes: ['user_settings'],
  async fetch(deps, me) {
    const settings = await userSettings(deps.knex, me);
    return { user_settings: { ...settings, timezone: await ownTimezone(deps, me), ...settingChoices() } };
  },
  apply(state, event) {
    const change = settingChange(event);
    const target = state.user_settings as Record<string, unknown> | undefined;
    if (change && target && (SETTINGS_BY_NAME.has(change.property) || change.property === 'timezone')) {
      target[change.property] = change.value;
    }
  },
};

function legacySlice(fetchType: string, family: 'display' | 'notification'): StateSlice {
  const names = SETTINGS.filter((s) => s.legacy === family).map((s) => s.name);
  if (family === 'display') names.push('timezone');
  return {
    fetchTypes: [fetchType],
    async fetch(deps, me, options) {
      if (options.capabilities.user_settings_object) return {};
      const settings = await userSettings(deps.knex, me);
      const out: RegisterState = {};
      for (const name of names) out[name] = name === 'timezone' ? await ownTimezone(deps, me) : settings[name];
      const choices = settingChoices();
      if (family === 'display') out.emojiset_choices = choices.emojiset_choices;
      else out.available_notification_sounds = choices.available_notification_sounds;
      return out;
    },
    apply(state, event, _me, options) {
      if (options.capabilities.user_settings_object) return;
      const change = settingChange(event);
      if (change && names.includes(change.property) && change.property in state) state[change.property] = change.value;
    },
  };
}

export const legacyDisplaySettingsSlice = legacySlice('update_display_settings', 'display');
export const legacyNotificationSettingsSlice = legacySlice('update_global_notifications', 'notification');

export const realmUserSettingsDefaultsSlice: StateSlice = {
  fetchTypes: ['realm_user_settings_defaults'],
  async fetch(deps) {
    return { realm_user_settings_defaults: { ...(await realmDefaults(deps.knex, deps.realmId)), ...settingChoices() } };
  },
  apply(state, event) {
    const target = state.realm_user_settings_defaults as Record<string, unknown> | undefined;
    if (event.type !== 'realm_user_settings_defaults' || event.op !== 'update' || !target) return;
    if (SETTINGS_BY_NAME.has(event.property as string)) target[event.property as string] = event.value;
  },
};

export const settingsSlices: StateSlice[] = [userSettingsSlice, legacyDisplaySettingsSlice, legacyNotificationSettingsSlice, realmUserSettingsDefaultsSlice];
