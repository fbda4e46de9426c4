import { buildSchema, getIntrospectionQuery, GraphQLError, Kind, OperationDefinitionNode, parse } from 'graphql';
import { checkOperationLimits, MAX_QUERY_COST, MAX_QUERY_DEPTH, operationDepth } from '../../src/schema/limits';
import { graphql } from '../helpers/api';
import { startTestServer, TestServer, SERVER_HOOK_TIMEOUT } from '../helpers/server';

// A schema that can nest without end, to reach depths the application schema cannot express yet.
const nested = buildSchema(`
  type Node { id: Int child: Node children: [Node] }
  type Query { node: Node }
`);

const nestedQuery = (depth: number) => `{ node ${'{ child '.repeat(depth - 2)}{ id }${' }'.repeat(depth - 2)} }`;

function check(query: string) {
  const document = parse(query);
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
  return () => checkOperationLimits(nested, document, operation, {});
}

describe('depth limit', () => {
  test('counts nested selections', () => {
    const doc = parse(nestedQuery(4));
    expect(operationDepth(doc, doc.definitions[0] as OperationDefinitionNode)).toBe(4);
  });

  test(`allows depth ${MAX_QUERY_DEPTH} and refuses one more`, () => {
    expect(check(nestedQuery(MAX_QUERY_DEPTH))).not.toThrow();
    expect(check(nestedQuery(MAX_QUERY_DEPTH + 1))).toThrow(
      `Query is too deep: depth ${MAX_QUERY_DEPTH + 1} exceeds the maximum of ${MAX_QUERY_DEPTH}`,
    );
  });

  test('follows fragments, and a fragment cycle does not loop', () => {
    const viaFragments = `
      query { node { ...A } }
      fragment A on Node { child { ...B } }
      fragment B on Node { child { child { child { child { child { child { child { child { child { id } } } } } } } } } }
    `;
    expect(check(viaFragments)).toThrow(/too deep/);
    const cyclic = 'query { node { ...A } } fragment A on Node { id child { ...A } }';
    expect(check(cyclic)).not.toThrow();
  });

  test('the error is a GraphQL error with code BAD_REQUEST', () => {
    try {
      check(nestedQuery(MAX_QUERY_DEPTH + 5))();
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(GraphQLError);
      expect((error as GraphQLError).extensions.code).toBe('BAD_REQUEST');
    }
  });
});

describe('cost limit', () => {
  test('refuses a query whose fields add up past the maximum', () => {
    const aliases = Array.from({ length: MAX_QUERY_COST }, (_, i) => `n${i}: node { id }`).join(' ');
    expect(check(`{ ${aliases} }`)).toThrow(/^Query is too expensive: cost \d+ exceeds the maximum of 2000$/);
  });

  test('allows an ordinary query', () => {
    expect(check('{ node { id children { id } } }')).not.toThrow();
  });
});

describe('over HTTP', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts.close();
  }, SERVER_HOOK_TIMEOUT);

  test('an oversized query is refused with 400 before anything runs', async () => {
    const aliases = Array.from({ length: MAX_QUERY_COST / 2 + 1 }, (_, i) => `m${i}: me { userId }`).join(' ');
    const res = await graphql(ts, ts.owner, `{ ${aliases} }`);
    expect(res.status).toBe(400);
    expect(res.data).toBeNull();
    expect(res.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^Query is too expensive: cost \d+ exceeds the maximum of 2000$/), extensions: { code: 'BAD_REQUEST' } }),
    ]);
  });

  test('the same fields under the limit are answered', async () => {
    const aliases = Array.from({ length: 20 }, (_, i) => `m${i}: me { userId }`).join(' ');
    const res = await graphql(ts, ts.owner, `{ ${aliases} }`);
    expect(res.errors).toBeUndefined();
    expect(res.data!.m19).toEqual({ userId: ts.owner.id });
  });

  test('the full introspection query that client tooling sends is within the limits', async () => {
    const res = await graphql(ts, null, getIntrospectionQuery());
    expect(res.errors).toBeUndefined();
    expect(res.data!.__schema.queryType.name).toBe('Query');
  });
});
