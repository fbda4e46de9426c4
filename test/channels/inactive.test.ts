import { assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, createChannel, ids } from './helpers';

/**
 * is_recently_active: the scheduler's daily sweep marks channels without a message in the last
 * 180 days inactive, and a new message marks them active again, each announced as a `stream`
 * update to everyone who can see the channel.
 */
let ts: TestServer;
let member: TestUser;
let other: TestUser;
let guest: TestUser;

const send = (who: TestUser, channel: number, content: string) =>
  client(ts, who)
    .post('/messages', { type: 'stream', to: channel, topic: 'news', content })
    .then((res) => assertSuccess(res).id as number);
const isRecentlyActive = async (channel: number) => assertSuccess(await client(ts, ts.owner).get(`/streams/${channel}`)).stream.is_recently_active;
/** Moves every message of the channel `days` into the past. */
const age = (channel: number, days: number) =>
  ts.server.deps
    .knex('messages')
    .where({ stream_id: channel })
    .update({ date_sent: new Date(Date.now() - days * 24 * 3600 * 1000) });
const activityEvents = (capture: ReturnType<typeof captureEvents>, channel: number) =>
  capture
    .ofType('stream')
    .filter(({ event }) => event.property === 'is_recently_active' && event.stream_id === channel)
    .map(({ event, userIds }) => ({ event, userIds: [...userIds].sort((a, b) => a - b) }));

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
  other = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
}, 120_000);
afterAll(() => ts.close(), 60_000);

test('a channel whose last message is older than 180 days becomes inactive; a new message revives it', async () => {
  const quiet = await createChannel(ts, member, 'quiet corner');
  const busy = await createChannel(ts, member, 'busy street');
  await send(member, quiet, 'Anyone here?');
  await send(member, quiet, 'Hello?');
  await send(member, busy, 'Lots going on');
  await age(quiet, 181);
  // Just inside the window: still recently active.
  await age(busy, 179);

  const capture = captureEvents(ts);
  await ts.server.scheduler.runNow();
  capture.stop();
  expect(await isRecentlyActive(quiet)).toBe(false);
  expect(await isRecentlyActive(busy)).toBe(true);
  const marked = activityEvents(capture, quiet);
  expect(marked).toEqual([
    {
      event: { type: 'stream', op: 'update', property: 'is_recently_active', value: false, stream_id: quiet, name: 'quiet corner' },
      // A public channel: every non-guest, and subscribed guests (none here).
      userIds: ids(ts.owner, member, other),
    },
  ]);
  expect(activityEvents(capture, busy)).toEqual([]);

  // Swept again: nothing left to mark, nothing announced.
  const again = captureEvents(ts);
  await ts.server.scheduler.runNow();
  again.stop();
  expect(activityEvents(again, quiet)).toEqual([]);
  expect(await isRecentlyActive(quiet)).toBe(false);

  // The next message makes it recently active again, announced to the same people.
  const revived = captureEvents(ts);
  await send(member, quiet, 'Back again');
  revived.stop();
  expect(await isRecentlyActive(quiet)).toBe(true);
  expect(activityEvents(revived, quiet)).toEqual([
    {
      event: { type: 'stream', op: 'update', property: 'is_recently_active', value: true, stream_id: quiet, name: 'quiet corner' },
      userIds: ids(ts.owner, member, other),
    },
  ]);
  // A second message changes nothing more.
  const later = captureEvents(ts);
  await send(member, quiet, 'Still here');
  later.stop();
  expect(activityEvents(later, quiet)).toEqual([]);
});

test('a private channel is announced only to those who can see it; a channel with no messages at all counts as inactive', async () => {
  const hidden = await createChannel(ts, member, 'hidden room', { invite_only: true, principals: [member.id, guest.id] });
  await send(member, hidden, 'Secret');
  await age(hidden, 200);
  const empty = await createChannel(ts, other, 'never used');

  const capture = captureEvents(ts);
  await ts.server.scheduler.runNow();
  capture.stop();
  expect(await isRecentlyActive(hidden)).toBe(false);
  expect(await isRecentlyActive(empty)).toBe(false);
  // Subscribers and administrators; not the member who is not subscribed.
  expect(activityEvents(capture, hidden).map((d) => d.userIds)).toEqual([ids(ts.owner, member, guest)]);
  expect(activityEvents(capture, empty).map((d) => d.event.value)).toEqual([false]);

  // The clients' register state shows it too.
  const state = assertSuccess(await client(ts, guest).post('/register', { fetch_event_types: ['subscription'] }));
  expect(state.subscriptions.find((s: { stream_id: number }) => s.stream_id === hidden).is_recently_active).toBe(false);
});
