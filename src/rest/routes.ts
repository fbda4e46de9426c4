import { eventRoutes } from './events';
import type { Route } from './router';
import { serverRoutes } from './server-settings';
import { typingRoutes } from './typing';
import { userRoutes } from './users';

/** Every /api/v1 route, gathered from the features. */
export const routes: Route[] = [...serverRoutes, ...userRoutes, ...eventRoutes, ...typingRoutes];
