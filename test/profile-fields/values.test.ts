import { customProfileFieldsSlice } from '../../src/core/profile-fields/state';
import { renderDescription } from '../../src/core/markdown';
import { usersSlice } from '../../src/core/users/state';
import { User } from '../../src/core/users/model';
import { stateSlices } from '../../src/core/register/slices';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents, registerOptions } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { CHOICES, createField, fields } from './fixtures';

// Each suite starts a server and hashes several passwords; a loaded machine needs the headroom.
jest.setTimeout(120_000);

let ts: TestServer;
let admin: TestUser;
let member: TestUser;
let other: TestUser;
let guest: TestUser;
let f: Record<string, number>;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  member = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  other = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  f = {
    phone: await createField(ts, admin, { name: 'Phone number', field_type: 1 }),
    bio: await createField(ts, admin, { name: 'Biography', field_type: 2 }),
    editor: await createField(ts, admin, { name: 'Favorite editor', field_type: 3, field_data: CHOICES }),
    birthday: await createField(ts, admin, { name: 'Birthday', field_type: 4 }),
    website: await createField(ts, admin, { name: 'Favorite website', field_type: 5 }),
    mentor: await createField(ts, admin, { name: 'Mentor', field_type: 6 }),
    github: await createField(ts, admin, { field_type: 7, field_data: { subtype: 'github' } }),
    pronouns: await createField(ts, admin, { name: 'Pronouns', field_type: 8 }),
    badge: await createField(ts, admin, { name: 'Badge', field_type: 1, editable_by_user: false }),
  };
});
afterAll(async () => {
  await ts.close();
});

const setOwn = (who: TestUser, data: unknown) => client(ts, who).patch('/users/me/profile_data', { data });
const profileOf = async (who: TestUser) => assertSuccess(await client(ts, who).get('/users/me')).profile_data;

describe('PATCH /users/me/profile_data', () => {
  test('every type, with rendered values for the text types', async () => {
    const events = captureEvents(ts);
    assertSuccess(
      await setOwn(member, [
        { id: f.phone, value: '*short* text data' },
        { id: f.bio, value: '~~short~~ **long** text <data>' },
        { id: f.editor, value: '0' },
        { id: f.birthday, value: '1909-03-05' },
        { id: f.website, value: 'https://zulip.com' },
        { id: f.mentor, value: [other.id] },
        { id: f.github, value: 'zulip-mobile' },
        { id: f.pronouns, value: 'he/him' },
      ]),
    );
    events.stop();
    expect(await profileOf(member)).toEqual({
      [f.phone]: { value: '*short* text data', rendered_value: renderDescription('*short* text data') },
      [f.bio]: { value: '~~short~~ **long** text <data>', rendered_value: renderDescription('~~short~~ **long** text <data>') },
      [f.editor]: { value: '0' },
      [f.birthday]: { value: '1909-03-05' },
      [f.website]: { value: 'https://zulip.com' },
      [f.mentor]: { value: `[${other.id}]` },
      [f.github]: { value: 'zulip-mobile' },
      [f.pronouns]: { value: 'he/him' },
    });
    const updates = events.of('realm_user', 'update');
    expect(updates).toHaveLength(8);
    expect(updates[0].event).toEqual({
      type: 'realm_user',
      op: 'update',
      person: { user_id: member.id, custom_profile_field: { id: f.phone, value: '*short* text data', rendered_value: renderDescription('*short* text data') } },
    });
    expect(updates[5].event).toEqual({
      type: 'realm_user',
      op: 'update',
      person: { user_id: member.id, custom_profile_field: { id: f.mentor, value: `[${other.id}]` } },
    });
    const active: number[] = await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id');
    expect([...updates[0].userIds].sort((a, b) => a - b)).toEqual(active.sort((a, b) => a - b));
  });

  test('an unchanged value is not announced again', async () => {
    assertSuccess(await setOwn(other, [{ id: f.pronouns, value: 'they/them' }]));
    const events = captureEvents(ts);
    assertSuccess(await setOwn(other, [{ id: f.pronouns, value: 'they/them' }]));
    events.stop();
    expect(events.deliveries).toHaveLength(0);
  });

  test('values are validated per type, with the field’s label in the message', async () => {
    const gone = await makeUser(ts, 400);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    const bad = async (id: number, value: unknown, msg: string) => assertError(await setOwn(member, [{ id, value }]), 'BAD_REQUEST', msg);
    await bad(f.phone, 't'.repeat(51), 'Phone number is too long (limit: 50 characters)');
    await bad(f.pronouns, 't'.repeat(51), 'Pronouns is too long (limit: 50 characters)');
    await bad(f.bio, 't'.repeat(501), 'Biography is too long (limit: 500 characters)');
    await bad(f.phone, [1], 'Phone number is not a string');
    await bad(f.birthday, 'a-b-c', 'Birthday is not a date');
    await bad(f.birthday, '1909-3-5', 'Birthday is not a date');
    await bad(f.birthday, '2023-02-30', 'Birthday is not a date');
    await bad(f.birthday, [123], 'Birthday is not a string');
    await bad(f.website, 'not URL', 'Favorite website is not a URL');
    await bad(f.website, 'zulip.com', 'Favorite website is not a URL');
    await bad(f.editor, 'foobar', "'foobar' is not a valid choice for 'Favorite editor'.");
    await bad(f.mentor, [1000, 1001], 'Invalid user IDs: 1000, 1001');
    await bad(f.mentor, [gone.id], `User with ID ${gone.id} is deactivated`);
    await bad(f.mentor, 'someone', 'User IDs is not a list');
    await bad(1234, '12', 'Field id 1234 not found.');
    assertError(await setOwn(member, { id: f.phone, value: 'x' }), 'BAD_REQUEST', 'data is not a list');
    assertError(await setOwn(member, [{ id: f.phone }]), 'BAD_REQUEST', 'value key is missing from data[0]');
    assertError(await setOwn(member, [{ id: f.phone, value: null }]), 'BAD_REQUEST', 'data[0]["value"] is not a string or an integer list');
    assertError(await client(ts, member).patch('/users/me/profile_data', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'data' argument");
  });

  test('one bad entry stores nothing', async () => {
    const before = await profileOf(guest);
    assertError(
      await setOwn(guest, [
        { id: f.pronouns, value: 'she/her' },
        { id: f.birthday, value: 'soon' },
      ]),
      'BAD_REQUEST',
      'Birthday is not a date',
    );
    expect(await profileOf(guest)).toEqual(before);
  });

  test('fields closed to users are for administrators only', async () => {
    const msg = 'You are not allowed to change this field. Contact an administrator to update it.';
    assertError(await setOwn(member, [{ id: f.badge, value: 'gold' }]), 'BAD_REQUEST', msg);
    assertError(await setOwn(guest, [{ id: f.badge, value: 'gold' }]), 'BAD_REQUEST', msg);
    assertSuccess(await setOwn(admin, [{ id: f.badge, value: 'gold' }]));
    assertSuccess(await setOwn(ts.owner, [{ id: f.badge, value: 'platinum' }]));
    assertError(await client(ts, member).delete('/users/me/profile_data', { data: [f.badge] }), 'BAD_REQUEST', msg);
  });

  test('guests edit their own open fields', async () => {
    assertSuccess(await setOwn(guest, [{ id: f.phone, value: '555' }]));
    expect((await profileOf(guest))[f.phone].value).toBe('555');
  });
});

describe('DELETE /users/me/profile_data', () => {
  test('clears values, announcing value null; clearing twice is fine', async () => {
    assertSuccess(await setOwn(member, [{ id: f.pronouns, value: 'xe/xem' }]));
    const events = captureEvents(ts);
    assertSuccess(await client(ts, member).delete('/users/me/profile_data', { data: [f.pronouns] }));
    assertSuccess(await client(ts, member).delete('/users/me/profile_data', { data: [f.pronouns] }));
    events.stop();
    expect(f.pronouns in (await profileOf(member))).toBe(false);
    expect(events.events('realm_user')).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: member.id, custom_profile_field: { id: f.pronouns, value: null } } },
    ]);
    assertError(await client(ts, member).delete('/users/me/profile_data', { data: [1234] }), 'BAD_REQUEST', 'Field id 1234 not found.');
  });
});

describe('PATCH /users/{id} with profile_data', () => {
  test('administrators set and clear anyone’s values, closed fields included', async () => {
    assertSuccess(
      await client(ts, admin).patch(`/users/${other.id}`, {
        profile_data: [
          { id: f.badge, value: 'bronze' },
          { id: f.phone, value: '123' },
        ],
      }),
    );
    expect(await profileOf(other)).toMatchObject({ [f.badge]: { value: 'bronze' }, [f.phone]: { value: '123' } });
    const events = captureEvents(ts);
    assertSuccess(
      await client(ts, admin).patch(`/users/${other.id}`, {
        profile_data: [
          { id: f.badge, value: null },
          { id: f.phone, value: '' },
        ],
      }),
    );
    events.stop();
    const data = await profileOf(other);
    expect(f.badge in data || f.phone in data).toBe(false);
    expect(events.events('realm_user').map((e) => (e.person as { custom_profile_field: unknown }).custom_profile_field)).toEqual([
      { id: f.badge, value: null },
      { id: f.phone, value: null },
    ]);
    assertError(
      await client(ts, admin).patch(`/users/${other.id}`, { profile_data: [{ id: f.birthday, value: 'never' }] }),
      'BAD_REQUEST',
      'Birthday is not a date',
    );
  });

  test('members may not; administrators may, even for owners', async () => {
    assertError(
      await client(ts, member).patch(`/users/${other.id}`, { profile_data: [{ id: f.phone, value: '1' }] }),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    // Administrators may edit anyone's profile data, owners' included, as in Zulip.
    assertSuccess(await client(ts, admin).patch(`/users/${ts.owner.id}`, { profile_data: [{ id: f.phone, value: '1' }] }));
  });
});

describe('profile_data on user objects', () => {
  test('GET /users/{id} and GET /users include it only on request', async () => {
    assertSuccess(await setOwn(member, [{ id: f.phone, value: 'listed' }]));
    const single = assertSuccess(await client(ts, other).get(`/users/${member.id}`)).user;
    expect('profile_data' in single).toBe(false);
    const withData = assertSuccess(await client(ts, other).get(`/users/${member.id}`, { include_custom_profile_fields: true })).user;
    expect(withData.profile_data[f.phone]).toEqual({ value: 'listed', rendered_value: renderDescription('listed') });
    const all = assertSuccess(await client(ts, other).get('/users', { include_custom_profile_fields: true })).members;
    expect(all.find((u: { user_id: number }) => u.user_id === member.id).profile_data[f.phone].value).toBe('listed');
    const fresh = await makeUser(ts, 400);
    expect(all.length).toBeGreaterThan(1);
    const again = assertSuccess(await client(ts, other).get('/users', { include_custom_profile_fields: true })).members;
    expect(again.find((u: { user_id: number }) => u.user_id === fresh.id).profile_data).toEqual({});
    const plain = assertSuccess(await client(ts, other).get('/users')).members;
    expect(plain.every((u: Record<string, unknown>) => !('profile_data' in u))).toBe(true);
  });
});

describe('register', () => {
  test('custom_profile_fields and custom_profile_field_types', async () => {
    expect(stateSlices).toContain(customProfileFieldsSlice);
    expect(customProfileFieldsSlice.fetchTypes).toEqual(['custom_profile_fields']);
    const me = (await User.query(ts.server.deps.knex).findById(member.id))!;
    const options = registerOptions({ includeSubscribers: 'false' });
    const state = await customProfileFieldsSlice.fetch(ts.server.deps, me, options);
    expect(state.custom_profile_fields).toEqual(await fields(ts, member));
    expect(state.custom_profile_field_types).toEqual({
      DATE: { id: 4, name: 'Date' },
      EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
      URL: { id: 5, name: 'Link' },
      SELECT: { id: 3, name: 'List of options' },
      PRONOUNS: { id: 8, name: 'Pronouns' },
      LONG_TEXT: { id: 2, name: 'Text (long)' },
      SHORT_TEXT: { id: 1, name: 'Text (short)' },
      USER: { id: 6, name: 'Users' },
    });
    const events = captureEvents(ts);
    const added = await createField(ts, admin, { field_type: 1 });
    assertSuccess(await client(ts, admin).patch(`/realm/profile_fields/${added}`, { hint: 'replayed' }));
    events.stop();
    for (let round = 0; round < 2; round++) for (const d of events.deliveries) customProfileFieldsSlice.apply!(state, d.event, me, options);
    expect(state).toEqual(await customProfileFieldsSlice.fetch(ts.server.deps, me, options));
  });

  test('realm_users carry profile_data, and value events apply to it', async () => {
    const me = (await User.query(ts.server.deps.knex).findById(other.id))!;
    const options = registerOptions({ includeSubscribers: 'false' });
    const state = await usersSlice.fetch(ts.server.deps, me, options);
    const events = captureEvents(ts);
    assertSuccess(
      await setOwn(member, [
        { id: f.bio, value: 'replayed **bio**' },
        { id: f.editor, value: '1' },
      ]),
    );
    assertSuccess(await client(ts, member).delete('/users/me/profile_data', { data: [f.phone] }));
    events.stop();
    for (let round = 0; round < 2; round++) for (const d of events.deliveries) usersSlice.apply!(state, d.event, me, options);
    expect(state).toEqual(await usersSlice.fetch(ts.server.deps, me, options));
    const person = (state.realm_users as { user_id: number; profile_data: Record<string, unknown> }[]).find((u) => u.user_id === member.id)!;
    expect(person.profile_data[f.editor]).toEqual({ value: '1' });
  });
});

describe('GraphQL', () => {
  test('fields and values through the same actions', async () => {
    const created = await graphql(
      ts,
      admin,
      'mutation($data: String) { createCustomProfileField(fieldType: 3, input: { name: "GQL choice", fieldData: $data }) { id name type fieldData displayInProfileSummary } }',
      { data: JSON.stringify(CHOICES) },
    );
    expect(created.errors).toBeUndefined();
    const id = Number(created.data!.createCustomProfileField.id);
    expect(created.data!.createCustomProfileField).toMatchObject({ name: 'GQL choice', type: 3, displayInProfileSummary: false });
    const updated = await graphql(ts, admin, 'mutation($id: Int!) { updateCustomProfileField(id: $id, input: { hint: "pick one" }) { hint } }', { id });
    expect(updated.data!.updateCustomProfileField.hint).toBe('pick one');
    const set = await graphql(
      ts,
      member,
      'mutation($id: Int!, $mentor: Int!, $who: Int!) { updateProfileData(data: [{ fieldId: $id, value: "0" }, { fieldId: $mentor, userIds: [$who] }]) { userId profileData { fieldId value } } }',
      {
        id,
        mentor: f.mentor,
        who: admin.id,
      },
    );
    expect(set.errors).toBeUndefined();
    expect(set.data!.updateProfileData.userId).toBe(member.id);
    expect(set.data!.updateProfileData.profileData).toEqual(
      expect.arrayContaining([
        { fieldId: id, value: '0' },
        { fieldId: f.mentor, value: `[${admin.id}]` },
      ]),
    );
    const read = await graphql(ts, other, 'query($user: Int!) { profileData(userId: $user) { fieldId value renderedValue } }', { user: member.id });
    expect(read.data!.profileData).toEqual(
      expect.arrayContaining([
        { fieldId: id, value: '0', renderedValue: null },
        { fieldId: f.mentor, value: `[${admin.id}]`, renderedValue: null },
      ]),
    );
    const cleared = await graphql(ts, member, 'mutation($id: Int!) { removeProfileData(fieldIds: [$id]) { userId profileData { fieldId value } } }', { id });
    expect(cleared.data!.removeProfileData.userId).toBe(member.id);
    expect(cleared.data!.removeProfileData.profileData).toContainEqual({ fieldId: f.mentor, value: `[${admin.id}]` });
    expect(cleared.data!.removeProfileData.profileData.map((e: { fieldId: number }) => e.fieldId)).not.toContain(id);
    const list = await graphql(ts, guest, '{ customProfileFields { id } }');
    expect(list.data!.customProfileFields.map((x: { id: string }) => x.id)).toContain(String(id));
    const denied = await graphql(ts, member, 'mutation { createCustomProfileField(fieldType: 1, input: { name: "No" }) { id } }');
    expect(graphqlError(denied)).toEqual({ code: 'UNAUTHORIZED_PRINCIPAL', message: 'Must be an organization administrator' });
    const invalid = await graphql(ts, member, 'mutation($id: Int!) { updateProfileData(data: [{ fieldId: $id, value: "9" }]) { userId } }', { id });
    expect(graphqlError(invalid)).toEqual({ code: 'BAD_REQUEST', message: "'9' is not a valid choice for 'GQL choice'." });
    const removed = await graphql(ts, admin, 'mutation($id: Int!) { deleteCustomProfileField(id: $id) { id } }', { id });
    expect(removed.data!.deleteCustomProfileField).toEqual({ id: String(id) });
    const gone = await graphql(ts, admin, 'mutation($id: Int!) { deleteCustomProfileField(id: $id) { id } }', { id });
    expect(graphqlError(gone)).toEqual({ code: 'BAD_REQUEST', message: `Field id ${id} not found.` });
  });
});
