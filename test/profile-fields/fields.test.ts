import { assertError, assertSuccess, client } from '../helpers/api';
import { captureEvents } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { CHOICES, createField, field, fields } from './fixtures';

// Each suite starts a server and hashes several passwords; a loaded machine needs the headroom.
jest.setTimeout(120_000);

let ts: TestServer;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
let guest: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  moderator = await makeUser(ts, 300);
  member = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
});
afterAll(async () => {
  await ts.close();
});
// The summary limit is organization-wide: each test starts from no field in the summary.
afterEach(async () => {
  await ts.server.deps.knex('custom_profile_fields').update({ display_in_profile_summary: false });
});

const post = (params: Record<string, unknown>, who: TestUser = admin) => client(ts, who).post('/realm/profile_fields', params);

describe('POST /realm/profile_fields', () => {
  test('creates a field with defaults; every user reads it', async () => {
    const events = captureEvents(ts);
    const id = assertSuccess(await post({ name: ' Phone number ', hint: 'Contact number', field_type: 1 })).id;
    events.stop();
    const created = await field(ts, guest, id);
    expect(created).toEqual({
      id,
      name: 'Phone number',
      type: 1,
      hint: 'Contact number',
      field_data: '',
      order: id,
      required: false,
      editable_by_user: true,
      use_for_user_matching: false,
    });
    const [delivery] = events.of('custom_profile_fields');
    expect(delivery.event).toEqual({ type: 'custom_profile_fields', fields: await fields(ts, admin) });
    const active: number[] = await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id');
    expect([...delivery.userIds].sort((a, b) => a - b)).toEqual(active.sort((a, b) => a - b));
  });

  test.each([1, 2, 4, 5, 6, 8])('field type %i needs no field_data', async (type) => {
    const id = await createField(ts, admin, { field_type: type, required: true, editable_by_user: false });
    expect(await field(ts, member, id)).toMatchObject({ type, field_data: '', required: true, editable_by_user: false });
  });

  test('list of options', async () => {
    const id = await createField(ts, admin, { field_type: 3, field_data: CHOICES });
    expect(JSON.parse((await field(ts, member, id)).field_data)).toEqual(CHOICES);
    const bad = (data: unknown) => post({ name: 'Editor', field_type: 3, field_data: data });
    assertError(await post({ name: 'Editor', field_type: 3, field_data: 'invalid' }), 'INVALID_JSON', 'Argument "field_data" is not valid JSON.');
    assertError(await bad({ python: ['1'] }), 'BAD_REQUEST', 'field_data contains a value that is not an allowed_type');
    assertError(await bad({ '0': { text: 'Python' } }), 'BAD_REQUEST', 'order key is missing from field_data');
    assertError(await bad({ '0': { text: 'Python', order: '' } }), 'BAD_REQUEST', 'field_data["order"] cannot be blank.');
    assertError(await bad({ '': { text: 'Python', order: '1' } }), 'BAD_REQUEST', "'value' cannot be blank.");
    assertError(await bad({ '0': { text: 'Python', order: 1 } }), 'BAD_REQUEST', 'field_data contains a value that is not an allowed_type');
    assertError(await bad({ '0': { text: 'Python', order: '1', color: 'red' } }), 'BAD_REQUEST', 'Unexpected arguments: color');
    assertError(await bad({}), 'BAD_REQUEST', 'Field must have at least one choice.');
    assertError(await post({ name: 'Editor', field_type: 3 }), 'BAD_REQUEST', 'Field must have at least one choice.');
    assertError(await bad({ '0': { text: 'Same', order: '1' }, '1': { text: 'Same', order: '2' } }), 'BAD_REQUEST', 'Field must not have duplicate choices.');
    assertError(await bad({ '0': 'Vim', '1': { text: 'Emacs', order: '2' } }), 'BAD_REQUEST', 'field_data is not a dict');
    assertError(await bad([1]), 'BAD_REQUEST', 'field_data is not a dict');
  });

  test('external accounts', async () => {
    const ext = (data: unknown, extra: Record<string, unknown> = {}) => post({ name: 'Account', field_type: 7, field_data: data, ...extra });
    assertError(await ext({}), 'BAD_REQUEST', 'subtype key is missing from field_data');
    assertError(await ext({ subtype: '' }), 'BAD_REQUEST', 'field_data["subtype"] cannot be blank.');
    assertError(await ext({ subtype: 'linkedin' }), 'BAD_REQUEST', 'Invalid external account type');
    assertError(await ext({ subtype: 'custom' }), 'BAD_REQUEST', 'Custom external account must define URL pattern');
    assertError(await ext({ subtype: 'custom', url_pattern: 123 }), 'BAD_REQUEST', 'field_data contains a value that is not an allowed_type');
    assertError(await ext({ subtype: 'custom', url_pattern: 'invalid' }), 'BAD_REQUEST', "URL pattern must contain '%(username)s'.");
    assertError(
      await ext({ subtype: 'custom', url_pattern: 'https://www.reddit.com/%(username)s/user/%(username)s' }),
      'BAD_REQUEST',
      "URL pattern must contain '%(username)s'.",
    );
    assertError(await ext({ subtype: 'custom', url_pattern: 'reddit.com/%(username)s' }), 'BAD_REQUEST', 'field_data["url_pattern"] is not a URL');
    const custom = assertSuccess(await ext({ subtype: 'custom', url_pattern: 'https://www.reddit.com/user/%(username)s' }, { name: 'Reddit' })).id;
    expect(JSON.parse((await field(ts, member, custom)).field_data)).toEqual({ subtype: 'custom', url_pattern: 'https://www.reddit.com/user/%(username)s' });
    // Known sites take their own label and hint, whatever was sent.
    const github = assertSuccess(await ext({ subtype: 'github' }, { name: 'ignored', hint: 'ignored too' })).id;
    expect(await field(ts, member, github)).toMatchObject({ name: 'GitHub username', hint: '', type: 7, field_data: '{"subtype":"github"}' });
    assertError(await ext({ subtype: 'github' }), 'BAD_REQUEST', 'A field with that label already exists.');
    const twitter = assertSuccess(await post({ field_type: 7, field_data: { subtype: 'twitter' } })).id;
    expect((await field(ts, member, twitter)).name).toBe('Twitter username');
  });

  test('labels, hints and types', async () => {
    assertError(await post({ name: 'Phone', field_type: 'text id' }), 'INVALID_JSON', 'Argument "field_type" is not valid JSON.');
    assertError(await post({ name: 'Phone' }), 'REQUEST_VARIABLE_MISSING', "Missing 'field_type' argument");
    assertError(await post({ name: '', field_type: 100 }), 'BAD_REQUEST', 'Label cannot be blank.');
    assertError(await post({ name: '   ', field_type: 1 }), 'BAD_REQUEST', 'Label cannot be blank.');
    assertError(await post({ field_type: 1 }), 'BAD_REQUEST', 'Label cannot be blank.');
    assertError(await post({ name: '*'.repeat(41), field_type: 100 }), 'BAD_REQUEST', 'name is too long (limit: 40 characters)');
    assertError(await post({ name: 'Phone', field_type: 100 }), 'BAD_REQUEST', 'Invalid field type.');
    assertError(await post({ name: 'Phone', field_type: 0 }), 'BAD_REQUEST', 'Invalid field type.');
    assertError(await post({ name: 'Phone', hint: '*'.repeat(81), field_type: 1 }), 'BAD_REQUEST', 'hint is too long (limit: 80 characters)');
    assertSuccess(await post({ name: 'Unique label', field_type: 1 }));
    assertError(await post({ name: 'Unique label', field_type: 2 }), 'BAD_REQUEST', 'A field with that label already exists.');
    assertError(await post({ name: 'Unique label ', field_type: 2 }), 'BAD_REQUEST', 'A field with that label already exists.');
    assertSuccess(await post({ name: 'unique label', field_type: 2 }));
  });

  test('at most two fields in the profile summary, never person pickers', async () => {
    assertError(
      await post({ name: 'Mentor', field_type: 6, display_in_profile_summary: true }),
      'BAD_REQUEST',
      'Field type not supported for display in profile summary.',
    );
    const first = assertSuccess(await post({ name: 'Summary one', field_type: 1, display_in_profile_summary: true })).id;
    assertSuccess(await post({ name: 'Summary two', field_type: 4, display_in_profile_summary: true }));
    assertError(
      await post({ name: 'Summary three', field_type: 1, display_in_profile_summary: true }),
      'BAD_REQUEST',
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
    expect((await field(ts, member, first)).display_in_profile_summary).toBe(true);
    // Fields out of the summary do not carry the key at all.
    const plain = assertSuccess(await post({ name: 'Not in summary', field_type: 1 })).id;
    expect('display_in_profile_summary' in (await field(ts, member, plain))).toBe(false);
  });

  test.each([
    ['moderator', () => moderator],
    ['member', () => member],
    ['guest', () => guest],
  ])('a %s may not manage fields', async (_role, who) => {
    const id = await createField(ts, admin, { field_type: 1 });
    const denied = ['UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'] as const;
    assertError(await client(ts, who()).post('/realm/profile_fields', {}), ...denied);
    assertError(await client(ts, who()).patch(`/realm/profile_fields/${id}`, { name: 'x' }), ...denied);
    assertError(await client(ts, who()).delete(`/realm/profile_fields/${id}`), ...denied);
    assertError(await client(ts, who()).patch('/realm/profile_fields', { order: [id] }), ...denied);
    assertSuccess(await client(ts, who()).get('/realm/profile_fields'));
  });

  test('the owner manages fields too', async () => {
    assertSuccess(await post({ name: 'By the owner', field_type: 1 }, ts.owner));
  });
});

describe('PATCH /realm/profile_fields/{id}', () => {
  test('changes only what is sent', async () => {
    const id = await createField(ts, admin, { name: 'Phone', hint: 'old', field_type: 1 });
    const events = captureEvents(ts);
    assertSuccess(
      await client(ts, admin).patch(`/realm/profile_fields/${id}`, { name: 'New phone ', hint: 'New hint', required: true, display_in_profile_summary: true }),
    );
    assertSuccess(await client(ts, admin).patch(`/realm/profile_fields/${id}`, { hint: '' }));
    assertSuccess(await client(ts, admin).patch(`/realm/profile_fields/${id}`, { editable_by_user: false }));
    events.stop();
    expect(await field(ts, member, id)).toMatchObject({
      name: 'New phone',
      hint: '',
      required: true,
      display_in_profile_summary: true,
      editable_by_user: false,
    });
    expect(events.of('custom_profile_fields')).toHaveLength(3);
    expect(events.events('custom_profile_fields').at(-1)).toEqual({ type: 'custom_profile_fields', fields: await fields(ts, admin) });
  });

  test('errors', async () => {
    const id = await createField(ts, admin, { name: 'Editable', field_type: 1 });
    await createField(ts, admin, { name: 'Other label', field_type: 1 });
    const patch = (params: Record<string, unknown>, fieldId = id) => client(ts, admin).patch(`/realm/profile_fields/${fieldId}`, params);
    assertError(await patch({ name: 'x' }, 100000), 'BAD_REQUEST', 'Field id 100000 not found.');
    assertError(await patch({ name: '' }), 'BAD_REQUEST', 'Label cannot be blank.');
    assertError(await patch({ name: '*'.repeat(41) }), 'BAD_REQUEST', 'name is too long (limit: 40 characters)');
    assertError(await patch({ hint: '*'.repeat(81) }), 'BAD_REQUEST', 'hint is too long (limit: 80 characters)');
    assertError(await patch({ required: 'invalid value' }), 'INVALID_JSON', 'Argument "required" is not valid JSON.');
    assertError(await patch({ name: 'Other label' }), 'BAD_REQUEST', 'A field with that label already exists.');
    const mentor = await createField(ts, admin, { field_type: 6 });
    assertError(await patch({ display_in_profile_summary: true }, mentor), 'BAD_REQUEST', 'Field type not supported for display in profile summary.');
    await createField(ts, admin, { field_type: 1, display_in_profile_summary: true });
    await createField(ts, admin, { field_type: 1, display_in_profile_summary: true });
    assertError(await patch({ display_in_profile_summary: true }), 'BAD_REQUEST', 'Only 2 custom profile fields can be displayed in the profile summary.');
  });

  test('choices: validated, and users of a removed choice lose their value', async () => {
    const id = await createField(ts, admin, { name: 'Favorite editor', field_type: 3, field_data: CHOICES });
    assertSuccess(await client(ts, member).patch('/users/me/profile_data', { data: [{ id, value: '0' }] }));
    assertSuccess(await client(ts, admin).patch('/users/me/profile_data', { data: [{ id, value: '1' }] }));
    assertError(await client(ts, admin).patch(`/realm/profile_fields/${id}`, { field_data: {} }), 'BAD_REQUEST', 'Field must have at least one choice.');
    assertError(
      await client(ts, admin).patch(`/realm/profile_fields/${id}`, { field_data: 'invalid' }),
      'INVALID_JSON',
      'Argument "field_data" is not valid JSON.',
    );
    assertSuccess(await client(ts, admin).patch(`/realm/profile_fields/${id}`, { field_data: { '1': { text: 'Emacs', order: '1' } } }));
    const values = await ts.server.deps.knex('custom_profile_field_values').where({ field_id: id }).pluck('value');
    expect(values).toEqual(['1']);
  });

  test('known-site external accounts can only change their summary display', async () => {
    await ts.server.deps.knex('custom_profile_fields').where({ name: 'Twitter username' }).delete();
    const id = assertSuccess(await post({ field_type: 7, field_data: { subtype: 'twitter' } })).id;
    const current = await field(ts, admin, id);
    const patch = (params: Record<string, unknown>) => client(ts, admin).patch(`/realm/profile_fields/${id}`, params);
    assertError(await patch({ name: 'Twitter' }), 'BAD_REQUEST', 'Default custom field cannot be updated.');
    assertError(await patch({ field_data: { subtype: 'github' } }), 'BAD_REQUEST', 'Default custom field cannot be updated.');
    assertError(await patch({ hint: 'new hint' }), 'BAD_REQUEST', 'Default custom field cannot be updated.');
    assertSuccess(await patch({ name: current.name, hint: current.hint, field_data: { subtype: 'twitter' }, display_in_profile_summary: true }));
    expect((await field(ts, admin, id)).display_in_profile_summary).toBe(true);
  });
});

describe('DELETE /realm/profile_fields/{id}', () => {
  test('deletes the field and its values', async () => {
    const id = await createField(ts, admin, { field_type: 1 });
    assertSuccess(await client(ts, member).patch('/users/me/profile_data', { data: [{ id, value: 'mine' }] }));
    const events = captureEvents(ts);
    assertSuccess(await client(ts, admin).delete(`/realm/profile_fields/${id}`));
    events.stop();
    expect((await fields(ts, member)).some((f) => f.id === id)).toBe(false);
    expect(await ts.server.deps.knex('custom_profile_field_values').where({ field_id: id }).first()).toBeUndefined();
    expect(events.events('custom_profile_fields')).toEqual([{ type: 'custom_profile_fields', fields: await fields(ts, admin) }]);
    assertError(await client(ts, admin).delete(`/realm/profile_fields/${id}`), 'BAD_REQUEST', `Field id ${id} not found.`);
  });
});

describe('PATCH /realm/profile_fields (reorder)', () => {
  test('orders every field; unknown ids are ignored but every field must appear', async () => {
    await createField(ts, admin, { field_type: 1 });
    const ids = (await fields(ts, admin)).map((f) => f.id);
    const reversed = [...ids].reverse();
    const events = captureEvents(ts);
    assertSuccess(await client(ts, admin).patch('/realm/profile_fields', { order: [...reversed, 999999] }));
    events.stop();
    const after = await fields(ts, member);
    expect(after.map((f) => f.id)).toEqual(reversed);
    for (const f of after) expect(f.order).toBe(reversed.indexOf(f.id));
    expect(events.events('custom_profile_fields')).toEqual([{ type: 'custom_profile_fields', fields: after }]);
    assertError(await client(ts, admin).patch('/realm/profile_fields', { order: [100, 200, 300] }), 'BAD_REQUEST', 'Invalid order mapping.');
    assertError(await client(ts, admin).patch('/realm/profile_fields', { order: ids.slice(1) }), 'BAD_REQUEST', 'Invalid order mapping.');
    assertError(await client(ts, admin).patch('/realm/profile_fields', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'order' argument");
  });
});
