import { buildSchema, getIntrospectionQuery, GraphQLError, Kind, OperationDefinitionNode, parse } from 'graphql';
import { messagePageSize } from '../../src/schema/cost';
import type { GraphQLLimits } from '../../src/config/graphql-limits';
import { checkOperationLimits, DEFAULT_GRAPHQL_LIMITS } from '../../src/schema/limits';
import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { startTestServer, TestServer, SERVER_HOOK_TIMEOUT } from '../helpers/server';

// A schema that can nest without end, to reach depths the application schema cannot express.
const nested = buildSchema(`
  type Node { id: Int child: Node children: [Node] }
  type Query { node: Node nodes: [Node] }
  type Mutation { poke: Int }
`);
const sizes = { users: 10, channels: 5, groups: 3 };

const nestedQuery = (depth: number) => `{ node ${'{ child '.repeat(depth - 2)}{ id }${' }'.repeat(depth - 2)} }`;

function check(query: string, limits: Partial<GraphQLLimits> = {}) {
  const document = parse(query);
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
  return () => checkOperationLimits(nested, document, operation, {}, sizes, { ...DEFAULT_GRAPHQL_LIMITS, ...limits });
}
const { maxDepth, maxCost } = DEFAULT_GRAPHQL_LIMITS;

describe('depth limit', () => {
  test(`allows depth ${maxDepth} and refuses one more`, () => {
    expect(check(nestedQuery(maxDepth))().depth).toBe(maxDepth);
    expect(check(nestedQuery(maxDepth + 1))).toThrow(`Query is too deep: depth ${maxDepth + 1} exceeds the maximum of ${maxDepth}`);
  });

  test('follows fragments, and a fragment cycle does not loop', () => {
    const viaFragments = `
      query { node { ...A } }
      fragment A on Node { child { ...B } }
      fragment B on Node { ${'child { '.repeat(maxDepth)} id ${'} '.repeat(maxDepth)} }
    `;
    expect(check(viaFragments)).toThrow(/too deep/);
    // Validation refuses cycles; measured before it, a cycle ends as too deep.
    const cyclic = 'query { node { ...A } } fragment A on Node { id child { ...A } }';
    expect(check(cyclic)).toThrow('Query is too deep: depth 16 exceeds the maximum of 15');
  });

  test('introspection counts: the standard query passes, a 60-level one does not', () => {
    expect(check(getIntrospectionQuery())().depth).toBe(15);
    const deep = `{ __schema { types { ${'fields { type { '.repeat(30)} name ${'} } '.repeat(30)} } } }`;
    expect(check(deep)).toThrow(/^Query is too deep: depth 63 exceeds the maximum of 15$/);
  });

  test('the error is a GraphQL error with code BAD_REQUEST', () => {
    try {
      check(nestedQuery(maxDepth + 5))();
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(GraphQLError);
      expect((error as GraphQLError).extensions.code).toBe('BAD_REQUEST');
    }
  });
});

describe('cost', () => {
  test('each field costs 1 per object it is resolved on; lists multiply, nested lists multiply again', () => {
    expect(check('{ node { id child { id } } }')().cost).toBe(4);
    // A list with no better bound holds 100 items.
    expect(check('{ nodes { id } }')()).toMatchObject({ cost: 1 + 100, rows: 100 });
    expect(check('{ nodes { id children { id } } }')()).toMatchObject({ cost: 1 + 100 * (2 + 100), rows: 100 + 100 * 100 });
    expect(check('{ nodes { children { children { id } } } }')).toThrow(
      `Query is too expensive: cost ${1 + 100 * (1 + 100 * (1 + 100))} exceeds the maximum of ${maxCost}`,
    );
  });

  test('message pages are sized by their arguments', () => {
    expect(messagePageSize({})).toBe(51);
    expect(messagePageSize({ numBefore: 5000 })).toBe(5001);
    expect(messagePageSize({ numBefore: 10, numAfter: 20 })).toBe(31);
    expect(messagePageSize({ first: 7 })).toBe(7);
    expect(messagePageSize({ last: 9, before: '100' })).toBe(9);
    expect(messagePageSize({ numBefore: 1e9 })).toBe(5001);
  });

  test('aliases, root fields and mutations are counted', () => {
    expect(check('{ a: node { id } b: node { id } node { id } }')()).toMatchObject({ aliases: 2, rootFields: 3 });
    expect(check('mutation { a: poke b: poke c: poke }', { maxMutations: 2 })).toThrow('Too many mutations in one operation: 3 exceeds the maximum of 2');
    const many = Array.from({ length: 31 }, (_, i) => `n${i}: node { id }`).join(' ');
    expect(check(`{ ${many} }`)).toThrow('Too many root fields in one operation: 31 exceeds the maximum of 30');
    expect(check(`{ node { ${Array.from({ length: 31 }, (_, i) => `i${i}: id`).join(' ')} } }`)).toThrow(
      'Too many aliases in one operation: 31 exceeds the maximum of 30',
    );
  });

  test('fragments that expand without end stop the measure early', () => {
    const levels = 25;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Node { a: child { ...F${i + 1} } b: child { ...F${i + 1} } }`).join('\n');
    const query = `{ node { ...F0 } } ${fragments} fragment F${levels} on Node { id }`;
    const started = performance.now();
    expect(check(query, { maxDepth: 100, maxAliases: 1e9 })).toThrow(`Query is too expensive: it exceeds the maximum cost of ${maxCost}`);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

/** `alias` copies of a 5,000-message page, as sent in the measured attack. */
const pageAliases = (count: number, numBefore = 5000) =>
  `{ ${Array.from({ length: count }, (_, i) => `p${i}: messages(numBefore: ${numBefore}) { messages { id content senderId timestamp } }`).join(' ')} }`;

describe('over HTTP', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts.close();
  }, SERVER_HOOK_TIMEOUT);

  /**
   * How long the server takes to refuse (from the request's arrival to the end of the response), the
   * fastest of a few and their median: on a shared machine one figure mostly measures the scheduler.
   */
  async function refusalTime(query: string): Promise<{ ms: number; median: number; res: Awaited<ReturnType<typeof graphql>> }> {
    let res = await graphql(ts, ts.owner, query); // warm-up: the first request compiles code paths
    const times: number[] = [];
    const onRequest = (_req: unknown, response: import('node:http').ServerResponse) => {
      const started = performance.now();
      response.once('finish', () => times.push(performance.now() - started));
    };
    ts.server.http.on('request', onRequest);
    try {
      for (let i = 0; i < 9; i++) res = await graphql(ts, ts.owner, query);
    } finally {
      ts.server.http.off('request', onRequest);
    }
    times.sort((a, b) => a - b);
    expect(times).toHaveLength(9);
    return { ms: times[0], median: times[4], res };
  }

  test('100 aliases of a 5,000-message page are refused at once with 400', async () => {
    const { ms, median, res } = await refusalTime(pageAliases(100));
    expect(res.status).toBe(400);
    expect(res.data).toBeNull();
    expect(graphqlError(res)).toEqual({ message: 'Too many root fields in one operation: 100 exceeds the maximum of 30', code: 'BAD_REQUEST' });
    console.log(`100 aliases x 5000 messages: refused in ${ms.toFixed(1)} ms (median ${median.toFixed(1)} ms)`);
    expect(ms).toBeLessThan(50);
  });

  test('300 aliases are refused by the parser already', async () => {
    const { ms, median, res } = await refusalTime(pageAliases(300));
    expect(res.status).toBe(400);
    expect(graphqlError(res)).toEqual({ message: 'Syntax Error: Document contains more that 5000 tokens. Parsing aborted.', code: 'GRAPHQL_PARSE_FAILED' });
    console.log(`300 aliases x 5000 messages: refused in ${ms.toFixed(1)} ms (median ${median.toFixed(1)} ms)`);
    expect(ms).toBeLessThan(50);
  });

  test('below the token bound, the cost refuses what aliases would have multiplied', async () => {
    const res = await graphql(ts, ts.owner, pageAliases(30));
    expect(graphqlError(res)).toEqual({ message: 'Query is too expensive: cost 600180 exceeds the maximum of 100000', code: 'BAD_REQUEST' });
  });

  test('another client is not slowed down while the attack is tried', async () => {
    const me = client(ts, ts.owner);
    const latency = async () => {
      const started = performance.now();
      assertSuccess(await me.get('/users/me'));
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const quiet: number[] = [];
    for (let i = 0; i < 20; i++) quiet.push(await latency());
    // Each sample races a GET /users/me with one attack request (client and server share this
    // process, so a loop of attacks would also measure the attacking client's own work).
    const busy: number[] = [];
    for (let i = 0; i < 20; i++) {
      const [refused, ms] = await Promise.all([graphql(ts, ts.owner, pageAliases(100)), latency()]);
      expect(refused.status).toBe(400);
      busy.push(ms);
    }
    console.log(`GET /users/me median: ${median(quiet).toFixed(1)} ms alone, ${median(busy).toFixed(1)} ms during the attack`);
    // Before the limits, the same query held every other request for 22 s and more.
    expect(median(busy)).toBeLessThan(median(quiet) + 100);
  });

  test('a few full pages are priced by the rows they return', async () => {
    const res = await graphql(ts, ts.owner, pageAliases(5));
    expect(res.status).toBe(400);
    expect(graphqlError(res)).toEqual({ message: 'Query is too expensive: cost 100030 exceeds the maximum of 100000', code: 'BAD_REQUEST' });
    const rows = await graphql(ts, ts.owner, `{ ${Array.from({ length: 6 }, (_, i) => `p${i}: messages(numBefore: 5000) { messages { id } }`).join(' ')} }`);
    expect(graphqlError(rows)).toEqual({ message: 'Query returns too many rows: up to 30006 exceeds the maximum of 25000', code: 'BAD_REQUEST' });
    const one = await graphql(ts, ts.owner, pageAliases(1));
    expect(one.status).toBe(200);
    expect(one.errors).toBeUndefined();
  });

  test('the standard introspection query is answered; a 60-level one is refused', async () => {
    const res = await graphql(ts, null, getIntrospectionQuery());
    expect(res.errors).toBeUndefined();
    expect(res.data!.__schema.queryType.name).toBe('Query');
    // graphql-js refuses repeated fields/interfaces/possibleTypes/inputFields itself; ofType it lets through.
    const deep = await graphql(ts, null, `{ __schema { types { ${'ofType { '.repeat(58)} name ${'} '.repeat(58)} } } }`);
    expect(deep.status).toBe(400);
    expect(graphqlError(deep).message).toBe('Query is too deep: depth 61 exceeds the maximum of 15');
  });

  test('a document with too many tokens is a 400, not a 500', async () => {
    const fields = Array.from({ length: 20_000 }, () => 'userId').join(' ');
    const res = await graphql(ts, ts.owner, `{ me { ${fields} } }`);
    expect(res.status).toBe(400);
    expect(res.errors![0].message).toMatch(/^Syntax Error: Document contains more that 5000 tokens/);
  });

  test('aliased mutations beyond the bound are refused before any runs', async () => {
    const count = async () => Number((await ts.server.deps.knex('messages').count({ n: '*' }).first())!.n);
    const before = await count();
    const sends = (n: number) =>
      `mutation { ${Array.from({ length: n }, (_, i) => `s${i}: sendMessage(input: { userIds: [${ts.owner.id}], content: "hi ${i}" }) { id }`).join(' ')} }`;
    const refused = await graphql(ts, ts.owner, sends(200));
    expect(refused.status).toBe(400);
    expect(graphqlError(refused).message).toBe('Too many mutations in one operation: 200 exceeds the maximum of 5');
    expect(await count()).toBe(before);
    const allowed = await graphql(ts, ts.owner, sends(5));
    expect(allowed.errors).toBeUndefined();
    expect(await count()).toBe(before + 5);
  });
});

describe('lists are priced by the organization they list', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({ PARLEY_GRAPHQL_MAX_COST: '150', PARLEY_GRAPHQL_MAX_REPLY_BYTES: '4096' });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts.close();
  }, SERVER_HOOK_TIMEOUT);

  test('users costs per user', async () => {
    const knex = ts.server.deps.knex;
    const users = Number((await knex('users').where('realm_id', ts.server.deps.realmId).count({ n: '*' }).first())!.n);
    const fields = Array.from({ length: 150 }, () => 'userId').join(' ');
    const res = await graphql(ts, ts.owner, `{ users { ${fields} } }`);
    expect(graphqlError(res).message).toBe(`Query is too expensive: cost ${1 + users * 150} exceeds the maximum of 150`);
    const small = await graphql(ts, ts.owner, '{ users { userId } }');
    expect(small.errors).toBeUndefined();
    expect(small.data!.users).toHaveLength(users);
  });

  test('a message page costs per message asked for', async () => {
    const page = (n: number) => `{ messages(numBefore: ${n}) { foundOldest messages { id content } } }`;
    const refused = await graphql(ts, ts.owner, page(100));
    expect(graphqlError(refused).message).toBe(`Query is too expensive: cost ${1 + 1 + 1 + 101 * 2} exceeds the maximum of 150`);
    const allowed = await graphql(ts, ts.owner, page(50));
    expect(allowed.errors).toBeUndefined();
  });

  test('a reply larger than the bound is a 400 instead', async () => {
    for (let i = 0; i < 5; i++) {
      assertSuccess(await client(ts, ts.owner).post('/messages', { type: 'private', to: JSON.stringify([ts.owner.id]), content: 'x'.repeat(1000) }));
    }
    const res = await graphql(ts, ts.owner, '{ messages(numBefore: 50) { messages { id content } } }');
    expect(res.status).toBe(400);
    expect(graphqlError(res)).toEqual({ message: 'Reply too large: more than 4096 bytes; ask for fewer items or fields', code: 'BAD_REQUEST' });
    const ids = await graphql(ts, ts.owner, '{ messages(numBefore: 50) { messages { id } } }');
    expect(ids.data!.messages.messages).toHaveLength(5);
  });
});
