import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { Delivery, ZulipEvent } from '../../src/realtime/bus';
import { assertSuccess, basicAuth, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(120_000);

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
const clients: Client[] = [];
beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await ts.close();
});

const wsUrl = () => `${ts.url.replace(/^http/, 'ws')}/graphql`;

function connect(who: { email: string; apiKey: string } | null, options: { viaHeader?: boolean } = {}): Client {
  const authorization = who ? basicAuth(who) : undefined;
  const impl = options.viaHeader
    ? class extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers: authorization ? { authorization } : {} });
        }
      }
    : WebSocket;
  const c = createClient({
    url: wsUrl(),
    webSocketImpl: impl,
    connectionParams: options.viaHeader || !authorization ? {} : { authorization },
    retryAttempts: 0,
    lazy: true,
  });
  clients.push(c);
  return c;
}

/** Subscribes and collects results; `ready` resolves once the server has registered the subscription. */
function subscribe(c: Client, query: string, variables: Record<string, unknown> = {}) {
  const results: any[] = [];
  let error: unknown = null;
  let completed = false;
  const listenersBefore = busListenerCount();
  const stop = c.subscribe(
    { query, variables },
    {
      next: (value) => results.push(value),
      error: (e) => (error = e),
      complete: () => (completed = true),
    },
  );
  return {
    results,
    stop,
    get error() {
      return error;
    },
    get completed() {
      return completed;
    },
    ready: () => waitUntil(() => busListenerCount() > listenersBefore || error !== null || completed),
  };
}

/** Bus listeners = live subscriptions in this process. */
function busListenerCount(): number {
  return ts.server.deps.bus.listenerCount ?? 0;
}

async function publish(userIds: number[], event: ZulipEvent, extra: Partial<Delivery> = {}) {
  await ts.server.deps.bus.publish([{ realmId: ts.server.deps.realmId, userIds, event, ...extra }]);
}

describe('events subscription', () => {
  test('yields the events a queue would, with ids from 0', async () => {
    const sub = subscribe(connect(alice), 'subscription { zulipEvents }');
    await sub.ready();
    assertSuccess(await client(ts, ts.owner).patch(`/users/${bob.id}`, { full_name: 'Bob Live' }));
    await publish([bob.id], { type: 'custom', secret: true });
    await publish([alice.id], { type: 'custom', n: 1 });
    await waitUntil(() => sub.results.length === 2);
    expect(sub.results).toEqual([
      { data: { zulipEvents: { id: 0, type: 'realm_user', op: 'update', person: { user_id: bob.id, full_name: 'Bob Live' } } } },
      { data: { zulipEvents: { id: 1, type: 'custom', n: 1 } } },
    ]);
    sub.stop();
    await waitUntil(() => sub.completed || busListenerCount() === 0);
  });

  test('filters by event types and narrow, shaped for a modern client', async () => {
    const sub = subscribe(connect(alice), 'subscription($types: [String!], $narrow: [[String!]!]) { zulipEvents(eventTypes: $types, narrow: $narrow) }', {
      types: ['message', 'delete_message'],
      narrow: [['is', 'dm']],
    });
    await sub.ready();
    const dm = { type: 'message', flags: [], message: { id: 3, type: 'private', subject: '', display_recipient: [] } };
    await publish([alice.id], { type: 'custom' });
    await publish([alice.id], { type: 'message', flags: [], message: { id: 2, type: 'stream', subject: 'x', display_recipient: 'Denmark' } });
    await publish([alice.id], dm);
    await publish([alice.id], { type: 'delete_message', message_type: 'private', message_ids: [3] });
    await waitUntil(() => sub.results.length === 2);
    expect(sub.results.map((r) => r.data.zulipEvents)).toEqual([
      // A message is delivered rendered: subscribers get HTML.
      { ...dm, message: { ...dm.message, content_type: 'text/html' }, id: 0 },
      // Every capability is declared: bulk deletion, the empty topic kept.
      { type: 'delete_message', message_type: 'private', message_ids: [3], id: 1 },
    ]);
  });

  test('all_public_streams adds public-channel messages; guests may not ask for it', async () => {
    const sub = subscribe(connect(bob), 'subscription { zulipEvents(allPublicStreams: true, eventTypes: ["message"]) }');
    await sub.ready();
    await publish(
      [alice.id],
      { type: 'message', flags: [], message: { id: 4, type: 'stream', subject: 't', display_recipient: 'Denmark' } },
      { publicChannel: true, perUser: { [alice.id]: { flags: ['read'] } } },
    );
    await waitUntil(() => sub.results.length === 1);
    expect(sub.results[0].data.zulipEvents).toMatchObject({ id: 0, flags: [], message: { id: 4 } });

    const refused = subscribe(connect(guest), 'subscription { zulipEvents(allPublicStreams: true) }');
    await waitUntil(() => refused.results.length > 0 || refused.error !== null);
    expect(refused.results[0].errors).toEqual([
      expect.objectContaining({ message: 'User not authorized for this query', extensions: { code: 'BAD_REQUEST' } }),
    ]);
  });

  test('a bad narrow is refused with the REST error', async () => {
    const sub = subscribe(connect(alice), 'subscription { zulipEvents(narrow: [["search", "x"]]) }');
    await waitUntil(() => sub.results.length > 0);
    expect(sub.results[0].errors[0]).toMatchObject({ message: 'Operator search not supported.', extensions: { code: 'BAD_REQUEST' } });
  });
});

describe('typed subscriptions', () => {
  test('messages', async () => {
    const sub = subscribe(
      connect(alice),
      'subscription { messages { eventId flags message { id senderId senderFullName senderEmail type streamId topic content timestamp displayRecipient } } }',
    );
    await sub.ready();
    await publish([alice.id], { type: 'custom' });
    await publish(
      [alice.id],
      {
        type: 'message',
        flags: [],
        message: {
          id: 9,
          sender_id: bob.id,
          sender_full_name: 'Bob',
          sender_email: bob.email,
          type: 'stream',
          stream_id: 3,
          subject: 'plans',
          content: 'hi',
          rendered_content: '<p>hi</p>',
          timestamp: 1700000000,
          display_recipient: 'Denmark',
        },
      },
      { perUser: { [alice.id]: { flags: ['mentioned'] } } },
    );
    await waitUntil(() => sub.results.length === 1);
    expect(sub.results[0].data.messages).toEqual({
      eventId: 0,
      flags: ['mentioned'],
      message: {
        id: '9',
        senderId: bob.id,
        senderFullName: 'Bob',
        senderEmail: bob.email,
        type: 'stream',
        streamId: 3,
        topic: 'plans',
        content: '<p>hi</p>',
        timestamp: 1700000000,
        displayRecipient: 'Denmark',
      },
    });
  });

  test('subscribers of one operation each get their own flags and event ids', async () => {
    const query = 'subscription { messages { eventId flags message { id content } } }';
    const withoutIds = 'subscription { messages { flags message { id } } }';
    const listening = busListenerCount();
    const aliceSub = subscribe(connect(alice), query);
    const bobSub = subscribe(connect(bob), query);
    const aliceBare = subscribe(connect(alice), withoutIds);
    await waitUntil(() => busListenerCount() === listening + 3);
    const message = (id: number) => ({
      type: 'message',
      flags: [],
      message: { id, sender_id: bob.id, type: 'stream', stream_id: 3, subject: 't', content: 'x', rendered_content: `<p>${id}</p>`, timestamp: 1 },
    });
    await publish([alice.id, bob.id], message(21), { perUser: { [alice.id]: { flags: ['mentioned'] } } });
    await waitUntil(() => aliceSub.results.length === 1 && bobSub.results.length === 1 && aliceBare.results.length === 1);
    // Guest subscribes later: the same operation, but its next event is its first.
    const guestSub = subscribe(connect(guest), query);
    await guestSub.ready();
    await publish([alice.id, bob.id, guest.id], message(22));
    await waitUntil(() => aliceSub.results.length === 2 && bobSub.results.length === 2 && guestSub.results.length === 1 && aliceBare.results.length === 2);
    const first = { id: '21', content: '<p>21</p>' };
    const second = { id: '22', content: '<p>22</p>' };
    expect(aliceSub.results.map((r) => r.data.messages)).toEqual([
      { eventId: 0, flags: ['mentioned'], message: first },
      { eventId: 1, flags: [], message: second },
    ]);
    expect(bobSub.results.map((r) => r.data.messages)).toEqual([
      { eventId: 0, flags: [], message: first },
      { eventId: 1, flags: [], message: second },
    ]);
    expect(guestSub.results.map((r) => r.data.messages)).toEqual([{ eventId: 0, flags: [], message: second }]);
    expect(aliceBare.results.map((r) => r.data.messages)).toEqual([
      { flags: ['mentioned'], message: { id: '21' } },
      { flags: [], message: { id: '22' } },
    ]);
  });

  test('reactions', async () => {
    const sub = subscribe(connect(alice), 'subscription { reactions { eventId op messageId userId emojiName emojiCode reactionType } }');
    await sub.ready();
    await publish([alice.id], {
      type: 'reaction',
      op: 'add',
      message_id: 9,
      user_id: bob.id,
      user: { user_id: bob.id },
      emoji_name: 'smile',
      emoji_code: '1f604',
      reaction_type: 'unicode_emoji',
    });
    await waitUntil(() => sub.results.length === 1);
    expect(sub.results[0].data.reactions).toEqual({
      eventId: 0,
      op: 'add',
      messageId: 9,
      userId: bob.id,
      emojiName: 'smile',
      emojiCode: '1f604',
      reactionType: 'unicode_emoji',
    });
  });
});

describe('connection', () => {
  test('credentials may come in the upgrade request header; queries work over the socket', async () => {
    const c = connect(alice, { viaHeader: true });
    const result = await new Promise<any>((resolve, reject) => {
      c.subscribe({ query: '{ me { userId } }' }, { next: resolve, error: reject, complete: () => {} });
    });
    expect(result).toEqual({ data: { me: { userId: alice.id } } });
  });

  test.each([
    ['wrong key', { email: 'nobody@example.com', apiKey: 'x'.repeat(32) }],
    ['no credentials', null],
  ])('%s: the socket is closed with 4403', async (_label, who) => {
    const c = connect(who);
    let closeCode: number | null = null;
    c.on('closed', (event) => {
      closeCode = (event as { code: number }).code;
    });
    const sub = subscribe(c, 'subscription { zulipEvents }');
    await waitUntil(() => closeCode !== null);
    expect(closeCode).toBe(4403);
    expect(sub.results).toEqual([]);
  });

  test('operations over the socket obey the same limits as over HTTP', async () => {
    const pages = (count: number) =>
      `{ ${Array.from({ length: count }, (_, i) => `p${i}: messages(numBefore: 5000) { messages { id content senderId timestamp } }`).join(' ')} }`;
    const c = connect(alice);
    const refusal = (query: string) =>
      new Promise<any>((resolve) => {
        c.subscribe({ query }, { next: () => resolve(null), error: resolve, complete: () => {} });
      });
    expect(await refusal(pages(30))).toEqual([
      expect.objectContaining({ message: 'Query is too expensive: cost 600180 exceeds the maximum of 100000', extensions: { code: 'BAD_REQUEST' } }),
    ]);
    const started = performance.now();
    expect(await refusal(pages(100))).toEqual([
      expect.objectContaining({ message: 'Too many root fields in one operation: 100 exceeds the maximum of 30', extensions: { code: 'BAD_REQUEST' } }),
    ]);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test('closing the server ends live subscriptions', async () => {
    const sub = subscribe(connect(alice), 'subscription { zulipEvents }');
    await sub.ready();
    await ts.server.close();
    await waitUntil(() => sub.error !== null || sub.completed);
  });
});
