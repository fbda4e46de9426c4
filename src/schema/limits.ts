import { DocumentNode, GraphQLError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { GraphQLLimits } from '../config/graphql-limits';
import { MeasureAborted, measureOperation, OperationMeasure, RealmSizes } from './cost';

export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimits = {
  maxDepth: 15,
  maxCost: 100_000,
  maxRows: 25_000,
  maxAliases: 30,
  maxRootFields: 30,
  maxMutations: 5,
  maxTokens: 5000,
  maxReplyBytes: 64 * 1024 * 1024,
};

export function tooBig(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
}

/** Throws when the chosen operation exceeds a limit; returns its measure otherwise. */
export function checkOperationLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined | null,
  sizes: RealmSizes,
  limits: GraphQLLimits = DEFAULT_GRAPHQL_LIMITS,
): OperationMeasure {
  let measure: OperationMeasure;
  try {
    // A field visited costs at least 1 unless a list is empty; documents without fragments visit at most their tokens.
    measure = measureOperation(schema, document, operation, variables ?? {}, sizes, {
      maxVisits: limits.maxCost + limits.maxTokens,
      maxDepth: limits.maxDepth,
    });
  } catch (error) {
    if (error instanceof MeasureAborted) throw tooBig(`Query is too expensive: it exceeds the maximum cost of ${limits.maxCost}`);
    throw error;
  }
  const exceeds = (value: number, max: number, message: string) => {
    if (value > max) throw tooBig(`${message.replace('#', String(value))} exceeds the maximum of ${max}`);
  };
  if (operation.operation === 'mutation') exceeds(measure.rootFields, limits.maxMutations, 'Too many mutations in one operation: #');
  exceeds(measure.rootFields, limits.maxRootFields, 'Too many root fields in one operation: #');
  exceeds(measure.aliases, limits.maxAliases, 'Too many aliases in one operation: #');
  exceeds(measure.depth, limits.maxDepth, 'Query is too deep: depth #');
  exceeds(measure.cost, limits.maxCost, 'Query is too expensive: cost #');
  exceeds(measure.rows, limits.maxRows, 'Query returns too many rows: up to #');
  return measure;
}
