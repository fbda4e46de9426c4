import type http from 'node:http';
import { GraphQLError, GraphQLFormattedError, getOperationAST, parse, validate } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { AppDeps } from '../core/deps';
import type { Metrics } from '../ops/metrics';
import { log, newRequestId } from '../log';
import type { User } from '../core/users/model';
import { sessionHashOf } from '../core/accounts/sessions';
import { isOwnOrigin, sessionSecretOf } from '../web/session-auth';
import { isIncomingWebhookBot } from '../core/bots/constants';
import type { GraphQLContext } from '../schema/context';
import { ApiError } from '../errors';
import { apiErrorToGraphQL, formatGraphQLError, logInternalErrors } from '../schema/errors';
import { buildGraphQLSchema } from '../schema';
import { checkOperationLimits, tooBig } from '../schema/limits';
import { realmSizes } from '../schema/realm-sizes';
import { replyTooLargeMessage, resultExceedsReplySize } from '../schema/reply-size';
import { DeliveryGate } from '../realtime/delivery-gate';
import { authenticateSocket, CLOSE_TOO_MANY, SocketCredential, SocketSessions } from './socket-sessions';
import { sharedSubscribe } from './shared-execution';

/**
 * GraphQL over WebSocket (graphql-ws protocol) on /graphql, sharing the HTTP server. Credentials come
 * from the connection_init payload (`{authorization: "Basic ..."}`) or the upgrade request's
 * Authorization header; without either, from the web app's session cookie, but only when the
 * upgrade request comes from this server's own origin (a page of another site must never open a
 * socket on its visitor's session). Bad or missing ones close the socket with 4403. Every operation on the
 * socket passes the same limits as over HTTP. Sockets are bounded (config.socketLimits): frame size,
 * time to authenticate, unauthenticated sockets per process (more are refused with 503 before the
 * upgrade), sockets per user (4429), operations per socket; revoked credentials end their sockets
 * (SocketSessions).
 */
type Extra = { user?: User; gate?: DeliveryGate; connectionId?: string; sessionHash?: string } & Record<PropertyKey, unknown>;

/** The socket's credentials: an Authorization value, else an own-origin upgrade's session cookie. */
function socketCredential(deps: AppDeps, params: Record<string, unknown> | undefined, request: http.IncomingMessage): SocketCredential | null {
  const fromPayload = params?.authorization ?? params?.Authorization;
  const authorization = typeof fromPayload === 'string' ? fromPayload : request.headers.authorization;
  if (authorization) return { authorization };
  const sessionSecret = sessionSecretOf(request);
  if (sessionSecret === undefined || !isOwnOrigin(request.headers, deps.config)) return null;
  return { sessionSecret };
}

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

export function attachSubscriptions(server: http.Server, deps: AppDeps, metrics?: Metrics, path = '/graphql'): SubscriptionServer {
  const schema = buildGraphQLSchema();
  const limits = deps.config.socketLimits;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxPayloadBytes });
  const sessions = new SocketSessions(deps, limits.maxPerUser);
  /** Sockets that have not authenticated yet (they get limits.initTimeoutMs to do so). */
  const unauthenticated = new Set<WebSocket>();
  const onUpgrade = (request: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname !== path) {
      socket.destroy();
      return;
    }
    if (unauthenticated.size >= limits.maxUnauthenticated) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      unauthenticated.add(ws);
      ws.once('close', () => unauthenticated.delete(ws));
      wss.emit('connection', ws, request);
    });
  };
  server.on('upgrade', onUpgrade);

  const disposable = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      subscribe: sharedSubscribe,
      connectionInitWaitTimeout: limits.initTimeoutMs,
      onConnect: async (ctx) => {
        const credential = socketCredential(deps, ctx.connectionParams, ctx.extra.request);
        if (!credential) return false;
        let user: User;
        try {
          user = await authenticateSocket(deps, credential);
        } catch {
          return false;
        }
        if (isIncomingWebhookBot(user)) return false;
        const socket = ctx.extra.socket;
        if (socket.readyState !== socket.OPEN) return false;
        const gate = sessions.add(socket, credential, user);
        if (!gate) {
          socket.close(CLOSE_TOO_MANY, 'Too many connections');
          return false;
        }
        unauthenticated.delete(socket);
        const connectionId = newRequestId();
        const sessionHash = 'sessionSecret' in credential ? sessionHashOf(credential.sessionSecret) : undefined;
        Object.assign(ctx.extra as Extra, { user, gate, connectionId, sessionHash });
        log().info({ connectionId, userId: user.id }, 'websocket connected');
        return true;
      },
      onClose: (ctx, code) => {
        const { user, connectionId } = ctx.extra as Extra;
        if (connectionId) log().info({ connectionId, userId: user?.id ?? null, code }, 'websocket disconnected');
      },
      onSubscribe: async (ctx, _id, payload) => {
        // The operation being subscribed is already counted.
        if (Object.keys(ctx.subscriptions).length > limits.maxSubscriptions) {
          return [tooBig(`Too many operations on this connection: at most ${limits.maxSubscriptions} may run at once`)];
        }
        let document;
        try {
          document = parse(payload.query, { maxTokens: deps.config.graphqlLimits.maxTokens });
        } catch (error) {
          return [error as GraphQLError];
        }
        const validationErrors = validate(schema, document);
        if (validationErrors.length > 0) return validationErrors;
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) return [new GraphQLError('Unable to identify the operation to run')];
        metrics?.graphqlOperation(operation.operation, 'ws');
        const { connectionId } = ctx.extra as Extra;
        log().info(
          { connectionId, transport: 'ws', type: operation.operation, operation: operation.name?.value ?? null, userId: (ctx.extra as Extra).user?.id ?? null },
          'graphql operation',
        );
        try {
          checkOperationLimits(schema, document, operation, payload.variables, await realmSizes(deps), deps.config.graphqlLimits);
        } catch (error) {
          return [error as GraphQLError];
        }
        const { user, gate, sessionHash } = ctx.extra as Extra;
        // Each operation counts against its user's rate limit, as an HTTP request does.
        const limited = await rateLimitErrors(deps, user ?? null);
        if (limited) return limited;
        const contextValue: GraphQLContext = { deps, user: user ?? null, gate, requestId: connectionId, sessionHash };
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
      },
      onError: (ctx, _id, _payload, errors) => {
        logInternalErrors(errors, (ctx.extra as Extra).connectionId);
        return errors.map(formatForSocket);
      },
      onNext: (ctx, _id, _payload, _args, result) => {
        const max = deps.config.graphqlLimits.maxReplyBytes;
        if (resultExceedsReplySize(result, max)) return { errors: [{ message: replyTooLargeMessage(max), extensions: { code: 'BAD_REQUEST' } }] };
        if (!result.errors) return;
        logInternalErrors(result.errors, (ctx.extra as Extra).connectionId);
        return { ...result, errors: result.errors.map(formatForSocket) };
      },
    },
    wss,
  );

  return {
    close: async () => {
      server.off('upgrade', onUpgrade);
      sessions.close();
      await disposable.dispose();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
