/**
 * Bounds on one operation, applied to HTTP and WebSocket operations alike, before any resolver
 * runs (configurable, see GRAPHQL_LIMIT_VARIABLES in index.ts; enforced by src/schema/limits.ts).
 */
export interface GraphQLLimits {
  /** Nesting of fields, introspection included (the standard introspection query is 15 deep). */
  maxDepth: number;
  /** Field values resolved (see cost.ts). */
  maxCost: number;
  /** Objects returned in lists. */
  maxRows: number;
  maxAliases: number;
  maxRootFields: number;
  /** Mutations per operation: each one is a request the REST API would have rate-limited. */
  maxMutations: number;
  /** Lexical tokens of a document: bounds the work of parsing and validating it. */
  maxTokens: number;
  /** JSON bytes of one result (checked after execution, before it is serialized). */
  maxReplyBytes: number;
}
