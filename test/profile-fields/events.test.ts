import { assertSuccess, client } from '../helpers/api';
import { verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { CHOICES, createField, fields } from './fixtures';

// Fields and every user's values are organization-wide: administrators, members and guests follow them.
let ts: TestServer;
let admin: TestUser;
let member: TestUser;
let guest: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  member = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

/** Runs the action watched by an administrator, a member and a guest; all of them hear the same. */
const watch = (action: () => Promise<unknown>) => verifySharedAction(ts, [admin, member, guest], action);

const TYPES: [string, Record<string, unknown>][] = [
  ['short text', { name: 'Phone', field_type: 1, hint: 'Work number', display_in_profile_summary: true }],
  ['long text', { name: 'Biography', field_type: 2 }],
  ['list of options', { name: 'Editor', field_type: 3, field_data: CHOICES }],
  ['date', { name: 'Birthday', field_type: 4, required: true }],
  ['link', { name: 'Website', field_type: 5 }],
  ['users', { name: 'Mentor', field_type: 6 }],
  ['external account', { field_type: 7, field_data: { subtype: 'github' } }],
  ['custom external account', { name: 'Mastodon', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://mastodon.example/@%(username)s' } }],
  ['pronouns', { name: 'Pronouns', field_type: 8, editable_by_user: false }],
];

describe('fields', () => {
  test.each(TYPES)('creating a %s field', async (_label, params) => {
    const events = await watch(() => client(ts, admin).post('/realm/profile_fields', params));
    expect(events).toEqual([{ type: 'custom_profile_fields', fields: expect.any(Array) }]);
  });

  test('updating a field’s label, hint, options and flags', async () => {
    const id = await createField(ts, admin, { field_type: 3, field_data: CHOICES });
    await watch(() => client(ts, admin).patch(`/realm/profile_fields/${id}`, { name: 'Preferred editor', hint: 'Be honest' }));
    await watch(() => client(ts, admin).patch(`/realm/profile_fields/${id}`, { field_data: { ...CHOICES, '2': { text: 'Nano', order: '3' } } }));
    await watch(() => client(ts, admin).patch(`/realm/profile_fields/${id}`, { required: true, editable_by_user: false }));
  });

  test('reordering the fields', async () => {
    const order = (await fields(ts, admin)).map((f) => f.id).reverse();
    await watch(() => client(ts, admin).patch('/realm/profile_fields', { order }));
  });

  test('deleting a field that users have filled in drops their values', async () => {
    const id = await createField(ts, admin, { field_type: 1 });
    assertSuccess(await client(ts, member).patch('/users/me/profile_data', { data: [{ id, value: 'soon gone' }] }));
    await watch(() => client(ts, admin).delete(`/realm/profile_fields/${id}`));
  });
});

describe('values', () => {
  let f: Record<string, number>;
  beforeAll(async () => {
    f = {
      phone: await createField(ts, admin, { field_type: 1 }),
      bio: await createField(ts, admin, { field_type: 2 }),
      editor: await createField(ts, admin, { field_type: 3, field_data: CHOICES }),
      birthday: await createField(ts, admin, { field_type: 4 }),
      website: await createField(ts, admin, { field_type: 5 }),
      mentor: await createField(ts, admin, { field_type: 6 }),
      github: await createField(ts, admin, { field_type: 7, field_data: { subtype: 'twitter' } }),
      pronouns: await createField(ts, admin, { field_type: 8 }),
      badge: await createField(ts, admin, { field_type: 1, editable_by_user: false }),
    };
  });

  test('a user filling in one field of each type', async () => {
    const values: [string, unknown][] = [
      ['phone', '+1 555 0100'],
      ['bio', 'I like **bold** things'],
      ['editor', '1'],
      ['birthday', '1990-04-01'],
      ['website', 'https://example.com/me'],
      ['mentor', [admin.id]],
      ['github', 'octocat'],
      ['pronouns', 'they/them'],
    ];
    for (const [key, value] of values) {
      const events = await watch(() => client(ts, member).patch('/users/me/profile_data', { data: [{ id: f[key], value }] }));
      expect(events).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: member.id, custom_profile_field: expect.objectContaining({ id: f[key] }) } },
      ]);
    }
  });

  test('a user changing several values at once, then clearing one', async () => {
    await watch(() =>
      client(ts, guest).patch('/users/me/profile_data', {
        data: [
          { id: f.phone, value: '12' },
          { id: f.pronouns, value: 'she/her' },
        ],
      }),
    );
    await watch(() => client(ts, guest).patch('/users/me/profile_data', { data: [{ id: f.phone, value: '' }] }));
  });

  test('a user removing values', async () => {
    assertSuccess(await client(ts, member).patch('/users/me/profile_data', { data: [{ id: f.website, value: 'https://example.org' }] }));
    await watch(() => client(ts, member).delete('/users/me/profile_data', { data: [f.website, f.bio] }));
  });

  test('an administrator editing another user’s values, including one users cannot edit', async () => {
    await watch(() =>
      client(ts, admin).patch(`/users/${member.id}`, {
        profile_data: [
          { id: f.badge, value: 'gold' },
          { id: f.mentor, value: [guest.id, admin.id] },
        ],
      }),
    );
    await watch(() =>
      client(ts, admin).patch(`/users/${member.id}`, {
        profile_data: [
          { id: f.badge, value: null },
          { id: f.phone, value: '' },
        ],
      }),
    );
  });
});
