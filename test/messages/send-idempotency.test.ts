import { graphql, graphqlError } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, fetchMessages, ofType, subscribe } from './helpers';

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let town: number;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  town = await subscribe(ts, ts.owner, 'town', [alice, bob]);
}, SERVER_HOOK_TIMEOUT);
afterAll(() => ts.close(), 60_000);

const SEND = `mutation($input: SendMessageInput!) { sendMessage(input: $input) { id } }`;

async function send(who: TestUser, input: Record<string, unknown>) {
  return graphql(ts, who, SEND, { input });
}

async function countWith(content: string): Promise<number> {
  const { messages } = await fetchMessages(ts, bob, { narrow: JSON.stringify([{ operator: 'channel', operand: town }]) });
  return (messages as { content: string }[]).filter((m) => m.content === `<p>${content}</p>`).length;
}

test('a send repeated with its idempotency key returns the first message and sends nothing', async () => {
  const capture = captureEvents(ts);
  const input = { channelId: town, topic: 'retry', content: 'only once', idempotencyKey: 'key-1' };
  const first = await send(alice, input);
  expect(first.errors).toBeUndefined();
  const again = await send(alice, input);
  expect(again.errors).toBeUndefined();
  expect(again.data!.sendMessage.id).toBe(first.data!.sendMessage.id);
  capture.stop();
  expect(capture.for(bob.id).filter(ofType('message'))).toHaveLength(1);
  expect(await countWith('only once')).toBe(1);
});

test('keys belong to their user, and a new key sends again', async () => {
  const a = await send(alice, { channelId: town, topic: 'retry', content: 'shared key', idempotencyKey: 'same' });
  const b = await send(bob, { channelId: town, topic: 'retry', content: 'shared key', idempotencyKey: 'same' });
  const c = await send(alice, { channelId: town, topic: 'retry', content: 'shared key', idempotencyKey: 'other' });
  const ids = new Set([a, b, c].map((r) => r.data!.sendMessage.id));
  expect(ids.size).toBe(3);
  expect(await countWith('shared key')).toBe(3);
});

test('sends racing with one key store one message', async () => {
  const input = { channelId: town, topic: 'retry', content: 'raced', idempotencyKey: 'race' };
  const results = await Promise.all([send(alice, input), send(alice, input), send(alice, input)]);
  for (const r of results) expect(r.errors).toBeUndefined();
  expect(new Set(results.map((r) => r.data!.sendMessage.id)).size).toBe(1);
  expect(await countWith('raced')).toBe(1);
});

test('a failed send gives its key up, so that a retry can succeed', async () => {
  const failed = graphqlError(await send(alice, { channelName: 'nowhere', topic: 't', content: 'lost', idempotencyKey: 'after-error' }));
  expect(failed.code).toBe('STREAM_DOES_NOT_EXIST');
  const retried = await send(alice, { channelId: town, topic: 'retry', content: 'found', idempotencyKey: 'after-error' });
  expect(retried.errors).toBeUndefined();
  expect(await countWith('found')).toBe(1);
});

test('a key older than a day is forgotten: the send goes through', async () => {
  const first = await send(alice, { channelId: town, topic: 'retry', content: 'yesterday', idempotencyKey: 'old' });
  await ts.server.deps
    .knex('send_idempotency_keys')
    .where({ user_id: alice.id, key: 'old' })
    .update({ created_at: new Date(Date.now() - 25 * 3600_000) });
  const second = await send(alice, { channelId: town, topic: 'retry', content: 'yesterday', idempotencyKey: 'old' });
  expect(second.data!.sendMessage.id).not.toBe(first.data!.sendMessage.id);
  expect(await countWith('yesterday')).toBe(2);
  const rows = await ts.server.deps.knex('send_idempotency_keys').where({ user_id: alice.id, key: 'old' });
  expect(rows).toHaveLength(1);
  expect(Number(rows[0].message_id)).toBe(Number(second.data!.sendMessage.id));
});

test('keys of invalid length are refused', async () => {
  const tooLong = graphqlError(await send(alice, { channelId: town, topic: 'retry', content: 'x', idempotencyKey: 'k'.repeat(129) }));
  expect(tooLong.code).toBe('BAD_REQUEST');
  expect(graphqlError(await send(alice, { channelId: town, topic: 'retry', content: 'x', idempotencyKey: '' })).code).toBe('BAD_REQUEST');
});
