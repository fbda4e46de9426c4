import { ExecutionResult, GraphQLBoolean, GraphQLInt, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import { sharedSubscribe } from '../../src/graphql-ws/shared-execution';

// graphql-js runs resolvers for every subscriber; sharedSubscribe runs them once per distinct answer.
// A schema whose resolvers count their calls shows which subscribers shared an execution.

let textCalls = 0;
type Payload = { id: number; text: string };
const Event = new GraphQLObjectType<Payload>({
  name: 'Event',
  fields: {
    eventId: { type: GraphQLInt, resolve: (event) => event.id },
    text: {
      type: GraphQLString,
      resolve: (event) => {
        textCalls++;
        return event.text;
      },
    },
  },
});

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLBoolean } } }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      events: {
        type: Event,
        subscribe: (_root, _args, context: { source: AsyncIterable<unknown> }) => context.source,
        resolve: (event: unknown) => event,
      },
    },
  }),
});

/** A subscription fed by hand: `push` hands it one event, `answers` are what it yielded. */
async function subscription(query: string, user: unknown = { id: 1 }) {
  const waiting: ((value: IteratorResult<unknown>) => void)[] = [];
  const source: AsyncIterableIterator<unknown> = {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    return: async () => ({ value: undefined, done: true }),
    [Symbol.asyncIterator]: () => source,
  };
  const result = await sharedSubscribe({ schema, document: parse(query), contextValue: { source, user } });
  if (!(Symbol.asyncIterator in result)) throw new Error(`not a stream: ${JSON.stringify(result)}`);
  const stream = result as AsyncIterableIterator<ExecutionResult>;
  return {
    stream,
    async push(event: unknown): Promise<ExecutionResult> {
      const answer = stream.next();
      await new Promise((resolve) => setImmediate(resolve));
      waiting.shift()!({ value: event, done: false });
      return (await answer).value as ExecutionResult;
    },
  };
}

beforeEach(() => {
  textCalls = 0;
});

test('subscribers of one operation share the execution of an event they would answer alike', async () => {
  const query = 'subscription { events { text } }';
  const [a, b] = [await subscription(query), await subscription(query)];
  // Their own event ids differ, but the operation does not show them.
  const first = await a.push({ id: 4, text: 'hello' });
  const second = await b.push({ id: 0, text: 'hello' });
  expect(first).toEqual({ data: { events: { text: 'hello' } } });
  expect(second).toEqual(first);
  expect(textCalls).toBe(1);
  expect((await b.push({ id: 1, text: 'other' })).data).toEqual({ events: { text: 'other' } });
  expect(textCalls).toBe(2);
});

test('an operation that shows the event id, or another operation, executes on its own', async () => {
  const withIds = 'subscription { events { eventId text } }';
  const [a, b] = [await subscription(withIds), await subscription(withIds)];
  expect((await a.push({ id: 7, text: 'same' })).data).toEqual({ events: { eventId: 7, text: 'same' } });
  expect((await b.push({ id: 0, text: 'same' })).data).toEqual({ events: { eventId: 0, text: 'same' } });
  expect(textCalls).toBe(2);
  // Same id: shared again.
  expect((await (await subscription(withIds)).push({ id: 0, text: 'same' })).data).toEqual({ events: { eventId: 0, text: 'same' } });
  expect(textCalls).toBe(2);
  // An alias changes the answer's shape: another operation.
  expect((await (await subscription('subscription { events { words: text } }')).push({ id: 0, text: 'same' })).data).toEqual({ events: { words: 'same' } });
  expect(textCalls).toBe(3);
});

test('variables and the presence of a user are part of what is shared', async () => {
  const query = 'subscription { events { text } }';
  await (await subscription(query)).push({ id: 0, text: 'v' });
  await (await subscription(query, null)).push({ id: 0, text: 'v' });
  expect(textCalls).toBe(2);
});

test('a failed source answer is returned as is, and ending the stream ends its source', async () => {
  const refused = await sharedSubscribe({ schema, document: parse('subscription { nothing }'), contextValue: {} });
  expect('errors' in refused && refused.errors?.[0].message).toMatch(/nothing/);
  const a = await subscription('subscription { events { text } }');
  expect(await a.stream.return!()).toEqual({ value: undefined, done: true });
});
