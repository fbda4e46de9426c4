import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env';

/**
 * Typed GraphQL documents: `graphql-env.d.ts` is generated from ../schema.graphql by
 * `gql.tada generate-output` (npm run typecheck), so an operation the schema no longer answers fails
 * the type check. GraphQL strings live only in the files of api/operations/.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { JSON: unknown; JSONObject: Record<string, unknown>; SafeInt: number };
}>();

export type { FragmentOf, ResultOf, VariablesOf } from 'gql.tada';
export { readFragment } from 'gql.tada';
