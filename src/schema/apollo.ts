import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express, { RequestHandler } from 'express';
import { GraphQLSchema } from 'graphql';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { authenticateRequest } from '../rest/auth';
import type { GraphQLContext } from './context';
import { apiErrorToGraphQL, formatGraphQLError } from './errors';
import { buildGraphQLSchema } from './index';
import { checkOperationLimits } from './limits';
import { realmSizes } from './realm-sizes';
import { exceedsReplySize, replyTooLargeMessage } from './reply-size';

const limitsPlugin = (schema: GraphQLSchema, deps: AppDeps): ApolloServerPlugin<GraphQLContext> => ({
  async requestDidStart() {
    return {
      async didResolveOperation({ document, operation, request }) {
        if (!operation) return;
        checkOperationLimits(schema, document, operation, request.variables, await realmSizes(deps), deps.config.graphqlLimits);
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

/** Credentials are optional here (fetchApiKey needs none); when sent they must be valid. */
export async function graphQLContext(deps: AppDeps, authorization: string | undefined): Promise<GraphQLContext> {
  if (!authorization) return { deps, user: null };
  try {
    return { deps, user: await authenticateRequest(deps, authorization) };
  } catch (error) {
    if (error instanceof ApiError) throw apiErrorToGraphQL(error);
    throw error;
  }
}

export async function graphQLHandler(deps: AppDeps): Promise<{ handler: RequestHandler[]; stop: () => Promise<void> }> {
  const schema = buildGraphQLSchema();
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    introspection: true,
    // main.ts owns SIGTERM/SIGINT and stops Apollo as part of its shutdown; with Apollo's own signal
    // handlers as well, that shutdown hung until forced (exit code 1).
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError,
    plugins: [limitsPlugin(schema, deps)],
    // Parsing and validation take time in proportion to the document: bound it (a 400 beyond).
    parseOptions: { maxTokens: deps.config.graphqlLimits.maxTokens },
  });
  await apollo.start();
  return {
    handler: [
      express.json({ limit: '1mb' }),
      expressMiddleware(apollo, { context: async ({ req }) => graphQLContext(deps, req.headers.authorization) }),
    ],
    stop: () => apollo.stop(),
  };
}
