import { streamsSlice, subscriptionsSlice } from '../core/channels/state';
import { realmSlice } from '../core/realm/state';
import { usersSlice } from '../core/users/state';
import { userGroupsSlice } from '../core/groups/state';
import { channelFoldersSlice } from '../core/channel-folders/state';
import { customProfileFieldsSlice } from '../core/profile-fields/state';
import { settingsSlices } from '../core/settings/state';
import { presenceSlice } from '../core/presence/state';
import { realmEmojiSlice } from '../core/emoji/state';
import { maxMessageIdSlice, recentConversationsSlice, starredSlice, unreadSlice } from '../core/messages/state';
import { mutedTopicsSlice, userTopicsSlice } from '../core/user-topics/state';
import type { StateSlice } from './state';
import { draftsSlice } from '../core/drafts/state';
import { remindersSlice, scheduledMessagesSlice } from '../core/scheduled-messages/state';
import { savedSnippetsSlice } from '../core/saved-snippets/state';
import { navigationViewsSlice } from '../core/navigation-views/state';
import { userStatusSlice } from '../core/user-status/state';
import { mutedUsersSlice } from '../core/muted-users/state';
import { alertWordsSlice } from '../core/alert-words/state';
import { ownPermissionsSlice } from '../core/realm/own-permissions';
import { defaultChannelsSlice } from '../core/default-channels/state';
import { realmDomainsSlice } from '../core/realm-domains/state';
import { unmodeledSlices } from '../core/realm/unmodeled-state';
import { stopWordsSlice } from '../core/messages/stop-words';
import { realmFiltersSlice, realmLinkifiersSlice } from '../core/linkifiers/state';
import { realmPlaygroundsSlice } from '../core/playgrounds/state';
import { realmBotsSlice } from '../core/bots/state';
import { incomingWebhookBotsSlice } from '../core/webhooks/state';
import { pushDevicesSlice } from '../core/push/state';

/** Every feature's POST /register slice. Features add theirs here. */
export const stateSlices: StateSlice[] = [
  usersSlice,
  userGroupsSlice,
  channelFoldersSlice,
  customProfileFieldsSlice,
  subscriptionsSlice,
  streamsSlice,
  realmEmojiSlice,
  draftsSlice,
  scheduledMessagesSlice,
  remindersSlice,
  savedSnippetsSlice,
  navigationViewsSlice,
  ...settingsSlices,
  presenceSlice,
  realmSlice,
  maxMessageIdSlice,
  unreadSlice,
  starredSlice,
  recentConversationsSlice,
  userTopicsSlice,
  mutedTopicsSlice,
  userStatusSlice,
  mutedUsersSlice,
  alertWordsSlice,
  ownPermissionsSlice,
  defaultChannelsSlice,
  realmDomainsSlice,
  stopWordsSlice,
  ...unmodeledSlices,
  realmLinkifiersSlice,
  realmFiltersSlice,
  realmPlaygroundsSlice,
  realmBotsSlice,
  incomingWebhookBotsSlice,
  pushDevicesSlice,
];
