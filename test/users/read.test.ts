import crypto from 'node:crypto';
import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser, SERVER_HOOK_TIMEOUT } from '../helpers/server';

let ts: TestServer;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
let guest: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  moderator = await makeUser(ts, 300);
  member = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const gravatar = (email: string) =>
  `https://secure.gravatar.com/avatar/${crypto.createHash('md5').update(email.toLowerCase()).digest('hex')}?d=identicon&version=1`;
const setVisibility = (userId: number, value: number) => ts.server.deps.knex('users').where({ id: userId }).update({ email_address_visibility: value });

describe('GET /users/me', () => {
  test('returns every field of the own-user resource', async () => {
    const body = assertSuccess(await client(ts, member).get('/users/me'));
    expect(Object.keys(body).sort()).toEqual(
      [
        'result',
        'msg',
        'user_id',
        'email',
        'delivery_email',
        'full_name',
        'avatar_url',
        'avatar_version',
        'is_admin',
        'is_owner',
        'is_guest',
        'is_bot',
        'is_active',
        'role',
        'timezone',
        'date_joined',
        'max_message_id',
        'is_imported_stub',
        'profile_data',
      ].sort(),
    );
    expect(body).toMatchObject({
      user_id: member.id,
      email: member.email,
      delivery_email: member.email,
      full_name: member.fullName,
      avatar_url: gravatar(member.email),
      avatar_version: 1,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      is_bot: false,
      is_active: true,
      role: 400,
      timezone: '',
      max_message_id: -1,
      profile_data: {},
    });
    expect(body.date_joined).toMatch(ISO_8601);
    expect(Math.abs(Date.parse(body.date_joined) - Date.now())).toBeLessThan(10 * 60 * 1000);
  });

  test('shows the real address to its owner even when it is hidden from everyone else', async () => {
    const hidden = await makeUser(ts);
    await setVisibility(hidden.id, 4);
    const body = assertSuccess(await client(ts, hidden).get('/users/me'));
    expect(body.email).toBe(hidden.email);
    expect(body.delivery_email).toBe(hidden.email);
  });

  test.each([
    [100, true, true, false],
    [200, true, false, false],
    [300, false, false, false],
    [400, false, false, false],
    [600, false, false, true],
  ] as const)('role %i gives is_admin %s, is_owner %s, is_guest %s', async (role, isAdmin, isOwner, isGuest) => {
    const who = await makeUser(ts, role);
    const body = assertSuccess(await client(ts, who).get('/users/me'));
    expect({ role: body.role, is_admin: body.is_admin, is_owner: body.is_owner, is_guest: body.is_guest }).toEqual({
      role,
      is_admin: isAdmin,
      is_owner: isOwner,
      is_guest: isGuest,
    });
  });
});

describe('GET /users/{user_id}', () => {
  test('returns the user resource; client_gravatar defaults to true', async () => {
    const body = assertSuccess(await client(ts, member).get(`/users/${admin.id}`));
    expect(Object.keys(body.user).sort()).toEqual(
      [
        'user_id',
        'email',
        'delivery_email',
        'full_name',
        'date_joined',
        'is_active',
        'is_owner',
        'is_admin',
        'is_guest',
        'is_bot',
        'bot_type',
        'bot_owner_id',
        'role',
        'timezone',
        'avatar_url',
        'avatar_version',
        'is_imported_stub',
      ].sort(),
    );
    expect(body.user).toMatchObject({
      user_id: admin.id,
      email: admin.email,
      delivery_email: admin.email,
      full_name: admin.fullName,
      is_active: true,
      is_owner: false,
      is_admin: true,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
      role: 200,
      avatar_url: null,
      avatar_version: 1,
    });
    expect(body.user.date_joined).toMatch(ISO_8601);
  });

  test('client_gravatar=false gives the avatar URL', async () => {
    const body = assertSuccess(await client(ts, member).get(`/users/${admin.id}`, { client_gravatar: false }));
    expect(body.user.avatar_url).toBe(gravatar(admin.email));
  });

  test('include_custom_profile_fields adds profile_data', async () => {
    const body = assertSuccess(await client(ts, member).get(`/users/${admin.id}`, { include_custom_profile_fields: true }));
    expect(body.user.profile_data).toEqual({});
  });

  test('the owner has is_owner and is_admin', async () => {
    const body = assertSuccess(await client(ts, guest).get(`/users/${ts.owner.id}`));
    expect(body.user).toMatchObject({ role: 100, is_owner: true, is_admin: true, is_guest: false });
  });

  test('deactivated users can still be read', async () => {
    const gone = await makeUser(ts);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    const body = assertSuccess(await client(ts, member).get(`/users/${gone.id}`));
    expect(body.user.is_active).toBe(false);
  });

  test('an unknown id is "No such user", however large', async () => {
    for (const id of ['999999', '3000000000', '99999999999999999999']) {
      assertError(await client(ts, member).get(`/users/${id}`), 'BAD_REQUEST', 'No such user');
    }
  });

  test('a bad boolean parameter is refused', async () => {
    assertError(await client(ts, member).get(`/users/${admin.id}`, { client_gravatar: 1 }), 'BAD_REQUEST', 'client_gravatar is not a boolean');
  });
});

describe('GET /users/{email}', () => {
  test('finds a user by address, case-insensitively', async () => {
    const body = assertSuccess(await client(ts, member).get(`/users/${encodeURIComponent(admin.email.toUpperCase())}`));
    expect(body.user.user_id).toBe(admin.id);
    expect(body.user.email).toBe(admin.email);
  });

  test('an unknown address is "No such user"', async () => {
    assertError(await client(ts, member).get('/users/nobody@example.com'), 'BAD_REQUEST', 'No such user');
  });

  test('a hidden address cannot be used to find the user; the placeholder can', async () => {
    const hidden = await makeUser(ts);
    await setVisibility(hidden.id, 3);
    assertError(await client(ts, member).get(`/users/${hidden.email}`), 'BAD_REQUEST', 'No such user');
    const placeholder = assertSuccess(await client(ts, member).get(`/users/${hidden.id}`)).user.email;
    const body = assertSuccess(await client(ts, member).get(`/users/${placeholder}`));
    expect(body.user).toMatchObject({ user_id: hidden.id, email: placeholder, delivery_email: null });
    // Administrators may see this address, so they can look it up.
    expect(assertSuccess(await client(ts, admin).get(`/users/${hidden.email}`)).user.user_id).toBe(hidden.id);
  });
});

describe('GET /users', () => {
  test('lists every account, active or not, with the same fields as GET /users/{id}', async () => {
    const gone = await makeUser(ts);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    const body = assertSuccess(await client(ts, member).get('/users'));
    const ids = body.members.map((u: { user_id: number }) => u.user_id);
    for (const id of [ts.owner.id, admin.id, moderator.id, member.id, guest.id, gone.id]) expect(ids).toContain(id);
    const count = await ts.server.deps.knex('users').where('realm_id', ts.server.deps.realmId).count('id as n').first();
    expect(body.members).toHaveLength(Number(count!.n));
    expect(body.members.find((u: { user_id: number }) => u.user_id === gone.id).is_active).toBe(false);
    const single = assertSuccess(await client(ts, member).get(`/users/${admin.id}`)).user;
    expect(body.members.find((u: { user_id: number }) => u.user_id === admin.id)).toEqual(single);
  });

  test('client_gravatar=false gives every avatar URL; include_custom_profile_fields adds profile_data', async () => {
    const body = assertSuccess(await client(ts, member).get('/users', { client_gravatar: false, include_custom_profile_fields: true }));
    const rows: { id: number; delivery_email: string }[] = await ts.server.deps.knex('users').select('id', 'delivery_email');
    const realEmail = new Map(rows.map((r) => [r.id, r.delivery_email]));
    for (const user of body.members) {
      expect(user.avatar_url).toBe(gravatar(realEmail.get(user.user_id)!));
      expect(user.profile_data).toEqual({});
    }
  });
});

describe('email_address_visibility', () => {
  // Which viewers see the real address, for each setting of the target.
  const table: [number, string, Record<string, boolean>][] = [
    [1, 'everyone', { owner: true, admin: true, moderator: true, member: true, guest: true }],
    [2, 'members', { owner: true, admin: true, moderator: true, member: true, guest: false }],
    [3, 'admins', { owner: true, admin: true, moderator: false, member: false, guest: false }],
    [4, 'nobody', { owner: false, admin: false, moderator: false, member: false, guest: false }],
    [5, 'moderators', { owner: true, admin: true, moderator: true, member: false, guest: false }],
  ];

  test.each(table)('visibility %i (%s)', async (visibility, _label, expected) => {
    const target = await makeUser(ts);
    await setVisibility(target.id, visibility);
    const viewers = { owner: ts.owner, admin, moderator, member, guest };
    for (const [label, viewer] of Object.entries(viewers)) {
      const user = assertSuccess(await client(ts, viewer).get(`/users/${target.id}`)).user;
      const listed = assertSuccess(await client(ts, viewer).get('/users')).members.find((u: { user_id: number }) => u.user_id === target.id);
      const sees = expected[label];
      for (const shown of [user, listed]) {
        expect({ viewer: label, email: shown.email, delivery_email: shown.delivery_email, avatar_url: shown.avatar_url }).toEqual({
          viewer: label,
          email: sees ? target.email : expect.stringMatching(new RegExp(`^user${target.id}@[a-z0-9.-]+$`)),
          delivery_email: sees ? target.email : null,
          // With client_gravatar the client computes the URL itself, which it can only do from an
          // address it can see.
          avatar_url: sees ? null : gravatar(target.email),
        });
      }
    }
    // The user themself always sees their own address.
    const own = assertSuccess(await client(ts, target).get(`/users/${target.id}`)).user;
    expect(own.delivery_email).toBe(target.email);
    expect(own.email).toBe(target.email);
  });
});
