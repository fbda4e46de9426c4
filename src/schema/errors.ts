import { types } from 'node:util';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApiError } from '../errors';
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
    if (cause) log().error({ requestId }, `GraphQL operation failed: ${describeFailure(cause)}`);
  }
}

/** GraphQL errors carry the same Zulip code as REST in extensions.code. Failures are logged apart. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof ApiError) {
    return { ...formatted, message: original.message, extensions: { ...original.extra, code: original.code } };
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
