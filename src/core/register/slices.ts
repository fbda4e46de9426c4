import { streamsSlice, subscriptionsSlice } from '../channels/state';
import { realmSlice } from '../realm/state';
import { usersSlice } from '../users/state';
import { userGroupsSlice } from '../groups/state';
import { channelFoldersSlice } from '../channel-folders/state';
import { customProfileFieldsSlice } from '../profile-fields/state';
import { settingsSlices } from '../settings/state';
import { presenceSlice } from '../presence/state';
import { realmEmojiSlice } from '../emoji/state';
import { maxMessageIdSlice, recentConversationsSlice, starredSlice, unreadSlice } from '../messages/state';
import { mutedTopicsSlice, userTopicsSlice } from '../user-topics/state';
import type { StateSlice } from './slice';
import { draftsSlice } from '../drafts/state';
import { remindersSlice, scheduledMessagesSlice } from '../scheduled-messages/state';
import { savedSnippetsSlice } from '../saved-snippets/state';
import { navigationViewsSlice } from '../navigation-views/state';
import { userStatusSlice } from '../user-status/state';
import { mutedUsersSlice } from '../muted-users/state';
import { alertWordsSlice } from '../alert-words/state';
import { ownPermissionsSlice } from '../realm/own-permissions';
import { defaultChannelsSlice } from '../default-channels/state';
import { realmDomainsSlice } from '../realm-domains/state';
import { unmodeledSlices } from '../realm/unmodeled-state';
import { tenorSlice } from '../realm/server-info';
import { videoCallsSlice } from '../calls/zoom-tokens';
import { stopWordsSlice } from '../messages/stop-words';
import { realmFiltersSlice, realmLinkifiersSlice } from '../linkifiers/state';
import { realmPlaygroundsSlice } from '../playgrounds/state';
import { realmBotsSlice } from '../bots/state';
import { incomingWebhookBotsSlice } from '../webhooks/state';
import { clientDevicesSlice } from '../devices/state';

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
  tenorSlice,
  videoCallsSlice,
  realmLinkifiersSlice,
  realmFiltersSlice,
  realmPlaygroundsSlice,
  realmBotsSlice,
  incomingWebhookBotsSlice,
  clientDevicesSlice,
];
