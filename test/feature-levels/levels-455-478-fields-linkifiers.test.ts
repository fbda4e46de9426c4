import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { registerQueue, verifyAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Zulip's API changelog, feature levels 455, 471, 476 and 478 (custom profile fields and
// linkifiers), each checked through the API.
let ts: TestServer;
let admin: TestUser;
let member: TestUser;
const TEMPLATES = { linkifier_url_template: true };

beforeAll(async () => {
  ts = await startTestServer();
  admin = ts.owner;
  member = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

let counter = 0;
const post = (params: Record<string, unknown>) => client(ts, admin).post('/realm/profile_fields', { name: `Level field ${++counter}`, ...params });
const patchField = (id: number, params: Record<string, unknown>) => client(ts, admin).patch(`/realm/profile_fields/${id}`, params);
const fieldsNow = async () => assertSuccess(await client(ts, member).get('/realm/profile_fields')).custom_fields as Record<string, unknown>[];
const fieldNow = async (id: number) => (await fieldsNow()).find((f) => f.id === id)!;

const linkifiersNow = async () => assertSuccess(await client(ts, member).get('/realm/linkifiers')).linkifiers as Record<string, unknown>[];
const linkifierNow = async (id: number) => (await linkifiersNow()).find((l) => l.id === id)!;
const addLinkifier = (params: Record<string, unknown>) => client(ts, admin).post('/realm/filters', params);
const patchLinkifier = (id: number, params: Record<string, unknown>) => client(ts, admin).patch(`/realm/filters/${id}`, params);

/** Adds a linkifier while a member's queue watches (register + events must equal a fresh register). */
async function addWatched(params: Record<string, unknown>): Promise<{ id: number; events: Record<string, any>[] }> {
  let id = 0;
  const events = await verifyAction(
    ts,
    member,
    async () => {
      id = assertSuccess(await addLinkifier(params)).id;
    },
    { capabilities: TEMPLATES },
  );
  return { id, events };
}

/** A refused linkifier: Zulip's message, and the form errors by field. */
async function refused(response: Promise<unknown>, errors: Record<string, string[]>): Promise<void> {
  const body = assertError((await response) as never, 'BAD_REQUEST', Object.values(errors)[0][0]);
  expect(body.errors).toEqual(errors);
}

test('455: use_for_user_matching on short text and external account fields, shown to everyone, changed with an event', async () => {
  let id = 0;
  const events = await verifyAction(ts, member, async () => {
    id = assertSuccess(await post({ field_type: 1, use_for_user_matching: true })).id;
  });
  expect(events).toHaveLength(1);
  expect(events[0].fields.find((f: { id: number }) => f.id === id)).toMatchObject({ id, type: 1, use_for_user_matching: true });
  expect(await fieldNow(id)).toMatchObject({ use_for_user_matching: true });

  const github = assertSuccess(await post({ field_type: 7, field_data: JSON.stringify({ subtype: 'github' }), use_for_user_matching: true })).id;
  expect(await fieldNow(github)).toMatchObject({ name: 'GitHub username', use_for_user_matching: true });
  // Every field carries the flag; it defaults to false.
  const date = assertSuccess(await post({ field_type: 4 })).id;
  expect(await fieldNow(date)).toMatchObject({ use_for_user_matching: false });

  // Only short text and external accounts; bad input changes nothing.
  const before = await fieldsNow();
  for (const type of [2, 3, 4, 5, 6, 8]) {
    const extra = type === 3 ? { field_data: JSON.stringify({ '0': { text: 'A', order: '1' } }) } : {};
    assertError(await post({ field_type: type, use_for_user_matching: true, ...extra }), 'BAD_REQUEST', 'Field type not supported for user matching.');
  }
  assertError(await patchField(date, { use_for_user_matching: true }), 'BAD_REQUEST', 'Field type not supported for user matching.');
  assertError(await patchField(id, { use_for_user_matching: 'sometimes' }), 'INVALID_JSON', 'Argument "use_for_user_matching" is not valid JSON.');
  assertError(
    await client(ts, member).patch(`/realm/profile_fields/${id}`, { use_for_user_matching: false }),
    'UNAUTHORIZED_PRINCIPAL',
    'Must be an organization administrator',
  );
  expect(await fieldsNow()).toEqual(before);

  // Turning it off, and the default external account's other properties stay locked.
  const off = await verifyAction(ts, member, () => patchField(id, { use_for_user_matching: false }));
  expect(off[0].fields.find((f: { id: number }) => f.id === id).use_for_user_matching).toBe(false);
  assertSuccess(await patchField(github, { use_for_user_matching: false }));
  expect(await fieldNow(github)).toMatchObject({ use_for_user_matching: false });

  // GraphQL alike.
  const created = await graphql(
    ts,
    admin,
    'mutation($input: CustomProfileFieldInput) { createCustomProfileField(fieldType: 1, input: $input) { id useForUserMatching } }',
    { input: { name: 'Level handle', useForUserMatching: true } },
  );
  expect(created.data!.createCustomProfileField.useForUserMatching).toBe(true);
  const gqlId = Number(created.data!.createCustomProfileField.id);
  expect(await fieldNow(gqlId)).toMatchObject({ use_for_user_matching: true });
  const refusedUpdate = await graphql(ts, admin, 'mutation($id: Int!) { updateCustomProfileField(id: $id, input: { useForUserMatching: true }) { id } }', {
    id: date,
  });
  expect(refusedUpdate.errors?.[0].message).toBe('Field type not supported for user matching.');
  const listed = await graphql(ts, member, '{ customProfileFields { id useForUserMatching } }');
  expect(listed.data!.customProfileFields).toContainEqual({ id: String(gqlId), useForUserMatching: true });
});

test('476: paragraph fields may be shown in the profile summary, still at most two fields', async () => {
  // The limit is organization-wide: start from no field in the summary.
  await ts.server.deps.knex('custom_profile_fields').update({ display_in_profile_summary: false });
  let bio = 0;
  const events = await verifyAction(ts, member, async () => {
    bio = assertSuccess(await post({ field_type: 2, display_in_profile_summary: true })).id;
  });
  expect(events[0].fields.find((f: { id: number }) => f.id === bio)).toMatchObject({ type: 2, display_in_profile_summary: true });

  const notes = assertSuccess(await post({ field_type: 2 })).id;
  assertSuccess(await patchField(notes, { display_in_profile_summary: true }));
  expect(await fieldNow(notes)).toMatchObject({ display_in_profile_summary: true });

  const before = await fieldsNow();
  assertError(
    await post({ field_type: 2, display_in_profile_summary: true }),
    'BAD_REQUEST',
    'Only 2 custom profile fields can be displayed in the profile summary.',
  );
  const third = assertSuccess(await post({ field_type: 2 })).id;
  assertError(
    await patchField(third, { display_in_profile_summary: true }),
    'BAD_REQUEST',
    'Only 2 custom profile fields can be displayed in the profile summary.',
  );
  expect((await fieldsNow()).filter((f) => f.id !== third)).toEqual(before);
  // Person pickers still cannot be.
  assertSuccess(await patchField(notes, { display_in_profile_summary: false }));
  assertError(await post({ field_type: 6, display_in_profile_summary: true }), 'BAD_REQUEST', 'Field type not supported for display in profile summary.');

  const updated = await graphql(
    ts,
    admin,
    'mutation($id: Int!) { updateCustomProfileField(id: $id, input: { displayInProfileSummary: true }) { displayInProfileSummary } }',
    {
      id: third,
    },
  );
  expect(updated.data!.updateCustomProfileField.displayInProfileSummary).toBe(true);
  await ts.server.deps.knex('custom_profile_fields').update({ display_in_profile_summary: false });
});

test('471: example_input and reverse_template, checked against the pattern, in GET, register and events', async () => {
  const { id, events } = await addWatched({
    pattern: '#(?P<id>[0-9]+)',
    url_template: 'https://github.com/zulip/zulip/issues/{id}',
    example_input: ' #1234 ',
    reverse_template: '#{id}',
  });
  const expected = {
    pattern: '#(?P<id>[0-9]+)',
    url_template: 'https://github.com/zulip/zulip/issues/{id}',
    id,
    example_input: '#1234',
    reverse_template: '#{id}',
    alternative_url_templates: [],
  };
  expect(events[0].realm_linkifiers.find((l: { id: number }) => l.id === id)).toEqual(expected);
  expect(await linkifierNow(id)).toEqual(expected);
  const { state } = await registerQueue(ts, member, { fetchEventTypes: ['realm_linkifiers'], capabilities: TEMPLATES });
  expect(state.realm_linkifiers.find((l: { id: number }) => l.id === id)).toEqual(expected);

  // An example without a reverse template is fine; the pattern need only find it.
  const plain = assertSuccess(await addLinkifier({ pattern: 'ZUL-(?P<n>[0-9]+)', url_template: 'https://z.example.com/{n}', example_input: 'see ZUL-7' })).id;
  expect(await linkifierNow(plain)).toMatchObject({ example_input: 'see ZUL-7', reverse_template: null });
  // Doubled braces are literal braces.
  const braces = assertSuccess(
    await addLinkifier({ pattern: '\\{(?P<k>[a-z]+)\\}', url_template: 'https://k.example.com/{k}', example_input: '{abc}', reverse_template: '{{{k}}}' }),
  ).id;
  expect(await linkifierNow(braces)).toMatchObject({ reverse_template: '{{{k}}}' });

  // Refusals, each changing nothing.
  const before = await linkifiersNow();
  const base = { pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example.com/{id}' };
  assertError(await addLinkifier({ ...base, reverse_template: 'T-{id}' }), 'BAD_REQUEST', 'Example text is required when auto-conversion field is set.');
  assertError(
    await addLinkifier({ ...base, example_input: '  ', reverse_template: 'T-{id}' }),
    'BAD_REQUEST',
    'Example text is required when auto-conversion field is set.',
  );
  await refused(addLinkifier({ ...base, example_input: 'T-abc' }), { __all__: ['Example input does not match the linkifier pattern.'] });
  await refused(addLinkifier({ ...base, example_input: 'T-12', reverse_template: 'T{id}' }), {
    __all__: ['Example text does not match auto-conversion field.'],
  });
  await refused(addLinkifier({ ...base, example_input: 'T-12', reverse_template: 'T-{id' }), {
    __all__: ["Invalid auto-conversion field: missing '}' character."],
  });
  await refused(addLinkifier({ ...base, example_input: 'T-12', reverse_template: 'T-{}' }), { __all__: ['Invalid auto-conversion field: empty field name.'] });
  await refused(addLinkifier({ ...base, example_input: 'T-12', reverse_template: 'T-{num}' }), {
    __all__: ["Group 'num' in auto-conversion field is not present in linkifier pattern."],
  });
  // The template checks come after the example's.
  await refused(addLinkifier({ pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example.com/', example_input: 'T-1' }), {
    __all__: ["Group 'id' in linkifier pattern is not present in URL template."],
  });
  await refused(patchLinkifier(id, { pattern: '!(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' }), {
    __all__: ['Example input does not match the linkifier pattern.'],
  });
  assertError(
    await client(ts, member).post('/realm/filters', { ...base, example_input: 'T-1' }),
    'UNAUTHORIZED_PRINCIPAL',
    'Must be an organization administrator',
  );
  expect(await linkifiersNow()).toEqual(before);

  // PATCH: left out stays, an empty string clears (a reverse template cannot outlive its example).
  const keep = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };
  await verifyAction(ts, member, () => patchLinkifier(id, { ...keep, url_template: 'https://github.com/zulip/zulip/pull/{id}' }), { capabilities: TEMPLATES });
  expect(await linkifierNow(id)).toMatchObject({ url_template: 'https://github.com/zulip/zulip/pull/{id}', example_input: '#1234', reverse_template: '#{id}' });
  assertError(await patchLinkifier(id, { ...keep, example_input: '' }), 'BAD_REQUEST', 'Example text is required when auto-conversion field is set.');
  assertSuccess(await patchLinkifier(id, { ...keep, reverse_template: '' }));
  expect(await linkifierNow(id)).toMatchObject({ example_input: '#1234', reverse_template: null });
  assertSuccess(await patchLinkifier(id, { ...keep, example_input: '', reverse_template: '' }));
  expect(await linkifierNow(id)).toMatchObject({ example_input: null, reverse_template: null });

  // GraphQL alike.
  const added = await graphql(
    ts,
    admin,
    'mutation { addLinkifier(pattern: "GQL-(?P<id>[0-9]+)", urlTemplate: "https://g.example.com/{id}", exampleInput: "GQL-5", reverseTemplate: "GQL-{id}") }',
  );
  const gqlId = added.data!.addLinkifier as number;
  expect(await linkifierNow(gqlId)).toMatchObject({ example_input: 'GQL-5', reverse_template: 'GQL-{id}' });
  const updated = await graphql(
    ts,
    admin,
    'mutation($id: Int!) { updateLinkifier(id: $id, pattern: "GQL-(?P<id>[0-9]+)", urlTemplate: "https://g.example.com/{id}", reverseTemplate: "") { linkifier { exampleInput reverseTemplate } } }',
    { id: gqlId },
  );
  expect(updated.data!.updateLinkifier.linkifier).toEqual({ exampleInput: 'GQL-5', reverseTemplate: null });
  const wrong = await graphql(
    ts,
    admin,
    'mutation { addLinkifier(pattern: "W-(?P<id>[0-9]+)", urlTemplate: "https://w.example.com/{id}", exampleInput: "nope") }',
  );
  expect(wrong.errors?.[0].message).toBe('Example input does not match the linkifier pattern.');
});

test('478: alternative_url_templates, used only for reverse linkification, in GET, register and events', async () => {
  const { id, events } = await addWatched({
    pattern: 'GH-(?P<id>[0-9]+)',
    url_template: 'https://github.com/zulip/zulip/issues/{id}',
    example_input: 'GH-1',
    reverse_template: 'GH-{id}',
    alternative_url_templates: JSON.stringify(['https://github.com/zulip/zulip/pull/{id}', ' ', ' https://github.com/zulip/zulip/discussions/{id} ']),
  });
  const alternatives = ['https://github.com/zulip/zulip/pull/{id}', 'https://github.com/zulip/zulip/discussions/{id}'];
  expect(events[0].realm_linkifiers.find((l: { id: number }) => l.id === id).alternative_url_templates).toEqual(alternatives);
  expect(await linkifierNow(id)).toMatchObject({ alternative_url_templates: alternatives });
  // They have no effect on forward linkification.
  assertSuccess(await client(ts, member).post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'level 478' }]) }));
  const sent = assertSuccess(await client(ts, member).post('/messages', { type: 'stream', to: 'level 478', topic: 'level 478', content: 'GH-42' }));
  const message = await ts.server.deps.knex('messages').where('id', sent.id).first('rendered_content');
  expect(message.rendered_content).toBe('<p><a href="https://github.com/zulip/zulip/issues/42">GH-42</a></p>');

  const before = await linkifiersNow();
  const base = { pattern: 'AL-(?P<id>[0-9]+)', url_template: 'https://a.example.com/{id}' };
  await refused(addLinkifier({ ...base, alternative_url_templates: JSON.stringify(['https://a.example.com/{id']) }), {
    alternative_url_templates: ['Invalid URL template.'],
  });
  await refused(addLinkifier({ ...base, alternative_url_templates: JSON.stringify(['https://a.example.com/{num}']) }), {
    alternative_url_templates: ["Group 'num' in URL template is not present in linkifier pattern."],
  });
  assertError(
    await addLinkifier({ ...base, alternative_url_templates: '"https://a.example.com/{id}"' }),
    'BAD_REQUEST',
    'alternative_url_templates is not a list',
  );
  assertError(await addLinkifier({ ...base, alternative_url_templates: '[1]' }), 'BAD_REQUEST', 'alternative_url_templates[0] is not a string');
  assertError(await addLinkifier({ ...base, alternative_url_templates: '[' }), 'INVALID_JSON', 'Argument "alternative_url_templates" is not valid JSON.');
  expect(await linkifiersNow()).toEqual(before);

  // PATCH: left out stays, an empty list clears.
  const keep = { pattern: 'GH-(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };
  assertSuccess(await patchLinkifier(id, keep));
  expect(await linkifierNow(id)).toMatchObject({ alternative_url_templates: alternatives, reverse_template: 'GH-{id}' });
  await verifyAction(ts, member, () => patchLinkifier(id, { ...keep, alternative_url_templates: '[]' }), { capabilities: TEMPLATES });
  expect(await linkifierNow(id)).toMatchObject({ alternative_url_templates: [] });

  const updated = await graphql(
    ts,
    admin,
    'mutation($id: Int!, $alt: [String!]) { updateLinkifier(id: $id, pattern: "GH-(?P<id>[0-9]+)", urlTemplate: "https://github.com/zulip/zulip/issues/{id}", alternativeUrlTemplates: $alt) { linkifier { alternativeUrlTemplates } } }',
    { id, alt: ['https://gh.example.com/{id}'] },
  );
  expect(updated.data!.updateLinkifier.linkifier.alternativeUrlTemplates).toEqual(['https://gh.example.com/{id}']);
  const listed = await graphql(ts, member, '{ linkifiers { id exampleInput reverseTemplate alternativeUrlTemplates } }');
  expect(listed.data!.linkifiers).toContainEqual({
    id: String(id),
    exampleInput: 'GH-1',
    reverseTemplate: 'GH-{id}',
    alternativeUrlTemplates: ['https://gh.example.com/{id}'],
  });
});
