import type http from 'node:http';
import { GraphQLError, GraphQLFormattedError, getOperationAST, parse, validate } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AppDeps } from '../deps';
import type { User } from '../core/users/model';
import { authenticateRequest } from '../rest/auth';
import type { GraphQLContext } from '../schema/context';
import { ApiError } from '../errors';
import { apiErrorToGraphQL, formatGraphQLError } from '../schema/errors';
import { buildGraphQLSchema } from '../schema/index';
import { checkOperationLimits } from '../schema/limits';

/**
 * GraphQL over WebSocket (graphql-ws protocol) on /graphql, sharing the HTTP server. Credentials come
 * from the connection_init payload (`{authorization: "Basic ..."}`) or the upgrade request's
 * Authorization header; bad or missing ones close the socket with 4403. Every operation on the
 * socket passes the same depth and cost limits as over HTTP.
 */
type Extra = { user?: User } & Record<PropertyKey, unknown>;

/** As over HTTP (Zulip code in extensions.code), without the HTTP status hint. */
function formatForSocket(error: GraphQLError): GraphQLFormattedError {
  const formatted = formatGraphQLError(error.toJSON(), error);
  if (!formatted.extensions || !('http' in formatted.extensions)) return formatted;
  const { http: _http, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}

async function rateLimitErrors(deps: AppDeps, user: User | null): Promise<GraphQLError[] | null> {
  if (!deps.rateLimits.enabled || !user) return null;
  try {
    await deps.rateLimits.countRequest(user.id, undefined);
    return null;
  } catch (error) {
    if (error instanceof ApiError) return [apiErrorToGraphQL(error)];
    throw error;
  }
}

export interface SubscriptionServer {
  close(): Promise<void>;
}

export function attachSubscriptions(server: http.Server, deps: AppDeps, path = '/graphql'): SubscriptionServer {
  const schema = buildGraphQLSchema();
  const wss = new WebSocketServer({ noServer: true });
  const onUpgrade = (request: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname !== path) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);

  const disposable = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      onConnect: async (ctx) => {
        const fromPayload = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        const header = typeof fromPayload === 'string' ? fromPayload : ctx.extra.request.headers.authorization;
        if (!header) return false;
        try {
          (ctx.extra as Extra).user = await authenticateRequest(deps, header);
          return true;
        } catch {
          return false;
        }
      },
      onSubscribe: async (ctx, _id, payload) => {
        let document;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [error as GraphQLError];
        }
        const validationErrors = validate(schema, document);
        if (validationErrors.length > 0) return validationErrors;
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) return [new GraphQLError('Unable to identify the operation to run')];
        try {
          checkOperationLimits(schema, document, operation, payload.variables ?? undefined);
        } catch (error) {
          return [error as GraphQLError];
        }
        const user = (ctx.extra as Extra).user ?? null;
        // Each operation counts against its user's rate limit, as an HTTP request does.
        const limited = await rateLimitErrors(deps, user);
        if (limited) return limited;
        const contextValue: GraphQLContext = { deps, user };
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
      },
      onError: (_ctx, _id, _payload, errors) => errors.map(formatForSocket),
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!result.errors) return;
        return { ...result, errors: result.errors.map(formatForSocket) };
      },
    },
    wss,
  );

  return {
    close: async () => {
      server.off('upgrade', onUpgrade);
      await disposable.dispose();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
