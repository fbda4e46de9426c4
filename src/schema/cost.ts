import {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  GraphQLField,
  GraphQLIncludeDirective,
  GraphQLList,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLSkipDirective,
  isCompositeType,
  isObjectType,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
  getVariableValues,
} from 'graphql';

/**
 * What one operation would fetch, measured on its document before anything runs. Every field an
 * operation resolves costs 1 per object it is resolved on, so a list multiplies the cost of what
 * it selects by how many items it can hold: a message page by its page size, an unpaged list by the
 * real size of what it lists (all users, all channels). Nested lists multiply.
 */
export interface OperationMeasure {
  /** Field values resolved. */
  cost: number;
  /** Objects returned in lists. */
  rows: number;
  /** Fields selected under a name of their own. */
  aliases: number;
  /** Fields of the root selection (after fragments), each a separate query or mutation. */
  rootFields: number;
  /** Deepest nesting of fields, introspection included. */
  depth: number;
}

/** How many of each unpaged thing the organization holds (read now and then; see realm-sizes.ts). */
export interface RealmSizes {
  users: number;
  channels: number;
  groups: number;
}

/** Items assumed in a list with no better bound: a row's own small lists, a user's drafts, ... */
export const DEFAULT_LIST_SIZE = 100;
/** Reactions or direct-message participants per message, on average, for estimating message pages. */
const PER_MESSAGE_LIST_SIZE = 5;
/** Messages a page holds when its arguments give no size (the resolver's default). */
const DEFAULT_PAGE_SIZE = 50;
/** The most one page can hold (the fetch refuses more, as Zulip's MAX_MESSAGES_PER_FETCH). */
const MAX_PAGE_SIZE = 5000;
/** The full schema, as one `__schema` answer describes it: priced flat, lists inside it are not. */
const INTROSPECTION_COST = 500;

type Args = Record<string, unknown>;
type Bound = (args: Args, parentArgs: Args, sizes: RealmSizes) => number;

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Messages a `Query.messages` call returns at most, from the same arguments the resolver reads. */
export function messagePageSize(args: Args): number {
  const first = num(args.first);
  const last = num(args.last);
  let size: number;
  if (first !== null || args.after != null) size = first ?? DEFAULT_PAGE_SIZE;
  else if (last !== null || args.before != null) size = last ?? DEFAULT_PAGE_SIZE;
  else size = (num(args.numBefore) ?? DEFAULT_PAGE_SIZE) + (num(args.numAfter) ?? 0) + 1;
  return Math.max(0, Math.min(size, MAX_PAGE_SIZE + 1));
}

/** List fields whose size is known better than DEFAULT_LIST_SIZE, by `Type.field`. */
const LIST_BOUNDS: Record<string, Bound> = {
  'Query.users': (_a, _p, s) => s.users,
  'Query.channels': (_a, _p, s) => s.channels,
  'Query.subscriptions': (_a, _p, s) => s.channels,
  'Query.userGroups': (_a, _p, s) => s.groups,
  'MessageConnection.messages': (_a, parentArgs) => messagePageSize(parentArgs),
  'MessageConnection.edges': (_a, parentArgs) => messagePageSize(parentArgs),
  'PresenceSnapshot.presences': (_a, _p, s) => s.users,
  'UserGroup.members': (_a, _p, s) => s.users,
  'Message.reactions': () => PER_MESSAGE_LIST_SIZE,
  'Message.directRecipients': () => PER_MESSAGE_LIST_SIZE,
};

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Args;
  sizes: RealmSizes;
  measure: OperationMeasure;
  /** Fields that may still be visited (fragments can make a small document expand a lot). */
  visitsLeft: number;
  /** Deeper than this the operation is refused anyway: the walk goes no further. */
  maxDepth: number;
}

function included(walk: Walk, node: FieldNode | { directives?: FieldNode['directives'] }): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, walk.variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, walk.variables);
  return include?.if !== false;
}

/** The fields a selection set selects on `type`, fragments spread (each fragment once per path). */
function collectFields(walk: Walk, set: SelectionSetNode, type: GraphQLObjectType, seen: Set<string>, out: FieldNode[]): void {
  for (const selection of set.selections) {
    if (!included(walk, selection)) continue;
    if (selection.kind === Kind.FIELD) {
      if (--walk.visitsLeft < 0) throw new MeasureAborted();
      out.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collectFields(walk, selection.selectionSet, type, seen, out);
    } else {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      if (!fragment || seen.has(name)) continue;
      seen.add(name);
      collectFields(walk, fragment.selectionSet, type, seen, out);
      seen.delete(name);
    }
  }
}

/** Cost of the selection on one object of `type`; adds rows and aliases to the measure as it goes. */
function selectionCost(walk: Walk, set: SelectionSetNode, type: GraphQLObjectType, multiplier: number, parentArgs: Args, depth: number): number {
  const fields: FieldNode[] = [];
  collectFields(walk, set, type, new Set(), fields);
  walk.measure.depth = Math.max(walk.measure.depth, depth);
  if (depth > walk.maxDepth) return 0;
  let cost = 0;
  for (const node of fields) {
    if (node.alias && node.alias.value !== node.name.value) walk.measure.aliases += 1;
    const name = node.name.value;
    if (name === '__typename') continue;
    if (name === '__schema' || name === '__type') {
      cost += INTROSPECTION_COST;
      walk.measure.depth = Math.max(walk.measure.depth, depth + introspectionDepth(walk, node.selectionSet, new Set()));
      continue;
    }
    const field = type.getFields()[name];
    if (!field) continue; // validation reports unknown fields
    cost += 1;
    if (!node.selectionSet) continue;
    const returnType = getNullableType(field.type);
    const args = field.args.length > 0 ? argumentValues(field, node, walk.variables) : {};
    let itemsEach = 1;
    if (returnType instanceof GraphQLList) {
      const bound = LIST_BOUNDS[`${type.name}.${name}`];
      itemsEach = Math.max(0, Math.ceil(bound ? bound(args, parentArgs, walk.sizes) : DEFAULT_LIST_SIZE));
      walk.measure.rows += multiplier * itemsEach;
    }
    const named = getNamedType(field.type);
    if (!isCompositeType(named)) continue;
    // Interfaces and unions (none today) are priced as their costliest member would be.
    const targets = isObjectType(named) ? [named] : walk.schema.getPossibleTypes(named);
    let child = 0;
    for (const target of targets) {
      child = Math.max(child, selectionCost(walk, node.selectionSet, target, multiplier * itemsEach, args, depth + 1));
    }
    cost += itemsEach * child;
  }
  return cost;
}

/** The field's arguments; invalid ones (validation reports them) count as absent. */
function argumentValues(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Args): Args {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    return {};
  }
}

/** Depth inside an introspection field: the schema is bounded, but its nesting is not. */
function introspectionDepth(walk: Walk, set: SelectionSetNode | undefined, seen: Set<string>): number {
  if (!set) return 0;
  let deepest = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) deepest = Math.max(deepest, 1 + introspectionDepth(walk, selection.selectionSet, seen));
    else if (selection.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, introspectionDepth(walk, selection.selectionSet, seen));
    else {
      const fragment = walk.fragments.get(selection.name.value);
      if (!fragment || seen.has(fragment.name.value)) continue;
      deepest = Math.max(deepest, introspectionDepth(walk, fragment.selectionSet, new Set([...seen, fragment.name.value])));
    }
  }
  return deepest;
}

/** Walking stops here: each field visited costs at least 1, so the operation is too expensive anyway. */
export class MeasureAborted extends Error {}

export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Args,
  sizes: RealmSizes,
  bounds: { maxVisits: number; maxDepth: number },
): OperationMeasure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const measure: OperationMeasure = { cost: 0, rows: 0, aliases: 0, rootFields: 0, depth: 0 };
  const root = schema.getRootType(operation.operation);
  if (!root) return measure;
  // Bad variables are execution's to report; here they count as absent.
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  const walk: Walk = { schema, fragments, variables: coerced.coerced ?? {}, sizes, measure, visitsLeft: bounds.maxVisits, maxDepth: bounds.maxDepth };
  const rootFields: FieldNode[] = [];
  collectFields(walk, operation.selectionSet, root, new Set(), rootFields);
  measure.rootFields = rootFields.length;
  measure.cost = selectionCost(walk, operation.selectionSet, root, 1, {}, 1);
  return measure;
}
