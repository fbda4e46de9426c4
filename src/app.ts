import type { RequestListener } from 'node:http';
import express, { NextFunction, Request, Response } from 'express';
import type { AppDeps } from './core/deps';
import { ApiError, errors } from './errors';
import { bodyTooLarge, closeIfBodyUnread } from './rest/body-limits';
import { SERVER_EMOJI_DIRECTORY } from './core/emoji/server-data';
import { serveRealmEmojiImage, serveServerEmojiData } from './rest/emoji';
import { isRestUrl, restRequestHandler, sendError, sendInternalError } from './rest/router';
import { routes } from './rest/routes';
import { Metrics } from './ops/metrics';
import { opsRouter, observeExpressRequests } from './ops/routes';
import { graphQLHandler } from './schema/apollo';
import { joinRouter } from './web/join';
import { unsubscribeRouter } from './web/unsubscribe';
import { dashboardRouter } from './web/dashboard';
import { accountPagesRouter } from './web/accounts';
import { loginRouter } from './web/login';
import { oidcRouter } from './web/oidc';
import { serveTemporaryUpload, serveThumbnail, serveUpload } from './rest/upload-downloads';
import { redirectToAvatar, serveAvatarImage } from './rest/avatars';
import { serveRealmImage } from './rest/realm-images';
import { serveExportFile } from './rest/exports';
import { graphiqlRouter } from './web/graphiql';
import { webappRouter } from './web/webapp';
import { staticImagesRouter } from './web/static-images';
import { corsHandler } from './rest/cors';
import { completeZoomUser, joinBigBlueButton, registerZoomUser } from './rest/calls';

export interface BuiltApp {
  /** The HTTP server's request listener: /api/v1 goes to the REST handler, the rest to `app`. */
  handle: RequestListener;
  app: express.Express;
  metrics: Metrics;
  stop(): Promise<void>;
}

/** Both front doors: REST on node:http directly (the hot path), GraphQL and the rest on express. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const metrics = new Metrics(deps.realtime);
  const rest = restRequestHandler(deps, routes, metrics);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(observeExpressRequests(metrics));
  app.use(opsRouter(deps, metrics));
  app.use(graphiqlRouter());
  const graphql = await graphQLHandler(deps, metrics);
  app.use('/graphql', ...graphql.handler);

  app.get('/user_avatars/:realmId/emoji/images/:fileName', serveRealmEmojiImage(deps));
  app.get(`${SERVER_EMOJI_DIRECTORY}/:fileName`, serveServerEmojiData);
  app.get('/user_uploads/temporary/:token/:fileName', serveTemporaryUpload(deps));
  app.get('/user_uploads/download/:realmId/*path', serveUpload(deps, { forceDownload: true }));
  app.get('/user_uploads/thumbnail/:realmId/*path', serveThumbnail(deps));
  app.get('/user_uploads/:realmId/*path', serveUpload(deps, { forceDownload: false }));
  app.get('/user_avatars/:realmId/realm/:fileName', serveRealmImage(deps));
  app.get('/user_avatars/exports/:realmId/:token/:fileName', serveExportFile(deps));
  app.get('/user_avatars/:userId', serveAvatarImage(deps, 'small'));
  app.get('/user_avatars/:userId/medium', serveAvatarImage(deps, 'medium'));
  app.get('/avatar/:who', redirectToAvatar(deps, 'small'));
  app.get('/avatar/:who/medium', redirectToAvatar(deps, 'medium'));
  app.get('/calls/bigbluebutton/join', joinBigBlueButton(deps));
  app.get('/calls/zoom/register', registerZoomUser(deps));
  app.get('/calls/zoom/complete', completeZoomUser(deps));
  app.use(joinRouter(deps));
  app.use(unsubscribeRouter(deps));
  app.use(dashboardRouter());
  app.use(loginRouter(deps));
  app.use(accountPagesRouter(deps));
  app.use(oidcRouter(deps));
  app.use(webappRouter(deps));
  app.use(staticImagesRouter());
  app.use((req: Request, res: Response) => {
    closeIfBodyUnread(req, res);
    sendError(res, errors.notFound());
  });
  // Express reaches this only for errors thrown outside a handler (e.g. GraphQL JSON body parsing).
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { status, limit } = error as { status?: number; limit?: unknown };
    // A body over the limit may already have been answered while it streamed in.
    if (res.headersSent) return;
    closeIfBodyUnread(req, res);
    if (error instanceof ApiError) sendError(res, error);
    else if (status === 413 && typeof limit === 'number') sendError(res, bodyTooLarge(limit));
    else if (status && status >= 400 && status < 500) sendError(res, new ApiError('BAD_REQUEST', 'Malformed payload', status));
    else sendInternalError(res, error, req);
  });
  const cors = corsHandler(deps.config.corsOrigins);
  const handle: RequestListener = (req, res) => {
    if (cors?.(req, res)) return;
    if (isRestUrl(req.url ?? '/')) rest(req, res);
    else app(req, res);
  };
  return { handle, app, metrics, stop: graphql.stop };
}
