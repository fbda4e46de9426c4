import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApiError } from '../errors';
import { describeFailure } from '../failure-log';

/** GraphQL errors carry the same Zulip code as REST in extensions.code. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof ApiError) {
    return { ...formatted, message: original.message, extensions: { ...original.extra, code: original.code } };
  }
  if (original instanceof GraphQLError || !(original instanceof Error) || formatted.extensions?.code !== 'INTERNAL_SERVER_ERROR') {
    const { stacktrace: _drop, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
    return { ...formatted, extensions };
  }
  console.error(`GraphQL operation failed: ${describeFailure(original)}`);
  return { message: 'Internal server error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

export function apiErrorToGraphQL(error: ApiError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: { ...error.extra, code: error.code, http: { status: error.httpStatus, headers: new Map(Object.entries(error.headers)) } },
  });
}
