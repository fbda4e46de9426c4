import type { Route } from './router';
import { serverRoutes } from './server-settings';
import { userRoutes } from './users';
import { draftRoutes } from './drafts';
import { savedSnippetRoutes } from './saved-snippets';
import { navigationViewRoutes } from './navigation-views';
import { pushRoutes } from './push';
import { inviteRoutes } from './invites';

/** Every /api/v1 route, gathered from the features. */
export const routes: Route[] = [...serverRoutes, ...userRoutes, ...draftRoutes, ...savedSnippetRoutes, ...navigationViewRoutes, ...pushRoutes, ...inviteRoutes];
