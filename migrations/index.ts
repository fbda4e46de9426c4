import { Knex } from 'knex';
import * as foundation from './20261121000000_foundation';
import * as groupsAndFolders from './20261121000100_groups_and_folders';
import * as groupSettingsAndProfileFields from './20261121000400_group_settings_and_profile_fields';
import * as channels from './20261121000600_channels';
import * as realmEmoji from './20261121000700_realm_emoji';
import * as drafts from './20261121000500_drafts';
import * as savedSnippets from './20261121000501_saved_snippets';
import * as navigationViews from './20261121000502_navigation_views';
import * as pushDevices from './20261121000503_push_devices';
import * as invitations from './20261121000504_invitations';
import * as settingsAndPresence from './20261121000300_settings_and_presence';
import * as eventQueues from './20261121000200_event_queues';
import * as messages from './20261121000800_messages';
import * as systemBots from './20261121000900_system_bots';
import * as userMessagesWithoutForeignKeys from './20261122000000_user_messages_without_foreign_keys';
import * as channelSendStateVersion from './20261122010000_channel_send_state_version';
import * as userStatusMutedUsersAlertWords from './20261125200000_user_status_muted_users_alert_words';
import * as linkifiersPlaygroundsDeviceTokens from './20261125200000_linkifiers_playgrounds_device_tokens';
import * as notifications from './20261126060000_notifications';

/** Every migration, oldest first. Add new ones at the end; never reorder or rename. */
export const migrations: { name: string; module: Knex.Migration }[] = [
  { name: '20261121000000_foundation', module: foundation },
  { name: '20261121000100_groups_and_folders', module: groupsAndFolders },
  { name: '20261121000200_event_queues', module: eventQueues },
  { name: '20261121000300_settings_and_presence', module: settingsAndPresence },
  { name: '20261121000400_group_settings_and_profile_fields', module: groupSettingsAndProfileFields },
  { name: '20261121000500_drafts', module: drafts },
  { name: '20261121000501_saved_snippets', module: savedSnippets },
  { name: '20261121000502_navigation_views', module: navigationViews },
  { name: '20261121000503_push_devices', module: pushDevices },
  { name: '20261121000504_invitations', module: invitations },
  { name: '20261121000600_channels', module: channels },
  { name: '20261121000700_realm_emoji', module: realmEmoji },
  { name: '20261121000800_messages', module: messages },
  { name: '20261121000900_system_bots', module: systemBots },
  { name: '20261122000000_user_messages_without_foreign_keys', module: userMessagesWithoutForeignKeys },
  { name: '20261122010000_channel_send_state_version', module: channelSendStateVersion },
  { name: '20261125200000_user_status_muted_users_alert_words', module: userStatusMutedUsersAlertWords },
  { name: '20261125200000_linkifiers_playgrounds_device_tokens', module: linkifiersPlaygroundsDeviceTokens },
  { name: '20261126060000_notifications', module: notifications },
];
