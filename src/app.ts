import express, { NextFunction, Request, Response } from 'express';
import type { AppDeps } from './deps';
import { ApiError, errors } from './errors';
import { parseBody } from './rest/body';
import { serveRealmEmojiImage } from './rest/emoji';
import { restDispatcher, sendError, sendInternalError } from './rest/router';
import { routes } from './rest/routes';
import { graphQLHandler } from './schema/apollo';

export interface BuiltApp {
  app: express.Express;
  stop(): Promise<void>;
}

/** The express app with both front doors; tests use it on an ephemeral port. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use('/api/v1', parseBody, restDispatcher(deps, routes));
  const graphql = await graphQLHandler(deps);
  app.use('/graphql', ...graphql.handler);

  app.get('/user_avatars/:realmId/emoji/images/:fileName', serveRealmEmojiImage(deps));
  app.get('/', (_req, res) => {
    res.type('text/plain').send('Parley: a team-chat server speaking the Zulip API. REST under /api/v1, GraphQL at /graphql.\n');
  });
  app.use((_req: Request, res: Response) => sendError(res, errors.notFound()));
  // Express reaches this only for errors thrown outside the dispatcher (e.g. JSON body parsing).
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    if (error instanceof ApiError) sendError(res, error);
    else if (status && status >= 400 && status < 500) sendError(res, new ApiError('BAD_REQUEST', 'Malformed payload', status));
    else sendInternalError(res, error, req);
  });
  return { app, stop: graphql.stop };
}
