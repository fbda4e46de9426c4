import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';

/**
 * updateUser's profileData: an administrator sets another user's custom profile fields, as
 * PATCH /users/{id} does with profile_data (the web app's user editor uses it); others are refused.
 */
let ts: TestServer;
let member: TestUser;
let text: number;
let people: number;

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400, { fullName: 'Pat Profile' });
  const owner = client(ts, ts.owner);
  text = assertSuccess(await owner.post('/realm/profile_fields', { name: 'Team', field_type: 1 })).id;
  people = assertSuccess(await owner.post('/realm/profile_fields', { name: 'Mentor', field_type: 6 })).id;
}, SERVER_HOOK_TIMEOUT);
afterAll(() => ts.close(), SERVER_HOOK_TIMEOUT);

const update = (who: TestUser, id: number, profileData: unknown) =>
  graphql(ts, who, 'mutation ($id: Int!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { userId fullName } }', {
    id,
    input: { profileData },
  });

const profileOf = async (id: number) =>
  assertSuccess(await client(ts, ts.owner).get(`/users/${id}`, { include_custom_profile_fields: true })).user.profile_data ?? {};

test("an administrator sets and clears a user's profile fields, as PATCH /users/{id} does", async () => {
  const res = await update(ts.owner, member.id, [
    { fieldId: text, value: 'Design' },
    { fieldId: people, userIds: [ts.owner.id] },
  ]);
  expect(res.data!.updateUser).toEqual({ userId: member.id, fullName: 'Pat Profile' });
  const profile = await profileOf(member.id);
  expect(profile[text]).toMatchObject({ value: 'Design' });
  expect(JSON.parse(profile[people].value)).toEqual([ts.owner.id]);

  // An empty value clears the field.
  await update(ts.owner, member.id, [{ fieldId: text, value: '' }]);
  expect((await profileOf(member.id))[text]).toBeUndefined();
});

test('others are refused with the REST error, and nothing changes', async () => {
  const other = await makeUser(ts, 400);
  const res = await update(other, member.id, [{ fieldId: text, value: 'Taken' }]);
  expect(graphqlError(res)).toEqual({ message: 'Insufficient permission', code: 'BAD_REQUEST' });
  expect((await profileOf(member.id))[text]).toBeUndefined();
  // An unknown field is refused as REST refuses it.
  const unknown = await update(ts.owner, member.id, [{ fieldId: 999_999, value: 'x' }]);
  expect(graphqlError(unknown)?.code).toBe('BAD_REQUEST');
});
