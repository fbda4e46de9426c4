import { channelRoutes } from './channels';
import type { Route } from './router';
import { serverRoutes } from './server-settings';
import { userRoutes } from './users';
import { markdownRoutes } from './markdown';
import { emojiRoutes } from './emoji';
import { messageRoutes } from './messages';
import { reactionRoutes } from './reactions';
import { userTopicRoutes } from './user-topics';

/** Every /api/v1 route, gathered from the features. */
export const routes: Route[] = [...serverRoutes, ...userRoutes, ...channelRoutes, ...markdownRoutes, ...emojiRoutes, ...messageRoutes, ...reactionRoutes, ...userTopicRoutes];
