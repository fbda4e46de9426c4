import type { ZulipEvent } from '../../realtime/bus';
import { LANGUAGES, SETTINGS_BY_NAME, SettingValue } from './catalog';

/**
 * Event shapes of the settings feature.
 *
 * Only the modern events are published on the bus:
 *   {type: "user_settings", op: "update", property, value[, language_name]}   to the user
 *   {type: "realm_user_settings_defaults", op: "update", property, value}     to every active user
 *
 * Clients that registered without the `user_settings_object` capability must also receive Zulip's
 * legacy events (`update_display_settings`, `update_global_notifications`). Those are derived
 * when the event is delivered to such a queue: call `legacySettingsEvents(event, userEmail)` and
 * deliver its results right after the modern event.
 */
export function userSettingsEvent(property: string, value: SettingValue): ZulipEvent {
  const event: ZulipEvent = { type: 'user_settings', op: 'update', property, value };
  if (property === 'default_language') event.language_name = LANGUAGES[value as string] ?? value;
  return event;
}

export function realmDefaultsEvent(property: string, value: SettingValue): ZulipEvent {
  return { type: 'realm_user_settings_defaults', op: 'update', property, value };
}

/**
 * The legacy events Zulip sends alongside a user_settings event, for clients without
 * `user_settings_object`. `userEmail` is the user's own address (the `user` field). Settings added
 * after those event types were frozen have no legacy event.
 */
export function legacySettingsEvents(event: ZulipEvent, userEmail: string): ZulipEvent[] {
  if (event.type !== 'user_settings' || event.op !== 'update') return [];
  const property = event.property as string;
  const legacy = property === 'timezone' ? 'display' : SETTINGS_BY_NAME.get(property)?.legacy;
  if (legacy === 'notification') {
    return [{ type: 'update_global_notifications', user: userEmail, notification_name: property, setting: event.value }];
  }
  if (legacy === 'display') {
    const out: ZulipEvent = { type: 'update_display_settings', user: userEmail, setting_name: property, setting: event.value };
    if (event.language_name !== undefined) out.language_name = event.language_name;
    return [out];
  }
  return [];
}
