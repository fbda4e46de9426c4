import type { Route } from './router';
import { serverRoutes } from './server-settings';
import { userRoutes } from './users';
import { settingsRoutes } from './settings';
import { presenceRoutes } from './presence';

/** Every /api/v1 route, gathered from the features. */
export const routes: Route[] = [...serverRoutes, ...userRoutes, ...settingsRoutes, ...presenceRoutes];
