import { assertError, assertSuccess, client } from '../helpers/api';
import { freshOwnUser } from '../helpers/own-user';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { countStatements } from '../helpers/statements';
import { sendDirect, sendToChannel, subscribe } from '../messages/helpers';
import { createField } from '../profile-fields/fixtures';

/**
 * GET /users/me answers from memory (the account from the authentication cache, max_message_id and
 * profile_data from per-process caches): after every kind of change it must equal what the
 * database says at that moment.
 */
jest.setTimeout(120_000);

let ts: TestServer;
let owner: TestUser;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
});
afterAll(async () => {
  await ts.close();
});

async function expectExact(who: TestUser, on: TestServer = ts): Promise<Record<string, any>> {
  const served = assertSuccess(await client(on, who).get('/users/me'));
  expect(served).toEqual(await freshOwnUser(on, who.id));
  return served;
}

test('a repeated GET /users/me sends no statement to the database', async () => {
  const member = await makeUser(ts);
  await expectExact(member);
  expect(await countStatements(ts, async () => assertSuccess(await client(ts, member).get('/users/me')))).toBe(0);
});

test('max_message_id follows messages received, deleted, moved away, and rows added by reactions and flags', async () => {
  const town = await subscribe(ts, owner, 'own-values town', [owner, alice, bob]);
  await expectExact(bob);
  await sendToChannel(ts, alice, town, 'hello', 'first');
  const served = await expectExact(bob);
  expect(served.max_message_id).toBeGreaterThan(0);
  const direct = await sendDirect(ts, alice, [bob], 'a direct message');
  expect((await expectExact(bob)).max_message_id).toBe(direct);

  // Deleting the latest message steps back to the one before.
  assertSuccess(await client(ts, alice).delete(`/messages/${direct}`));
  expect((await expectExact(bob)).max_message_id).toBeLessThan(direct);

  // Moving the latest message into a private channel bob is not in takes his row away.
  const latest = await sendToChannel(ts, alice, town, 'hello', 'to be moved');
  expect((await expectExact(bob)).max_message_id).toBe(latest);
  const hidden = await subscribe(ts, owner, 'own-values hidden', [owner, alice], { invite_only: true });
  assertSuccess(await client(ts, alice).patch(`/messages/${latest}`, { stream_id: hidden, propagate_mode: 'change_one' }));
  expect((await expectExact(bob)).max_message_id).toBeLessThan(latest);

  // A message in a public channel bob is not subscribed to: reacting or starring gives him a row.
  const elsewhere = await subscribe(ts, owner, 'own-values elsewhere', [owner, alice]);
  const unseen = await sendToChannel(ts, alice, elsewhere, 'news', 'not for bob');
  expect((await expectExact(bob)).max_message_id).toBeLessThan(unseen);
  assertSuccess(await client(ts, bob).post(`/messages/${unseen}/reactions`, { emoji_name: 'smile' }));
  expect((await expectExact(bob)).max_message_id).toBe(unseen);
  const unseenToo = await sendToChannel(ts, alice, elsewhere, 'news', 'not for bob either');
  assertSuccess(await client(ts, bob).post('/messages/flags', { messages: [unseenToo], op: 'add', flag: 'starred' }));
  expect((await expectExact(bob)).max_message_id).toBe(unseenToo);
});

test('profile_data follows values set and cleared, and fields deleted', async () => {
  const phone = await createField(ts, admin, { name: 'Own values phone', field_type: 1 });
  const pronouns = await createField(ts, admin, { name: 'Own values pronouns', field_type: 8 });
  await expectExact(alice);
  assertSuccess(
    await client(ts, alice).patch('/users/me/profile_data', {
      data: [
        { id: phone, value: '+1 555' },
        { id: pronouns, value: 'she/her' },
      ],
    }),
  );
  expect(Object.keys((await expectExact(alice)).profile_data)).toEqual([String(phone), String(pronouns)]);
  assertSuccess(await client(ts, admin).patch(`/users/${alice.id}`, { profile_data: [{ id: phone, value: '+1 556' }] }));
  await expectExact(alice);
  assertSuccess(await client(ts, alice).delete('/users/me/profile_data', { data: [pronouns] }));
  await expectExact(alice);
  assertSuccess(await client(ts, admin).delete(`/realm/profile_fields/${phone}`));
  expect((await expectExact(alice)).profile_data).toEqual({});
});

test('the account fields follow name, email visibility, role, time zone, deactivation and reactivation', async () => {
  const member = await makeUser(ts);
  await expectExact(member);
  assertSuccess(await client(ts, member).patch('/settings', { full_name: 'Renamed Member' }));
  expect((await expectExact(member)).full_name).toBe('Renamed Member');
  assertSuccess(await client(ts, owner).patch(`/users/${member.id}`, { full_name: 'Renamed By Owner' }));
  await expectExact(member);
  assertSuccess(await client(ts, member).patch('/settings', { email_address_visibility: 5 }));
  await expectExact(member);
  assertSuccess(await client(ts, member).patch('/settings', { timezone: 'Europe/Paris' }));
  expect((await expectExact(member)).timezone).toBe('Europe/Paris');
  assertSuccess(await client(ts, owner).patch(`/users/${member.id}`, { role: 300 }));
  expect((await expectExact(member)).role).toBe(300);
  assertSuccess(await client(ts, owner).patch(`/users/${member.id}`, { role: 200 }));
  expect((await expectExact(member)).is_admin).toBe(true);

  assertSuccess(await client(ts, owner).delete(`/users/${member.id}`));
  assertError(await client(ts, member).get('/users/me'), 'UNAUTHORIZED', 'Account is deactivated', 401);
  assertSuccess(await client(ts, owner).post(`/users/${member.id}/reactivate`));
  await expectExact(member);
});
