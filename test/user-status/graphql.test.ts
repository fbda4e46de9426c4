import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { verifyAction, verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// User status, muted users and alert words through GraphQL: the same actions, events and errors.
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const STATUS = 'userId away statusText emojiName emojiCode reactionType';

test('setting and reading a status', async () => {
  const set = `mutation($s: UserStatusInput!) { updateUserStatus(status: $s) { ${STATUS} } }`;
  const events = await verifySharedAction(ts, [alice, bob], async () => {
    const res = await graphql(ts, alice, set, { s: { statusText: ' Busy ', emojiName: 'car' } });
    expect(res.errors).toBeUndefined();
    expect(res.data!.updateUserStatus).toEqual({
      userId: alice.id,
      away: null,
      statusText: 'Busy',
      emojiName: 'car',
      emojiCode: '1f697',
      reactionType: 'unicode_emoji',
    });
  });
  expect(events[0]).toMatchObject({ type: 'user_status', user_id: alice.id, status_text: 'Busy' });
  const read = await graphql(ts, bob, `query($id: Int!) { userStatus(userId: $id) { ${STATUS} } }`, { id: alice.id });
  expect(read.data!.userStatus.statusText).toBe('Busy');
  expect(graphqlError(await graphql(ts, alice, set, { s: {} }))).toEqual({ code: 'BAD_REQUEST', message: 'Client did not pass any new values.' });
  expect(graphqlError(await graphql(ts, alice, set, { s: { statusText: 'x'.repeat(61) } }))).toEqual({
    code: 'BAD_REQUEST',
    message: 'status_text is too long (limit: 60 characters)',
  });
  expect(graphqlError(await graphql(ts, bob, `{ userStatus(userId: 999999) { userId } }`))).toEqual({ code: 'BAD_REQUEST', message: 'No such user' });
});

test('muting and unmuting', async () => {
  const mute = `mutation($id: Int!) { muteUser(userId: $id) { id timestamp } }`;
  await verifyAction(ts, alice, async () => {
    const res = await graphql(ts, alice, mute, { id: bob.id });
    expect(res.data!.muteUser).toEqual([{ id: String(bob.id), timestamp: expect.any(Number) }]);
  });
  expect(graphqlError(await graphql(ts, alice, mute, { id: bob.id }))).toEqual({ code: 'BAD_REQUEST', message: 'User already muted' });
  expect(graphqlError(await graphql(ts, alice, mute, { id: alice.id }))).toEqual({ code: 'BAD_REQUEST', message: 'Cannot mute self' });
  expect((await graphql(ts, alice, '{ mutedUsers { id } }')).data!.mutedUsers).toEqual([{ id: String(bob.id) }]);
  const unmuted = await graphql(ts, alice, `mutation($id: Int!) { unmuteUser(userId: $id) { id } }`, { id: bob.id });
  expect(unmuted.data!.unmuteUser).toEqual([]);
});

test('alert words', async () => {
  const added = await graphql(ts, bob, `mutation { addAlertWords(alertWords: [" Rocket ", "rocket", "moon"]) }`);
  expect(added.data!.addAlertWords).toEqual(['rocket', 'moon']);
  expect(graphqlError(await graphql(ts, bob, `mutation($w: [String!]!) { addAlertWords(alertWords: $w) }`, { w: ['x'.repeat(101)] }))).toEqual({
    code: 'BAD_REQUEST',
    message: 'alert_words[0] is too long (limit: 100 characters)',
  });
  expect((await graphql(ts, bob, `mutation { removeAlertWords(alertWords: ["MOON"]) }`)).data!.removeAlertWords).toEqual(['rocket']);
  expect((await graphql(ts, bob, '{ alertWords }')).data!.alertWords).toEqual(['rocket']);
  expect(assertSuccess(await client(ts, bob).get('/users/me/alert_words')).alert_words).toEqual(['rocket']);
});
