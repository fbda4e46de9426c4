import type { ZulipEvent } from '../../realtime/bus';
import { LANGUAGES, SettingValue } from './catalog';

/**
 * Event shapes of the settings feature.
 *
 * Only the modern events are published on the bus:
 *   {type: "user_settings", op: "update", property, value[, language_name]}   to the user
 *   {type: "realm_user_settings_defaults", op: "update", property, value}     to every active user
 *
 * Zulip's legacy `update_display_settings` / `update_global_notifications` events are no longer
 * sent to any client (feature level 439); clients without `user_settings_object` apply
 * `user_settings` events to their top-level settings.
 */
export function userSettingsEvent(property: string, value: SettingValue): ZulipEvent {
  const event: ZulipEvent = { type: 'user_settings', op: 'update', property, value };
  if (property === 'default_language') event.language_name = LANGUAGES[value as string] ?? value;
  return event;
}

export function realmDefaultsEvent(property: string, value: SettingValue): ZulipEvent {
  return { type: 'realm_user_settings_defaults', op: 'update', property, value };
}
