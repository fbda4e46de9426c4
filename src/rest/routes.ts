import { channelRoutes } from './channels';
import { eventRoutes } from './events';
import type { Route } from './router';
import { serverRoutes } from './server-settings';
import { typingRoutes } from './typing';
import { userRoutes } from './users';
import { userGroupRoutes } from './user-groups';
import { channelFolderRoutes } from './channel-folders';
import { profileFieldRoutes } from './profile-fields';
import { markdownRoutes } from './markdown';
import { emojiRoutes } from './emoji';
import { draftRoutes } from './drafts';
import { botStorageRoutes } from './bot-storage';
import { exportRoutes } from './exports';
import { scheduledMessageRoutes } from './scheduled-messages';
import { savedSnippetRoutes } from './saved-snippets';
import { navigationViewRoutes } from './navigation-views';
import { pushRoutes } from './push';
import { pushTestNotificationRoutes } from './push-test-notification';
import { inviteRoutes } from './invites';
import { settingsRoutes } from './settings';
import { presenceRoutes } from './presence';
import { messageRoutes } from './messages';
import { messageReportRoutes } from './message-reports';
import { reactionRoutes } from './reactions';
import { submessageRoutes } from './submessages';
import { userTopicRoutes } from './user-topics';
import { userStatusRoutes } from './user-status';
import { mutedUserRoutes } from './muted-users';
import { alertWordRoutes } from './alert-words';
import { linkifierRoutes } from './linkifiers';
import { playgroundRoutes } from './playgrounds';
import { botRoutes } from './bots';
import { webhookRoutes } from './webhooks';
import { realmRoutes } from './realm';
import { defaultChannelRoutes } from './default-channels';
import { realmDomainRoutes } from './realm-domains';
import { uploadRoutes } from './uploads';
import { avatarRoutes } from './avatars';
import { realmImageRoutes } from './realm-images';
import { openApiRoute } from './openapi-route';
import { callRoutes } from './calls';

/** Every /api/v1 route, gathered from the features. */
export const routes: Route[] = [
  ...serverRoutes,
  ...userRoutes,
  ...userGroupRoutes,
  ...channelFolderRoutes,
  ...profileFieldRoutes,
  ...channelRoutes,
  ...markdownRoutes,
  ...emojiRoutes,
  ...draftRoutes,
  ...exportRoutes,
  ...scheduledMessageRoutes,
  ...savedSnippetRoutes,
  ...navigationViewRoutes,
  ...pushRoutes,
  ...pushTestNotificationRoutes,
  ...inviteRoutes,
  ...settingsRoutes,
  ...presenceRoutes,
  ...eventRoutes,
  ...typingRoutes,
  ...messageRoutes,
  ...messageReportRoutes,
  ...reactionRoutes,
  ...submessageRoutes,
  ...userTopicRoutes,
  ...userStatusRoutes,
  ...mutedUserRoutes,
  ...alertWordRoutes,
  ...linkifierRoutes,
  ...playgroundRoutes,
  ...botRoutes,
  ...botStorageRoutes,
  ...webhookRoutes,
  ...realmRoutes,
  ...defaultChannelRoutes,
  ...realmDomainRoutes,
  ...uploadRoutes,
  ...avatarRoutes,
  ...realmImageRoutes,
  ...callRoutes,
];

// The API's own description, generated from the table it belongs to.
routes.push(openApiRoute(routes));
