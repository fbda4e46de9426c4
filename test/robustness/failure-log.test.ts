import { describeParameters } from '../../src/failure-log';
import { client, graphql } from '../helpers/api';
import { startTestServer, TestServer } from '../helpers/server';
import { captureLog } from '../helpers/log';

/**
 * A statement that fails is logged with its text and the number and types of its parameters, never
 * their values (message text, passwords, long id lists), and in a bounded line.
 */
let ts: TestServer;
let logged: string[];
let capture: ReturnType<typeof captureLog>;

beforeAll(async () => {
  ts = await startTestServer();
  // Statements touching these columns now fail, as a broken database would make them.
  await ts.server.deps.knex.raw('ALTER TABLE user_messages RENAME COLUMN flags TO flags_elsewhere');
  await ts.server.deps.knex.raw('ALTER TABLE drafts RENAME COLUMN content TO content_elsewhere');
}, 120_000);
afterAll(() => ts.close(), 60_000);
beforeEach(() => {
  // Error lines only, each a whole JSON line as a collector receives it.
  capture = captureLog('error');
  logged = capture.lines;
});
afterEach(() => capture.restore());

const SECRET = 'a secret draft about the merger';

test('100,000 message ids: one short line naming the statement, no id in it', async () => {
  const ids = Array.from({ length: 100_000 }, (_, i) => 1_000_000 + i);
  const res = await client(ts, ts.owner).post('/messages/flags', { messages: ids, op: 'add', flag: 'read' });
  expect(res.status).toBe(500);
  expect(logged).toHaveLength(1);
  const line = logged[0];
  expect(line).toContain(res.body.request_id);
  // Marking read is one statement: the flag and the (user, message) pairs as two arrays.
  expect(line).toMatch(/database error 42703 .*statement: UPDATE user_messages .*; 4 parameters: 2 number, 2 array \(longest array 100000 items\)/);
  expect(line).not.toContain('1000000');
  expect(line).not.toContain('1099999');
  expect(line.length).toBeLessThan(2000);
});

test('message text sent over REST or GraphQL stays out of the log, and so does the query string', async () => {
  const draft = { type: '', to: [], topic: 'quarterly', content: SECRET, timestamp: 1700000000 };
  const rest = await client(ts, ts.owner).post('/drafts', { drafts: [draft] });
  expect(rest.status).toBe(500);
  const gql = await graphql(ts, ts.owner, 'mutation($d: [DraftInput!]!) { createDrafts(drafts: $d) { id } }', { d: [draft] });
  expect(gql.errors?.[0]).toMatchObject({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  const search = await client(ts, ts.owner).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [['search', SECRET]] });
  expect(search.status).toBe(500);
  expect(logged).toHaveLength(3);
  for (const line of logged) {
    expect(line).toMatch(/database error 42703 /);
    expect(line).not.toContain('secret');
    expect(line).not.toContain('quarterly');
    expect(line.length).toBeLessThan(2000);
  }
  const [restLine, gqlLine, searchLine] = capture.records();
  expect(restLine).toMatchObject({
    level: 50,
    method: 'POST',
    path: '/api/v1/drafts',
    requestId: rest.body.request_id,
    msg: expect.stringMatching(/^request failed: /),
  });
  expect(gqlLine).toMatchObject({ level: 50, requestId: expect.any(String), msg: expect.stringMatching(/^GraphQL operation failed: /) });
  expect(searchLine).toMatchObject({ method: 'GET', path: '/api/v1/messages?…', requestId: search.body.request_id });
});

test('parameter summaries count types without showing values', () => {
  expect(describeParameters([])).toBe('0 parameters');
  expect(describeParameters(['password', 3, null, [1, 2], Buffer.from('x')])).toBe(
    '5 parameters: 1 string, 1 number, 1 null, 1 array, 1 bytes (longest array 2 items)',
  );
});
