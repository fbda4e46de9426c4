import {
  DocumentNode,
  FragmentDefinitionNode,
  GraphQLError,
  GraphQLSchema,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import { getComplexity, simpleEstimator } from 'graphql-query-complexity';

/** Bounds on one operation, applied to HTTP and WebSocket operations alike. */
export const MAX_QUERY_DEPTH = 10;
export const MAX_QUERY_COST = 2000;

function selectionDepth(
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  seen: Set<string>,
): number {
  if (!set) return 0;
  let deepest = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      // Introspection fields are free: client tooling needs the whole schema.
      if (selection.name.value.startsWith('__')) continue;
      deepest = Math.max(deepest, 1 + selectionDepth(selection.selectionSet, fragments, seen));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, selectionDepth(selection.selectionSet, fragments, seen));
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || seen.has(name)) continue;
      deepest = Math.max(deepest, selectionDepth(fragment.selectionSet, fragments, new Set([...seen, name])));
    }
  }
  return deepest;
}

export function operationDepth(document: DocumentNode, operation: OperationDefinitionNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return selectionDepth(operation.selectionSet, fragments, new Set());
}

function tooBig(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
}

/** Throws when the chosen operation is deeper or costlier than the limits allow. */
export function checkOperationLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): void {
  const depth = operationDepth(document, operation);
  if (depth > MAX_QUERY_DEPTH) {
    throw tooBig(`Query is too deep: depth ${depth} exceeds the maximum of ${MAX_QUERY_DEPTH}`);
  }
  let cost: number;
  try {
    cost = getComplexity({
      schema,
      query: document,
      operationName: operation.name?.value,
      variables: variables ?? {},
      estimators: [simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch (error) {
    // Variables that do not fit their declared types: the client's mistake, answered as the
    // execution would answer it, not as a failure of the server.
    if (error instanceof GraphQLError) throw new GraphQLError(error.message, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
    throw error;
  }
  if (cost > MAX_QUERY_COST) {
    throw tooBig(`Query is too expensive: cost ${cost} exceeds the maximum of ${MAX_QUERY_COST}`);
  }
}
