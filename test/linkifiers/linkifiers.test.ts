import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { registerQueue, verifyActionFor, verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

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
});

const TEMPLATES = { linkifier_url_template: true };
/** A linkifier's reverse-linkification fields when none are set. */
const NO_REVERSE = { example_input: null, reverse_template: null, alternative_url_templates: [] };

async function clearLinkifiers(): Promise<void> {
  for (const { id } of assertSuccess(await client(ts, admin).get('/realm/linkifiers')).linkifiers) {
    assertSuccess(await client(ts, admin).delete(`/realm/filters/${id}`));
  }
}

const add = (pattern: string, url_template: string, who: TestUser = admin) => client(ts, who).post('/realm/filters', { pattern, url_template });

describe('POST /realm/filters and GET /realm/linkifiers', () => {
  beforeEach(clearLinkifiers);

  test('creates a linkifier, listed (by everyone) with its id, pattern and URL template', async () => {
    const { id } = assertSuccess(await add('#(?P<id>[123])', 'https://realm.com/my_realm_filter/{id}'));
    expect(typeof id).toBe('number');
    for (const who of [admin, member, guest]) {
      expect(assertSuccess(await client(ts, who).get('/realm/linkifiers')).linkifiers).toEqual([
        { pattern: '#(?P<id>[123])', url_template: 'https://realm.com/my_realm_filter/{id}', id, ...NO_REVERSE },
      ]);
    }
  });

  test('pattern and template are trimmed', async () => {
    const { id } = assertSuccess(await add('  ZUL-(?P<id>\\d+) ', ' https://z.example.com/{id}\n'));
    expect(assertSuccess(await client(ts, admin).get('/realm/linkifiers')).linkifiers).toEqual([
      { pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://z.example.com/{id}', id, ...NO_REVERSE },
    ]);
  });

  test("Zulip's validation messages, with every error by field", async () => {
    const template = 'https://realm.com/my_realm_filter/{id}';
    let body = assertError(await add('', template), 'BAD_REQUEST', 'This field cannot be blank.');
    expect(body.errors).toEqual({ pattern: ['This field cannot be blank.'], __all__: ["Group 'id' in URL template is not present in linkifier pattern."] });
    assertError(await add('(foo', template), 'BAD_REQUEST', 'Bad regular expression: missing ): (foo');
    body = assertError(await add('ZUL-(?P<id>\\d????)', template), 'BAD_REQUEST', 'Bad regular expression: bad repetition operator: ????');
    expect(body.errors).toEqual({ __all__: ['Bad regular expression: bad repetition operator: ????'] });
    assertError(await add('ZUL-(?P<id>\\d+)', '$fgfg'), 'BAD_REQUEST', "Group 'id' in linkifier pattern is not present in URL template.");
    assertError(
      await add('ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/'),
      'BAD_REQUEST',
      "Group 'id' in linkifier pattern is not present in URL template.",
    );
    assertError(
      await add('ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/{hello}'),
      'BAD_REQUEST',
      "Group 'hello' in URL template is not present in linkifier pattern.",
    );
    assertError(
      await add('ZUL-(?P<id>\\d+)-(?P<hello>\\d+)', 'https://realm.com/{hello}'),
      'BAD_REQUEST',
      "Group 'id' in linkifier pattern is not present in URL template.",
    );
    body = assertError(await add('ZUL-(?P<id>\\d+)', 'https://realm.com/{id'), 'BAD_REQUEST', 'Invalid URL template.');
    expect(body.errors).toEqual({ url_template: ['Invalid URL template.'] });
    for (const bad of ['https://example.com/{{}', 'https://example.com/{//foo}', 'https://example.com/{bar++}']) {
      assertError(await add('x', bad), 'BAD_REQUEST', 'Invalid URL template.');
    }
    assertError(await add('(?=a)', 'https://example.com'), 'BAD_REQUEST', 'Bad regular expression: invalid perl operator: (?=');
    assertError(await client(ts, admin).post('/realm/filters', { pattern: 'x' }), 'REQUEST_VARIABLE_MISSING', "Missing 'url_template' argument");
    expect(assertSuccess(await client(ts, admin).get('/realm/linkifiers')).linkifiers).toEqual([]);
  });

  test('templates Zulip accepts are accepted', async () => {
    const cases: [string, string][] = [
      ['ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/#hashtag/{id}'],
      ['PR (?P<id>[0-9]+)', 'https://example.com/~user/web#view_type=type&model=model&action=12345&id={id}'],
      ['!(?P<id>[0-9]+)', 'https://realm.com/index.pl?Action=AgentTicketZoom;TicketNumber={id}'],
      ['ZUL-URL-(?P<id>\\d+)', 'https://example.com/%ba/{id}'],
      ['(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)', 'https://github.com/{org}/{repo}/issue/{id}'],
      ['FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<location>[a-z]+)', 'https://zone_{zone}.net/ticket{/location}{/id}'],
      ['plain', '$not_a_url$'],
    ];
    for (const [pattern, template] of cases) assertSuccess(await add(pattern, template));
  });

  test('a pattern may be used once', async () => {
    assertSuccess(await add('#(?P<id>\\d+)', 'https://a.example.com/{id}'));
    const body = assertError(
      await add('#(?P<id>\\d+)', 'https://b.example.com/{id}'),
      'BAD_REQUEST',
      'Realm filter with this Realm and Pattern already exists.',
    );
    expect(body.errors).toEqual({ __all__: ['Realm filter with this Realm and Pattern already exists.'] });
  });
});

describe('PATCH and DELETE /realm/filters/{id}', () => {
  beforeEach(clearLinkifiers);

  test('updates pattern and template, keeping the place in the order', async () => {
    const first = assertSuccess(await add('#(?P<id>[123])', 'https://realm.com/my_realm_filter/{id}')).id;
    const second = assertSuccess(await add('!(?P<id>\\d+)', 'https://bang.example.com/{id}')).id;
    assertSuccess(
      await client(ts, admin).patch(`/realm/filters/${first}`, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://realm.com/my_realm_filter/issues/{id}' }),
    );
    expect(assertSuccess(await client(ts, admin).get('/realm/linkifiers')).linkifiers).toEqual([
      { pattern: '#(?P<id>[0-9]+)', url_template: 'https://realm.com/my_realm_filter/issues/{id}', id: first, ...NO_REVERSE },
      { pattern: '!(?P<id>\\d+)', url_template: 'https://bang.example.com/{id}', id: second, ...NO_REVERSE },
    ]);
    const patch = (id: number, pattern: string, url_template: string) => client(ts, admin).patch(`/realm/filters/${id}`, { pattern, url_template });
    assertError(await patch(first, 'ZUL-(?P<id>\\d????)', 'https://realm.com/{id}'), 'BAD_REQUEST', 'Bad regular expression: bad repetition operator: ????');
    assertError(await patch(first, 'ZUL-(?P<id>\\d+)', '$fgfg'), 'BAD_REQUEST', "Group 'id' in linkifier pattern is not present in URL template.");
    assertError(await patch(second + 100, '#(?P<id>[123])', 'https://realm.com/{id}'), 'BAD_REQUEST', 'Linkifier not found.');
    assertError(await patch(first, '#(?P<id>[123])', '{id'), 'BAD_REQUEST', 'Invalid URL template.');
    assertError(await patch(first, '!(?P<id>\\d+)', 'https://x.example.com/{id}'), 'BAD_REQUEST', 'Realm filter with this Realm and Pattern already exists.');
    // Keeping its own pattern is no conflict.
    assertSuccess(await patch(second, '!(?P<id>\\d+)', 'https://bang2.example.com/{id}'));
  });

  test('deletes; an unknown id is "Linkifier not found."', async () => {
    const id = assertSuccess(await add('#(?P<id>[123])', 'https://realm.com/my_realm_filter/{id}')).id;
    assertError(await client(ts, admin).delete(`/realm/filters/${id + 1}`), 'BAD_REQUEST', 'Linkifier not found.');
    assertSuccess(await client(ts, admin).delete(`/realm/filters/${id}`));
    expect(assertSuccess(await client(ts, admin).get('/realm/linkifiers')).linkifiers).toEqual([]);
    assertError(await client(ts, admin).delete(`/realm/filters/${id}`), 'BAD_REQUEST', 'Linkifier not found.');
  });
});

describe('PATCH /realm/linkifiers', () => {
  beforeAll(clearLinkifiers);

  test("reorders; new linkifiers go last; Zulip's checks of the list", async () => {
    const reorder = (ids: number[]) => client(ts, admin).patch('/realm/linkifiers', { ordered_linkifier_ids: ids });
    const order = async () => assertSuccess(await client(ts, admin).get('/realm/linkifiers')).linkifiers.map((l: { id: number }) => l.id);
    assertSuccess(await reorder([]));
    const ids: number[] = [];
    for (const n of [1, 2, 3]) ids.push(assertSuccess(await add(`${n}#(?P<id>[123])`, `https://filter.com/${n}/{id}`)).id);
    expect(await order()).toEqual(ids);
    assertSuccess(await reorder([ids[2], ids[1], ids[0]]));
    expect(await order()).toEqual([ids[2], ids[1], ids[0]]);
    const fourth = assertSuccess(await add('3#123', 'https://example.com')).id;
    expect(await order()).toEqual([ids[2], ids[1], ids[0], fourth]);
    assertSuccess(await client(ts, admin).delete(`/realm/filters/${ids[0]}`));
    const current = [ids[2], ids[1], fourth];
    expect(await order()).toEqual(current);
    assertError(await reorder([ids[0], ...current]), 'BAD_REQUEST', 'The ordered list must enumerate all existing linkifiers exactly once');
    assertError(await reorder([...current, current[0]]), 'BAD_REQUEST', 'The ordered list must not contain duplicated linkifiers');
    assertError(await reorder(current.slice(0, 2)), 'BAD_REQUEST', 'The ordered list must enumerate all existing linkifiers exactly once');
    assertError(
      await client(ts, admin).patch('/realm/linkifiers', { ordered_linkifier_ids: '[1, "x"]' }),
      'BAD_REQUEST',
      'ordered_linkifier_ids[1] is not an integer',
    );
    expect(await order()).toEqual(current);
  });
});

describe('permissions', () => {
  test('only administrators change linkifiers, whatever they send', async () => {
    const id = assertSuccess(await add('perm-(?P<id>\\d+)', 'https://perm.example.com/{id}')).id;
    for (const who of [moderator, member, guest]) {
      const denied = (res: Parameters<typeof assertError>[0]) => assertError(res, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      denied(await client(ts, who).post('/realm/filters', {}));
      denied(await add('x(?P<id>\\d+)', 'https://x.example.com/{id}', who));
      denied(await client(ts, who).patch(`/realm/filters/${id}`, { pattern: 'y', url_template: 'https://y.example.com' }));
      denied(await client(ts, who).delete(`/realm/filters/${id}`));
      denied(await client(ts, who).patch('/realm/linkifiers', { ordered_linkifier_ids: [id] }));
    }
    assertSuccess(await add('owner-(?P<id>\\d+)', 'https://owner.example.com/{id}', ts.owner));
    expect(assertSuccess(await client(ts, admin).get('/realm/linkifiers')).linkifiers.map((l: { id: number }) => l.id)).toContain(id);
  });
});

describe('register and events', () => {
  beforeEach(clearLinkifiers);

  test('every change reaches everyone as the whole ordered list, and register plus events equals a fresh register', async () => {
    const watchers = [admin, member, guest];
    const options = { capabilities: TEMPLATES, fetchEventTypes: ['realm_linkifiers'] };
    let events = await verifySharedAction(ts, watchers, () => add('#(?P<id>\\d+)', 'https://t.example.com/{id}'), options);
    const [{ id: first }] = events[0].realm_linkifiers;
    expect(events).toEqual([
      { type: 'realm_linkifiers', realm_linkifiers: [{ pattern: '#(?P<id>\\d+)', url_template: 'https://t.example.com/{id}', id: first, ...NO_REVERSE }] },
    ]);
    events = await verifySharedAction(ts, watchers, () => add('!(?P<id>\\d+)', 'https://b.example.com/{id}'), options);
    const second = events[0].realm_linkifiers[1].id;
    await verifySharedAction(
      ts,
      watchers,
      () => client(ts, admin).patch(`/realm/filters/${first}`, { pattern: '#(?P<n>\\d+)', url_template: 'https://t.example.com/{n}' }),
      options,
    );
    events = await verifySharedAction(ts, watchers, () => client(ts, admin).patch('/realm/linkifiers', { ordered_linkifier_ids: [second, first] }), options);
    expect(events[0].realm_linkifiers.map((l: { id: number }) => l.id)).toEqual([second, first]);
    events = await verifySharedAction(ts, watchers, () => client(ts, admin).delete(`/realm/filters/${second}`), options);
    expect(events[0].realm_linkifiers.map((l: { id: number }) => l.id)).toEqual([first]);
  });

  test('clients without linkifier_url_template get an empty list and no events; realm_filters is always empty', async () => {
    assertSuccess(await add('#(?P<id>\\d+)', 'https://t.example.com/{id}'));
    const options = { capabilities: {}, fetchEventTypes: ['realm_linkifiers', 'realm_filters'] };
    const [events] = await verifyActionFor(ts, [member], () => add('!(?P<id>\\d+)', 'https://b.example.com/{id}'), options);
    expect(events).toEqual([]);
    const { state } = await registerQueue(ts, member, options);
    expect(state.realm_linkifiers).toEqual([]);
    expect(state.realm_filters).toEqual([]);
    const modern = await registerQueue(ts, member, { capabilities: TEMPLATES, fetchEventTypes: ['realm_filters', 'realm_linkifiers'] });
    expect(modern.state.realm_filters).toEqual([]);
    expect(modern.state.realm_linkifiers).toHaveLength(2);
  });

  test('a reorder of no linkifiers sends nothing', async () => {
    const [events] = await verifyActionFor(ts, [member], () => client(ts, admin).patch('/realm/linkifiers', { ordered_linkifier_ids: [] }), {
      capabilities: TEMPLATES,
    });
    expect(events).toEqual([]);
  });
});

describe('messages are linkified', () => {
  beforeEach(clearLinkifiers);

  async function channel(): Promise<number> {
    const name = `linkified-${Math.random().toString(36).slice(2, 8)}`;
    assertSuccess(await client(ts, admin).post('/users/me/subscriptions', { subscriptions: [{ name }] }));
    return assertSuccess(await client(ts, admin).get('/get_stream_id', { stream: name })).stream_id;
  }

  async function sendAndRead(channelId: number, content: string): Promise<string> {
    const { id } = assertSuccess(await client(ts, admin).post('/messages', { type: 'stream', to: channelId, topic: 'links', content }));
    return assertSuccess(await client(ts, admin).get(`/messages/${id}`)).message.content;
  }

  test('sent and previewed messages use the current linkifiers, and stop when they change', async () => {
    const to = await channel();
    expect(await sendAndRead(to, 'fix #224 today')).toBe('<p>fix #224 today</p>');
    const id = assertSuccess(await add('#(?P<id>[0-9]{2,8})', 'https://trac.example.com/ticket/{id}')).id;
    expect(await sendAndRead(to, 'fix #224 today')).toBe('<p>fix <a href="https://trac.example.com/ticket/224">#224</a> today</p>');
    expect(assertSuccess(await client(ts, member).post('/messages/render', { content: '**#15**, #16' })).rendered).toBe(
      '<p><strong>#15</strong>, <a href="https://trac.example.com/ticket/16">#16</a></p>',
    );
    assertSuccess(await client(ts, admin).patch(`/realm/filters/${id}`, { pattern: '#(?P<id>[0-9]{2,8})', url_template: 'https://bugs.example.com/{id}' }));
    expect(await sendAndRead(to, 'fix #224 today')).toBe('<p>fix <a href="https://bugs.example.com/224">#224</a> today</p>');
    assertSuccess(await client(ts, admin).delete(`/realm/filters/${id}`));
    expect(await sendAndRead(to, 'fix #224 today')).toBe('<p>fix #224 today</p>');
  });

  test('a change made by another process takes effect when its event arrives on the bus', async () => {
    const preview = async () => assertSuccess(await client(ts, member).post('/messages/render', { content: 'see #77' })).rendered;
    assertSuccess(await add('#(?P<id>[0-9]{2,8})', 'https://trac.example.com/ticket/{id}'));
    expect(await preview()).toBe('<p>see <a href="https://trac.example.com/ticket/77">#77</a></p>');
    // Written behind this process's back: its cached linkifiers still apply...
    await ts.server.deps.knex('realm_filters').update({ url_template: 'https://elsewhere.example.com/{id}' });
    expect(await preview()).toBe('<p>see <a href="https://trac.example.com/ticket/77">#77</a></p>');
    // ...until the other process's event is heard.
    await ts.server.deps.bus.publish([{ realmId: ts.server.deps.realmId, userIds: [], event: { type: 'realm_linkifiers', realm_linkifiers: [] } }]);
    expect(await preview()).toBe('<p>see <a href="https://elsewhere.example.com/77">#77</a></p>');
  });

  test('channel descriptions are linkified too', async () => {
    assertSuccess(await add('#(?P<id>[0-9]{2,8})', 'https://trac.example.com/ticket/{id}'));
    const name = 'described-linkified';
    assertSuccess(await client(ts, admin).post('/users/me/subscriptions', { subscriptions: [{ name, description: 'Tracks #42' }] }));
    const id = assertSuccess(await client(ts, admin).get('/get_stream_id', { stream: name })).stream_id;
    const { stream } = assertSuccess(await client(ts, admin).get(`/streams/${id}`));
    expect(stream.rendered_description).toBe('<p>Tracks <a href="https://trac.example.com/ticket/42">#42</a></p>');
  });
});

describe('GraphQL', () => {
  beforeEach(clearLinkifiers);

  test('the same actions and checks as REST', async () => {
    const created = await graphql(ts, admin, 'mutation { addLinkifier(pattern: "#(?P<id>\\\\d+)", urlTemplate: "https://g.example.com/{id}") }');
    const id = created.data!.addLinkifier as number;
    const second = (await graphql(ts, admin, 'mutation { addLinkifier(pattern: "!(?P<id>\\\\d+)", urlTemplate: "https://b.example.com/{id}") }')).data!
      .addLinkifier;
    expect((await graphql(ts, member, '{ linkifiers { id pattern urlTemplate } }')).data!.linkifiers).toEqual([
      { id: String(id), pattern: '#(?P<id>\\d+)', urlTemplate: 'https://g.example.com/{id}' },
      { id: String(second), pattern: '!(?P<id>\\d+)', urlTemplate: 'https://b.example.com/{id}' },
    ]);
    const reordered = await graphql(ts, admin, 'mutation($ids: [Int!]!) { reorderLinkifiers(orderedLinkifierIds: $ids) { linkifiers { id pattern } } }', {
      ids: [second, id],
    });
    expect(reordered.data).toEqual({
      reorderLinkifiers: {
        linkifiers: [
          { id: String(second), pattern: '!(?P<id>\\d+)' },
          { id: String(id), pattern: '#(?P<id>\\d+)' },
        ],
      },
    });
    expect(
      (
        await graphql(
          ts,
          admin,
          'mutation($id: Int!) { updateLinkifier(id: $id, pattern: "#(?P<n>\\\\d+)", urlTemplate: "https://g.example.com/{n}") { linkifier { id pattern urlTemplate } } }',
          { id },
        )
      ).data,
    ).toEqual({ updateLinkifier: { linkifier: { id: String(id), pattern: '#(?P<n>\\d+)', urlTemplate: 'https://g.example.com/{n}' } } });
    expect(graphqlError(await graphql(ts, admin, 'mutation { addLinkifier(pattern: "(foo", urlTemplate: "https://x") }'))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Bad regular expression: missing ): (foo',
    });
    expect(graphqlError(await graphql(ts, member, 'mutation($id: Int!) { removeLinkifier(id: $id) { id } }', { id }))).toEqual({
      code: 'UNAUTHORIZED_PRINCIPAL',
      message: 'Must be an organization administrator',
    });
    expect((await graphql(ts, admin, 'mutation($id: Int!) { removeLinkifier(id: $id) { id } }', { id })).data).toEqual({ removeLinkifier: { id: String(id) } });
    expect((await graphql(ts, member, '{ linkifiers { id } }')).data!.linkifiers).toEqual([{ id: String(second) }]);
  });
});
