import { isIncomingWebhookBot } from '../core/bots/constants';
import { incomingWebhookRefused } from '../rest/router';
import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import express, { Request, RequestHandler, Response } from 'express';
import { GraphQLSchema } from 'graphql';
import type { AppDeps } from '../core/deps';
import type { Metrics } from '../ops/metrics';
import { ApiError, errors as apiErrors } from '../errors';
import { admit } from '../rest/admit';
import { sessionHashOf } from '../core/accounts/sessions';
import { authenticateBrowserRequest, sessionSecretOf } from '../web/session-auth';
import { authenticateGraphQLRequest } from './authenticate';
import { refuseLargeBodies } from '../rest/body-guard';
import { loginDevice } from '../rest/client-address';
import { IdentifiedRequest, requestIdOf } from '../rest/router';
import { log } from '../log';
import type { GraphQLContext } from './context';
import { apiErrorToGraphQL, databaseUnavailablePlugin, formatGraphQLError, logInternalErrors } from './errors';
import { isDatabaseUnavailable } from '../db/connect';
import { buildGraphQLSchema } from './index';
import { checkOperationLimits } from './limits';
import { realmSizes } from './realm-sizes';
import { exceedsReplySize, replyTooLargeMessage } from './reply-size';

const limitsPlugin = (schema: GraphQLSchema, deps: AppDeps, metrics?: Metrics): ApolloServerPlugin<GraphQLContext> => ({
  async requestDidStart() {
    return {
      async didResolveOperation({ document, operation, request, contextValue }) {
        if (!operation) return;
        metrics?.graphqlOperation(operation.operation, 'http');
        // The operation's name and type only: variables may hold message text or passwords.
        log().info(
          {
            requestId: contextValue.requestId,
            transport: 'http',
            type: operation.operation,
            operation: operation.name?.value ?? null,
            userId: contextValue.user?.id ?? null,
          },
          'graphql operation',
        );
        checkOperationLimits(schema, document, operation, request.variables, await realmSizes(deps), deps.config.graphqlLimits);
      },
      async didEncounterErrors({ errors, contextValue }) {
        logInternalErrors(errors, contextValue.requestId);
      },
      async willSendResponse({ response }) {
        const max = deps.config.graphqlLimits.maxReplyBytes;
        if (response.body.kind !== 'single' || !exceedsReplySize(response.body.singleResult.data, max)) return;
        response.body.singleResult = { errors: [{ message: replyTooLargeMessage(max), extensions: { code: 'BAD_REQUEST' } }] };
        response.http.status = 400;
      },
    };
  },
});

/**
 * Credentials (Basic, or Bearer with an API key) are optional here (fetchApiKey needs none); when
 * sent they must be valid. Without an Authorization header, a POST carrying the web app's session
 * cookie is that session's user's, and must carry the CSRF token (`X-CSRFToken`) as well, whatever
 * the operation; a GET never uses the cookie. Each request counts against the same rate limit as a
 * REST request: its user's, or its address's without valid credentials.
 */
export async function graphQLContext(deps: AppDeps, req: Request, res: Response): Promise<GraphQLContext> {
  try {
    // API clients send a header: they never get as far as the cookie.
    const secret = req.headers.authorization === undefined && req.method === 'POST' ? sessionSecretOf(req) : undefined;
    const user =
      secret === undefined
        ? await admit(deps, req, res, 'optional', authenticateGraphQLRequest)
        : await admit(deps, req, res, 'required', () => authenticateBrowserRequest(deps, req, secret));
    // Incoming-webhook bots only send messages, through REST (as Zulip allows them nothing else).
    if (user && isIncomingWebhookBot(user)) throw incomingWebhookRefused();
    if (user) (req as IdentifiedRequest).userId = user.id;
    const context: GraphQLContext = { deps, user, ...loginDevice(req, deps.config.trustedProxies), requestId: requestIdOf(req) };
    if (secret !== undefined) context.sessionHash = sessionHashOf(secret);
    return context;
  } catch (error) {
    if (error instanceof ApiError) throw apiErrorToGraphQL(error);
    if (isDatabaseUnavailable(error)) throw apiErrorToGraphQL(apiErrors.databaseUnavailable());
    throw error;
  }
}

/** GraphQL documents and variables are small: no operation needs a larger body. */
const GRAPHQL_BODY_BYTES = 1024 * 1024;

export async function graphQLHandler(deps: AppDeps, metrics?: Metrics): Promise<{ handler: RequestHandler[]; stop: () => Promise<void> }> {
  const schema = buildGraphQLSchema();
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    introspection: true,
    // main.ts owns SIGTERM/SIGINT and stops Apollo as part of its shutdown; with Apollo's own signal
    // handlers as well, that shutdown hung until forced (exit code 1).
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError,
    // Browsers get GraphiQL from this server (src/web/graphiql.ts), not Apollo's page from a CDN.
    plugins: [limitsPlugin(schema, deps, metrics), databaseUnavailablePlugin, ApolloServerPluginLandingPageDisabled()],
    // Parsing and validation take time in proportion to the document: bound it (a 400 beyond).
    parseOptions: { maxTokens: deps.config.graphqlLimits.maxTokens },
  });
  await apollo.start();
  return {
    handler: [
      refuseLargeBodies(GRAPHQL_BODY_BYTES),
      express.json({ limit: GRAPHQL_BODY_BYTES }),
      expressMiddleware(apollo, { context: async ({ req, res }) => graphQLContext(deps, req, res) }),
    ],
    stop: () => apollo.stop(),
  };
}
