import { sharedStoreStats, StoredMessage, storeIfChannelUnchanged } from '../../src/core/messages/send-store';
import { assertSuccess, client } from '../helpers/api';
import { verifyActionFor } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { subscribe } from './helpers';

/**
 * Messages sent at the same moment on remembered snapshots share the statement storing them
 * (core/messages/send-store.ts). Each must still get its own recipients, flags, id and events, and a
 * message whose channel changed must be left out of the shared statement and sent on a fresh read.
 */
let ts: TestServer;
let owner: TestUser;
let senders: TestUser[];
let carol: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  const admin = await makeUser(ts, 200);
  const moderator = await makeUser(ts, 300);
  const alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  const bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  senders = [owner, admin, moderator, alice, bob];
}, 120_000);
afterAll(() => ts.close(), 60_000);

const send = async (who: TestUser, channel: number, topic: string, content: string) =>
  assertSuccess(await client(ts, who).post('/messages', { type: 'stream', to: channel, topic, content })).id as number;

async function storedRows(messageId: number): Promise<{ user_id: number; flags: number }[]> {
  return ts.server.deps.knex('user_messages').where({ message_id: messageId }).orderBy('user_id').select('user_id', 'flags');
}

test('messages sent at once share statements, each with its own recipients, flags and events', async () => {
  const channel = await subscribe(ts, owner, 'batch-shared', senders);
  // Each sender's first message reads the channel; the next ones are sent on what it remembered.
  for (const sender of senders) await send(sender, channel, 'shared', 'first');
  const before = sharedStoreStats(ts.server.deps.knex);
  const sent: { sender: TestUser; content: string; id: number }[] = [];
  const [, aliceEvents] = await verifyActionFor(ts, [owner, senders[3]], async () => {
    await Promise.all(
      senders.flatMap((sender) =>
        [0, 1, 2, 3, 4].map(async (i) => {
          const content = `message ${i} from ${sender.id}`;
          sent.push({ sender, content, id: await send(sender, channel, 'shared', content) });
        }),
      ),
    );
  });
  // All went the shared way; how many shared a statement depends on how the requests arrived
  // (the last test checks the sharing itself).
  expect(sharedStoreStats(ts.server.deps.knex).items - before.items).toBe(25);

  expect(new Set(sent.map((s) => s.id)).size).toBe(25);
  const stored = await ts.server.deps
    .knex('messages')
    .whereIn(
      'id',
      sent.map((s) => s.id),
    )
    .select('id', 'sender_id', 'content', 'topic', 'stream_id');
  for (const { sender, content, id } of sent) {
    expect(stored.find((m) => m.id === id)).toEqual({ id, sender_id: sender.id, content, topic: 'shared', stream_id: channel });
    // Every subscriber receives it; only the sender's copy starts read.
    const rows = await storedRows(id);
    expect(rows).toEqual(senders.map((u) => ({ user_id: u.id, flags: u.id === sender.id ? 1 : 0 })).sort((a, b) => a.user_id - b.user_id));
  }
  const messageEvents = aliceEvents.filter((e) => e.type === 'message');
  expect(messageEvents.map((e) => e.message.id).sort((a: number, b: number) => a - b)).toEqual(sent.map((s) => s.id).sort((a, b) => a - b));
  for (const event of messageEvents) {
    const { sender } = sent.find((s) => s.id === event.message.id)!;
    expect(event.flags).toEqual(sender.id === senders[3].id ? ['read'] : []);
    expect(event.message.content).toContain(`from ${sender.id}`);
  }
});

test('messages on a channel that changed are sent again on a fresh read', async () => {
  const channel = await subscribe(ts, owner, 'batch-changed', senders);
  for (const sender of senders) await send(sender, channel, 'changed', 'first');
  // Every remembered snapshot of the channel is now out of date.
  assertSuccess(await client(ts, owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'batch-changed' }], principals: [carol.id] }));
  const ids = await Promise.all(senders.map((sender) => send(sender, channel, 'changed', 'after carol joined')));
  for (const id of ids) expect((await storedRows(id)).map((r) => r.user_id)).toContain(carol.id);
});

test('a shared statement stores only the messages whose channel row is unchanged, with ids in order', async () => {
  const knex = ts.server.deps.knex;
  const channel = await subscribe(ts, owner, 'batch-guard', senders);
  const firstId = await send(owner, channel, 'guard', 'first');
  const { recipient_id: recipientId } = await knex('messages').where({ id: firstId }).first('recipient_id');
  const rowText = async () => (await knex.raw('SELECT streams::text AS t FROM streams WHERE id = ?', [channel])).rows[0].t as string;
  const current = await rowText();
  const message = (content: string): StoredMessage => ({
    row: {
      realm_id: ts.server.deps.realmId,
      sender_id: owner.id,
      recipient_id: recipientId,
      stream_id: channel,
      dm_key: null,
      topic: 'guard',
      content,
      rendered_content: `<p>${content}</p>`,
      sending_client: 'test',
      date_sent: new Date(),
      has_link: false,
      has_image: false,
      has_attachment: false,
    },
    userIds: senders.map((u) => u.id),
    flags: senders.map((u) => (u.id === owner.id ? 1 : 0)),
  });
  const before = sharedStoreStats(knex);
  const contents = ['one', 'two', 'three', 'four', 'five', 'six'];
  const stale = current.replace(/\)$/, ' )');
  // Submitted in one turn of the event loop: one statement.
  const results = await Promise.all(
    contents.map((content) => storeIfChannelUnchanged(knex, true, { message: message(content), channelRowText: content === 'three' ? stale : current })),
  );
  expect(sharedStoreStats(knex)).toEqual({ writes: before.writes + 1, items: before.items + contents.length });
  expect(results[2]).toBeNull();
  const ids = results.filter((id): id is number => id !== null);
  expect(ids.length).toBe(5);
  expect(ids[0]).toBeGreaterThan(firstId);
  expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  const stored = await knex('messages').where('id', '>', firstId).andWhere({ stream_id: channel }).orderBy('id').select('id', 'content');
  expect(stored).toEqual(ids.map((id, i) => ({ id, content: contents.filter((c) => c !== 'three')[i] })));
  for (const id of ids) expect((await storedRows(id)).length).toBe(senders.length);
});
