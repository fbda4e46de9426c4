import { types } from 'node:util';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLContext } from './context';
import { isDatabaseUnavailable } from '../db/connect';
import { ApiError, errors as apiErrors, RETRY_AFTER_SECONDS } from '../errors';
import { describeFailure } from '../failure-log';
import { log } from '../log';

/** An Error from any realm (a driver's errors need not share this module's Error). */
const isError = (value: unknown): value is Error => types.isNativeError(value);

/** The error a resolver threw that is neither an API error nor a GraphQL one: a fault of ours. */
function internalCause(error: unknown): Error | null {
  const thrown = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  const original = unwrapResolverError(thrown);
  return isError(original) && !(original instanceof ApiError) && !(original instanceof GraphQLError) ? original : null;
}

/** Logs the unexpected failures among an operation's errors, with the request's id. */
export function logInternalErrors(errors: readonly unknown[], requestId: string | undefined): void {
  for (const error of errors) {
    const cause = internalCause(error);
    if (cause && isDatabaseUnavailable(cause)) log().warn({ requestId }, `database unavailable: ${describeFailure(cause).split('\n')[0]}`);
    else if (cause) log().error({ requestId }, `GraphQL operation failed: ${describeFailure(cause)}`);
  }
}

/** GraphQL errors carry the same Zulip code as REST in extensions.code. Failures are logged apart. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof ApiError) {
    return { ...formatted, message: original.message, extensions: { ...original.extra, code: original.code } };
  }
  if (isDatabaseUnavailable(original)) {
    const unavailable = apiErrors.databaseUnavailable();
    return { message: unavailable.message, locations: formatted.locations, path: formatted.path, extensions: { code: unavailable.code } };
  }
  if (original instanceof GraphQLError || !isError(original) || formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') {
    const { stacktrace: _drop, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
    return { ...formatted, extensions };
  }
  return { message: 'Internal server error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

export function apiErrorToGraphQL(error: ApiError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: { ...error.extra, code: error.code, http: { status: error.httpStatus, headers: new Map(Object.entries(error.headers)) } },
  });
}

/** An operation that failed because the database is unavailable is answered 503 with Retry-After, as REST is. */
export const databaseUnavailablePlugin: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, errors }) {
        if (!errors?.some((error) => isDatabaseUnavailable(unwrapResolverError(error.originalError ?? error)))) return;
        response.http.status = 503;
        response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
      },
    };
  },
};
