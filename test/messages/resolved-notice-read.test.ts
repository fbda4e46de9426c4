import { assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, fetchMessages, sendToChannel, subscribe } from './helpers';

/**
 * The notification bot's "has marked this topic as (un)resolved" notice starts read or unread for
 * each recipient by their resolved_topic_notice_auto_read_policy, as Zulip's server decides.
 */
let ts: TestServer;
let resolver: TestUser;
let always: TestUser;
let exceptFollowed: TestUser;
let following: TestUser;
let never: TestUser;
let newcomer: TestUser;
let town: number;

const policy = (who: TestUser, value: string) => client(ts, who).patch('/settings', { resolved_topic_notice_auto_read_policy: value });
const follow = (who: TestUser, topic: string) => client(ts, who).post('/user_topics', { stream_id: town, topic, visibility_policy: 3 });
const resolve = (id: number, topic: string) => client(ts, resolver).patch(`/messages/${id}`, { topic, propagate_mode: 'change_all' });

/** The newest message of the topic as `who` sees it, through GET /messages. */
async function newestIn(who: TestUser, topic: string) {
  const res = await fetchMessages(ts, who, {
    narrow: [
      ['channel', 'town'],
      ['topic', topic],
    ],
  });
  return res.messages.at(-1);
}

/** The ids of the channel's unread messages in POST /register's unread_msgs. */
async function registeredUnread(who: TestUser): Promise<number[]> {
  const state = assertSuccess(await client(ts, who).post('/register', { fetch_event_types: ['message'] }));
  return state.unread_msgs.streams
    .filter((s: { stream_id: number }) => s.stream_id === town)
    .flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids);
}

beforeAll(async () => {
  ts = await startTestServer();
  resolver = await makeUser(ts, 400, { fullName: 'Rita Resolver' });
  always = await makeUser(ts, 400, { fullName: 'Alex Always' });
  exceptFollowed = await makeUser(ts, 400, { fullName: 'Eve Except' });
  following = await makeUser(ts, 400, { fullName: 'Fay Follower' });
  never = await makeUser(ts, 400, { fullName: 'Ned Never' });
  newcomer = await makeUser(ts, 400, { fullName: 'Nora Newcomer' });
  town = await subscribe(ts, ts.owner, 'town', [resolver, always, exceptFollowed, following, never, newcomer]);
  assertSuccess(await policy(always, 'always'));
  assertSuccess(await policy(exceptFollowed, 'except_followed'));
  assertSuccess(await policy(following, 'except_followed'));
  assertSuccess(await policy(never, 'never'));
}, 120_000);
afterAll(() => ts.close(), 60_000);

test('resolving: read for "always", for "except_followed" outside followed topics and for the resolver; unread otherwise', async () => {
  const first = await sendToChannel(ts, resolver, town, 'deploy', 'Is the deploy done?');
  assertSuccess(await follow(following, 'deploy'));
  // Following changes nothing for "always".
  assertSuccess(await follow(always, 'deploy'));

  const capture = captureEvents(ts);
  assertSuccess(await resolve(first, '✔ deploy'));
  capture.stop();

  const notice = await newestIn(resolver, '✔ deploy');
  expect(notice).toMatchObject({ sender_full_name: 'Notification Bot', content: expect.stringContaining('has marked this topic as resolved.') });
  const flags = async (who: TestUser) => (await newestIn(who, '✔ deploy')).flags;
  expect(await flags(resolver)).toContain('read');
  expect(await flags(always)).toContain('read');
  expect(await flags(exceptFollowed)).toContain('read');
  expect(await flags(following)).not.toContain('read');
  expect(await flags(never)).not.toContain('read');
  // A new account has Zulip's default, except_followed, and does not follow the topic.
  expect(await flags(newcomer)).toContain('read');

  // The message event carried the same flags, in the same send.
  const eventFlags = (who: TestUser) => capture.for(who.id).find((e) => e.type === 'message' && (e.message as { id: number }).id === notice.id)?.flags;
  expect(eventFlags(always)).toContain('read');
  expect(eventFlags(exceptFollowed)).toContain('read');
  expect(eventFlags(following)).not.toContain('read');
  expect(eventFlags(never)).not.toContain('read');

  // And the unread counts of POST /register agree.
  expect(await registeredUnread(never)).toContain(notice.id);
  expect(await registeredUnread(following)).toContain(notice.id);
  expect(await registeredUnread(always)).not.toContain(notice.id);
  expect(await registeredUnread(exceptFollowed)).not.toContain(notice.id);
});

test('unresolving follows the same policy', async () => {
  const first = await sendToChannel(ts, resolver, town, 'outage', 'The site is down');
  assertSuccess(await resolve(first, '✔ outage'));
  assertSuccess(await follow(exceptFollowed, '✔ outage'));
  assertSuccess(await resolve(first, 'outage'));

  const notice = await newestIn(resolver, 'outage');
  expect(notice.content).toContain('has marked this topic as unresolved.');
  const flags = async (who: TestUser) => (await newestIn(who, 'outage')).flags;
  expect(await flags(resolver)).toContain('read');
  expect(await flags(always)).toContain('read');
  // Followed under the resolved name before unresolving: the notice stays unread.
  expect(await flags(exceptFollowed)).not.toContain('read');
  expect(await flags(following)).toContain('read');
  expect(await flags(never)).not.toContain('read');
});

test('other notices of topic edits are not affected', async () => {
  const first = await sendToChannel(ts, resolver, town, 'old name', 'Moving this');
  assertSuccess(
    await client(ts, resolver).patch(`/messages/${first}`, { topic: 'new name', propagate_mode: 'change_all', send_notification_to_new_thread: true }),
  );
  const notice = await newestIn(always, 'new name');
  expect(notice).toMatchObject({ sender_full_name: 'Notification Bot', content: expect.stringContaining('This topic was moved here') });
  expect(notice.flags).not.toContain('read');
});
