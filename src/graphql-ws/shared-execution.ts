import {
  createSourceEventStream,
  DocumentNode,
  execute,
  ExecutionArgs,
  ExecutionResult,
  getNamedType,
  getOperationAST,
  GraphQLSchema,
  isScalarType,
  Kind,
  print,
  visit,
} from 'graphql';

/**
 * GraphQL subscriptions whose events are executed once for every subscriber that would get the same
 * answer. graphql-js executes the operation again for each subscriber and event; when an event
 * reaches a thousand subscribers of the same operation that was most of the fan-out's work and
 * garbage. The answer to an event is a function of the operation, its variables and the event
 * alone: the event types' fields read only the event, and the one check that reads the context
 * (`@Authorized()`) asks only whether there is a user, which every subscriber has. A subscriber's
 * own part of an event (its flags, its event id) is in the event itself, so it is in the key.
 */

/** Answers kept for subscribers still to come: one fan-out is many subscribers of few operations. */
const MAX_KEPT = 256;
const keptBySchema = new WeakMap<GraphQLSchema, Map<string, Promise<ExecutionResult>>>();

interface OperationFacts {
  /** The operation document, printed. */
  key: string;
  /** Whether the answer shows the event's id (`eventId`, or an event returned whole as JSON). */
  readsEventId: boolean;
}

const factsOf = new WeakMap<DocumentNode, OperationFacts>();

function operationFacts(args: ExecutionArgs): OperationFacts {
  let facts = factsOf.get(args.document);
  if (!facts) {
    facts = { key: print(args.document), readsEventId: readsEventId(args) };
    factsOf.set(args.document, facts);
  }
  return facts;
}

function readsEventId({ schema, document, operationName }: ExecutionArgs): boolean {
  const operation = getOperationAST(document, operationName);
  const root = schema.getSubscriptionType();
  if (!operation || !root) return true;
  for (const selection of operation.selectionSet.selections) {
    // A fragment at the root is rare enough to be taken as reading everything.
    if (selection.kind !== Kind.FIELD) return true;
    const field = root.getFields()[selection.name.value];
    if (!field || isScalarType(getNamedType(field.type))) return true;
  }
  let named = false;
  visit(document, {
    Field(node) {
      if (node.name.value === 'eventId') named = true;
    },
  });
  return named;
}

/** The text that tells two subscribers' events apart, for this operation. */
function eventKey(payload: unknown, readsId: boolean): string {
  if (readsId || payload === null || typeof payload !== 'object') return JSON.stringify(payload) ?? '';
  const { id: _id, ...rest } = payload as Record<string, unknown>;
  return JSON.stringify(rest);
}

function executeShared(args: ExecutionArgs, payload: unknown): Promise<ExecutionResult> {
  const facts = operationFacts(args);
  const signed = (args.contextValue as { user?: unknown } | undefined)?.user ? 'user' : 'none';
  const key = `${facts.key}\u0000${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}\u0000${signed}\u0000${eventKey(payload, facts.readsEventId)}`;
  let kept = keptBySchema.get(args.schema);
  if (!kept) keptBySchema.set(args.schema, (kept = new Map()));
  const found = kept.get(key);
  if (found) return found;
  const answer = Promise.resolve(execute({ ...args, rootValue: payload }));
  kept.set(key, answer);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
  return answer;
}

/** `subscribe` for graphql-ws: graphql-js's, with events executed through `executeShared`. */
export async function sharedSubscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in (source as object))) return source as ExecutionResult;
  const events = (source as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  const mapped: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const step = await events.next();
      if (step.done) return { value: undefined, done: true };
      try {
        return { value: await executeShared(args, step.value), done: false };
      } catch (error) {
        // As graphql-js does: a failed execution ends the subscription and its stream.
        await events.return?.();
        throw error;
      }
    },
    async return() {
      await events.return?.();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      if (events.throw) await events.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]() {
      return mapped;
    },
  };
  return mapped;
}
