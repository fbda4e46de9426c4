import { alertWordText, usersAlertedBy } from '../../src/core/alert-words/matching';
import { assertError, assertSuccess, client } from '../helpers/api';
import { captureEvents, verifyPersonalAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { messageFlags, sendDirect, sendToChannel, subscribe } from '../messages/helpers';

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let channelId: number;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  channelId = await subscribe(ts, ts.owner, 'alerts', [alice, bob]);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const add = (who: TestUser, words: unknown) => client(ts, who).post('/users/me/alert_words', { alert_words: words });
const remove = (who: TestUser, words: unknown) => client(ts, who).delete('/users/me/alert_words', { alert_words: words });
const list = async (who: TestUser) => assertSuccess(await client(ts, who).get('/users/me/alert_words')).alert_words;

test('adding trims, drops blanks and repeats ignoring case; removing ignores case and unknown words', async () => {
  const user = await makeUser(ts);
  expect(await list(user)).toEqual([]);
  expect(assertSuccess(await add(user, ['one ', '\n two', 'three', '', '  '])).alert_words).toEqual(['one', 'two', 'three']);
  expect(assertSuccess(await add(user, ['ONE', 'Four', 'four', '☃'])).alert_words).toEqual(['one', 'two', 'three', 'four', '☃']);
  expect(assertSuccess(await remove(user, ['TWO', 'nothing'])).alert_words).toEqual(['one', 'three', 'four', '☃']);
  expect(await list(user)).toEqual(['one', 'three', 'four', '☃']);
});

test("Zulip's validation errors change nothing", async () => {
  const user = await makeUser(ts);
  assertSuccess(await add(user, ['kept']));
  assertError(await add(user, ['ok', 'x'.repeat(101)]), 'BAD_REQUEST', 'alert_words[1] is too long (limit: 100 characters)');
  assertError(await add(user, '"word"'), 'BAD_REQUEST', 'alert_words is not a list');
  assertError(await add(user, 'word'), 'INVALID_JSON', 'Argument "alert_words" is not valid JSON.');
  assertError(await add(user, [1]), 'BAD_REQUEST', 'alert_words[0] is not a string');
  assertError(await client(ts, user).post('/users/me/alert_words', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'alert_words' argument");
  assertError(await client(ts, user).delete('/users/me/alert_words', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'alert_words' argument");
  assertSuccess(await add(user, ['y'.repeat(100)]));
  expect(await list(user)).toEqual(['kept', 'y'.repeat(100)]);
});

test('adding and removing: the whole list goes to the user only; a fresh register agrees', async () => {
  const user = await makeUser(ts);
  const added = await verifyPersonalAction(ts, user, bob, () => add(user, ['Alpha', 'beta']));
  expect(added).toEqual([{ type: 'alert_words', alert_words: ['Alpha', 'beta'] }]);
  const removed = await verifyPersonalAction(ts, user, bob, () => remove(user, ['alpha']));
  expect(removed).toEqual([{ type: 'alert_words', alert_words: ['beta'] }]);
});

describe("matching follows Zulip's rules", () => {
  const index = new Map([
    ['one', [1]],
    ['two', [2]],
    ['three', [3]],
    ['multi-word word', [4]],
    ['☃', [5]],
  ]);
  const alerts = (content: string) => [...usersAlertedBy(index, content)].sort();

  test.each([
    ['Normal alert one time', [1]],
    ['Normal alert one', [1]],
    ['two normal alerts', [2]],
    ['This one? should alert', [1]],
    ['Definitely time for three.', [3]],
    ["One two three o'clock", [1, 2, 3]],
    ["Case of ONE, won't stop me", [1]],
    ['a multi-word word here', [4]],
    ['snow ☃ man', [5]],
    ['**one**', [1]],
    ['`two`', [2]],
    ['> three', [3]],
  ])('%j alerts %j', (content, expected) => {
    expect(alerts(content)).toEqual(expected);
  });

  test.each([
    "Don't alert on http://t.co/one/ URLs",
    "Don't alert on http://t.co/one URLs",
    "Don't alert on clone, twofold or seventytwofold",
    'no "one" in double quotes after',
    '```\ncode with one inside\n```',
    '~~~ python\nthree = 3\n~~~',
  ])('%j alerts nobody', (content) => {
    expect(alerts(content)).toEqual([]);
  });

  test('quote and spoiler fences still count; text after a closed code fence counts', () => {
    expect(alerts('```quote\none\n```')).toEqual([1]);
    expect(alerts('```spoiler Title\ntwo\n```')).toEqual([2]);
    expect(alerts('```\nx\n```\nthree')).toEqual([3]);
  });

  test('the text searched: line endings and tabs normalized, lower case', () => {
    expect(alertWordText('A\r\nB\tC')).toBe('a\nb    c');
  });
});

test("messages holding a recipient's alert word carry has_alert_word for them, in storage and in the event", async () => {
  const user = await makeUser(ts);
  await subscribe(ts, ts.owner, 'alerts', [user]);
  assertSuccess(await add(user, ['deploy']));
  const capture = captureEvents(ts);
  const hit = await sendToChannel(ts, alice, channelId, 'ops', 'Time to DEPLOY.');
  const miss = await sendToChannel(ts, alice, channelId, 'ops', 'redeployment later');
  const direct = await sendDirect(ts, alice, [user], 'deploy now?');
  capture.stop();
  expect(await messageFlags(ts, user, hit)).toEqual(['has_alert_word']);
  expect(await messageFlags(ts, user, miss)).toEqual([]);
  expect(await messageFlags(ts, user, direct)).toEqual(['has_alert_word']);
  expect(await messageFlags(ts, bob, hit)).toEqual([]);
  const flags = capture
    .for(user.id)
    .filter((e) => e.type === 'message')
    .map((e) => e.flags);
  expect(flags).toEqual([['has_alert_word'], [], ['has_alert_word']]);
  const fetched = assertSuccess(await client(ts, user).get('/messages', { anchor: hit, num_before: 0, num_after: 0 }));
  expect(fetched.messages[0].flags).toEqual(['has_alert_word']);
});

test("as in Zulip, the sender's own alert words flag their own copy", async () => {
  const user = await makeUser(ts);
  await subscribe(ts, ts.owner, 'alerts', [user]);
  assertSuccess(await add(user, ['ALERT']));
  expect(await messageFlags(ts, user, await sendToChannel(ts, user, channelId, 'self', 'this is an ALERT for you'))).toEqual(['read', 'has_alert_word']);
});

test('a word added or removed is seen by the very next message, also through a remembered send', async () => {
  const user = await makeUser(ts);
  await subscribe(ts, ts.owner, 'alerts', [user]);
  await sendToChannel(ts, alice, channelId, 'warm', 'first');
  expect(await messageFlags(ts, user, await sendToChannel(ts, alice, channelId, 'warm', 'banana split'))).toEqual([]);
  assertSuccess(await add(user, ['banana']));
  expect(await messageFlags(ts, user, await sendToChannel(ts, alice, channelId, 'warm', 'banana split'))).toEqual(['has_alert_word']);
  assertSuccess(await remove(user, ['BANANA']));
  expect(await messageFlags(ts, user, await sendToChannel(ts, alice, channelId, 'warm', 'banana split'))).toEqual([]);
  // Written behind the actions: the write itself drops the cached words.
  await ts.server.deps.knex('alert_words').insert({ realm_id: ts.server.deps.realmId, user_id: user.id, word: 'Split', word_key: 'split' });
  expect(await messageFlags(ts, user, await sendToChannel(ts, alice, channelId, 'warm', 'banana split'))).toEqual(['has_alert_word']);
});

test('editing the content recomputes has_alert_word (Zulip test_update_alert_words)', async () => {
  const user = await makeUser(ts);
  await subscribe(ts, ts.owner, 'alerts', [user]);
  assertSuccess(await add(user, ['ALERT']));
  const id = await sendToChannel(ts, alice, channelId, 'edits', 'this is an ALERT for you');
  expect(await messageFlags(ts, user, id)).toEqual(['has_alert_word']);
  assertSuccess(await client(ts, alice).patch(`/messages/${id}`, { content: 'new ALERT for you' }));
  expect(await messageFlags(ts, user, id)).toEqual(['has_alert_word']);
  const capture = captureEvents(ts);
  assertSuccess(await client(ts, alice).patch(`/messages/${id}`, { content: 'sorry false alarm' }));
  capture.stop();
  expect(await messageFlags(ts, user, id)).toEqual([]);
  expect(capture.for(user.id).find((e) => e.type === 'update_message')?.flags).toEqual([]);
  assertSuccess(await client(ts, alice).patch(`/messages/${id}`, { content: 'alert again' }));
  expect(await messageFlags(ts, user, id)).toEqual(['has_alert_word']);
});
