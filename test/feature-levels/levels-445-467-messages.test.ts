import fs from 'node:fs';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { tempDataDir, upload } from '../uploads/files';
import { solidPng } from '../uploads/images';

// Zulip's API changelog, feature levels 445 (anchor=date), 446 (the `mentions` operator),
// 451 (unreadable <time:...> stays text) and 467 (image syntax only for uploaded images).
let ts: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

const NEWEST = 10_000_000_000_000_000;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_THUMBNAIL_WORKER: 'false' });
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  carol = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

async function createChannel(name: string, principals: number[]): Promise<number> {
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name }], principals }));
  return (await ts.server.deps.knex('streams').where({ name }).first('id')).id;
}

async function send(who: TestUser, to: number | number[], content: string): Promise<number> {
  const params = Array.isArray(to) ? { type: 'direct', to: JSON.stringify(to), content } : { type: 'stream', to, topic: 'levels', content };
  return assertSuccess(await client(ts, who).post('/messages', params)).id;
}

const ids = (res: Record<string, any>) => (res.messages as { id: number }[]).map((m) => m.id);

describe('445: anchor=date', () => {
  let channel: number;
  let narrow: unknown[];
  let sent: number[];

  beforeAll(async () => {
    channel = await createChannel('level-445', [alice.id, bob.id]);
    narrow = [{ operator: 'channel', operand: channel }];
    sent = [];
    for (const day of ['2024-01-01', '2024-01-02', '2024-01-03']) {
      const id = await send(alice, channel, `sent on ${day}`);
      // The fixture needs messages of known past moments; nothing in the API sets them.
      await ts.server.deps
        .knex('messages')
        .where({ id })
        .update({ date_sent: `${day}T10:00:00Z` });
      sent.push(id);
    }
  });

  const fetchAt = (anchorDate: string | undefined, extra: Record<string, unknown> = {}) =>
    client(ts, bob).get('/messages', { anchor: 'date', anchor_date: anchorDate, num_before: 1, num_after: 1, narrow, ...extra });

  test('the anchor is the oldest message sent at or after the moment, read as UTC without an offset', async () => {
    const day = assertSuccess(await fetchAt('2024-01-02'));
    expect(day).toMatchObject({ anchor: sent[1], found_anchor: true });
    expect(ids(day)).toEqual(sent);
    expect(assertSuccess(await fetchAt('2024-01-02T10:00')).anchor).toBe(sent[1]);
    expect(assertSuccess(await fetchAt('2024-01-02T12:00:00+02:00')).anchor).toBe(sent[1]);
    expect(assertSuccess(await fetchAt('2024-01-02T10:00:00.001Z')).anchor).toBe(sent[2]);
    expect(assertSuccess(await fetchAt('2024-01-02T05:00:00-05:00')).anchor).toBe(sent[1]);
    expect(assertSuccess(await fetchAt('20240102T0501-0500')).anchor).toBe(sent[2]);
    expect(assertSuccess(await fetchAt('1999-12-31T23:59:59.5Z')).anchor).toBe(sent[0]);
    const before = assertSuccess(await fetchAt('2024-01-02', { num_before: 5, num_after: 0, include_anchor: false }));
    expect(ids(before)).toEqual([sent[0]]);
  });

  test('after the last message the anchor is "newest"; first_unread still wins when asked for', async () => {
    const late = assertSuccess(await fetchAt('2030-06-01T00:00:00Z', { num_before: 2 }));
    expect(late).toMatchObject({ anchor: NEWEST, found_anchor: false, found_newest: true });
    expect(ids(late)).toEqual(sent.slice(1));
    const unread = assertSuccess(await fetchAt('2024-01-03', { use_first_unread_anchor: true, num_before: 0, num_after: 1 }));
    expect(unread.anchor).toBe(sent[0]);
  });

  test('a missing or unreadable anchor_date is refused; anchor_date alone changes nothing', async () => {
    assertError(await fetchAt(undefined), 'REQUEST_VARIABLE_MISSING', "Missing 'anchor_date' argument");
    for (const bad of ['yesterday', '2024-02-30', '2024-01-02T25:00', '2024-13-01', '2024-01-02T10:00+24:00', '', '0000-01-01']) {
      assertError(await fetchAt(bad), 'BAD_REQUEST', 'Invalid anchor_date');
    }
    const byId = assertSuccess(await client(ts, bob).get('/messages', { anchor: sent[0], anchor_date: '2024-01-03', num_before: 0, num_after: 0, narrow }));
    expect(ids(byId)).toEqual([sent[0]]);
    const flags = { anchor: 'date', anchor_date: '2024-01-02', num_before: 0, num_after: 1, narrow, op: 'add', flag: 'read' };
    assertError(await client(ts, bob).post('/messages/flags/narrow', flags), 'BAD_REQUEST', 'Invalid anchor');
  });

  test('GraphQL messages takes anchor "date" with anchorDate', async () => {
    const query = `query($narrow: [NarrowTermInput!], $date: String) {
      messages(narrow: $narrow, anchor: "date", anchorDate: $date, numBefore: 0, numAfter: 5) { anchor foundAnchor messages { id } } }`;
    const gqlNarrow = [{ operator: 'channel', operandId: channel }];
    const res = await graphql(ts, bob, query, { narrow: gqlNarrow, date: '2024-01-02T08:00:00Z' });
    expect(res.errors).toBeUndefined();
    expect(res.data?.messages).toMatchObject({ anchor: sent[1], foundAnchor: true });
    expect(res.data?.messages.messages.map((m: { id: string }) => Number(m.id))).toEqual(sent.slice(1));
    expect(graphqlError(await graphql(ts, bob, query, { narrow: gqlNarrow, date: 'soon' }))).toEqual({ message: 'Invalid anchor_date', code: 'BAD_REQUEST' });
    expect(graphqlError(await graphql(ts, bob, query, { narrow: gqlNarrow }))).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING' });
  });
});

describe('446: the mentions operator', () => {
  let channel: number;
  let direct: number;
  let byId: number;
  let silent: number;
  let group: number;
  let wildcard: number;
  let other: number;
  let dm: number;

  beforeAll(async () => {
    channel = await createChannel('level-446', [alice.id, bob.id, carol.id]);
    const groupName = 'level-446-crew';
    assertSuccess(await client(ts, ts.owner).post('/user_groups/create', { name: groupName, description: 'crew', members: JSON.stringify([bob.id]) }));
    direct = await send(alice, channel, `hello @**${bob.fullName}**`);
    byId = await send(carol, channel, `and @**|${bob.id}** too`);
    silent = await send(alice, channel, `quietly @_**${bob.fullName}**`);
    group = await send(alice, channel, `crew: @*${groupName}*`);
    wildcard = await send(alice, channel, 'everyone: @**all**');
    other = await send(bob, channel, `hi @**${carol.fullName}**`);
    dm = await send(alice, [bob.id], `psst @**${bob.fullName}**`);
  });

  const search = (who: TestUser, terms: unknown[]) => client(ts, who).get('/messages', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: terms });

  test('GET /messages finds direct, visible mentions of the user, by id or email, among what the viewer may see', async () => {
    const inChannel = { operator: 'channel', operand: channel };
    expect(ids(assertSuccess(await search(carol, [{ operator: 'mentions', operand: bob.id }])))).toEqual([direct, byId]);
    expect(ids(assertSuccess(await search(carol, [{ operator: 'mentions', operand: bob.email }])))).toEqual([direct, byId]);
    expect(ids(assertSuccess(await search(bob, [{ operator: 'mentions', operand: bob.id }])))).toEqual([direct, byId, dm]);
    expect(ids(assertSuccess(await search(alice, [{ operator: 'mentions', operand: carol.id }])))).toEqual([other]);
    expect(ids(assertSuccess(await search(carol, [inChannel, { operator: 'mentions', operand: bob.id, negated: true }])))).toEqual([
      silent,
      group,
      wildcard,
      other,
    ]);
    expect(ids(assertSuccess(await search(alice, [['mentions', bob.email]])))).toEqual([direct, byId, dm]);
  });

  test('unknown users and operands of the wrong type are refused', async () => {
    for (const operand of [999999, 'nobody@example.com']) {
      const res = await search(alice, [{ operator: 'mentions', operand }]);
      assertError(res, 'BAD_NARROW', `Invalid narrow operator: unknown user ${operand}`);
    }
    assertError(await search(alice, [{ operator: 'mentions', operand: [bob.id] }]), 'BAD_REQUEST', 'operand is not a string or integer');
  });

  test('GET /messages/matches_narrow and POST /messages/flags/narrow apply it', async () => {
    const narrow = [{ operator: 'mentions', operand: bob.id }];
    const matches = assertSuccess(await client(ts, carol).get('/messages/matches_narrow', { msg_ids: [direct, silent, group, other], narrow })).messages;
    expect(Object.keys(matches)).toEqual([String(direct)]);
    const flagged = assertSuccess(
      await client(ts, carol).post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 100, narrow, op: 'add', flag: 'starred' }),
    );
    expect(flagged).toMatchObject({ processed_count: 2, updated_count: 2, first_processed_id: direct, last_processed_id: byId });
    const starred = assertSuccess(await search(carol, [{ operator: 'is', operand: 'starred' }]));
    expect(ids(starred)).toEqual([direct, byId]);
  });

  test('GraphQL messages narrows by mentions', async () => {
    const res = await graphql(ts, carol, 'query($id: Int!) { messages(narrow: [{ operator: "mentions", operandId: $id }], first: 50) { messages { id } } }', {
      id: bob.id,
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.messages.messages.map((m: { id: string }) => Number(m.id))).toEqual([direct, byId]);
  });
});

describe('451: unreadable times', () => {
  const render = async (content: string) => assertSuccess(await client(ts, alice).post('/messages/render', { content })).rendered;

  test('stay as typed, as plain text, in the render endpoint and in sent messages', async () => {
    expect(await render('at <time:2024-01-02T10:00:00Z>')).toBe('<p>at <time datetime="2024-01-02T10:00:00Z">2024-01-02T10:00:00Z</time></p>');
    expect(await render('at <time:not a time> then')).toBe('<p>at &lt;time:not a time&gt; then</p>');
    expect(await render('<time:**bold?**> & <time:<b>>')).toBe('<p>&lt;time:**bold?**&gt; &amp; &lt;time:&lt;b&gt;&gt;</p>');
    const channel = await createChannel('level-451', [alice.id, bob.id]);
    const id = await send(alice, channel, 'meet <time:2024-02-30T10:00>');
    const fetched = assertSuccess(await client(ts, bob).get(`/messages/${id}`)).message;
    expect(fetched.content).toBe('<p>meet &lt;time:2024-02-30T10:00&gt;</p>');
  });
});

describe('467: image syntax only for uploaded images', () => {
  const render = async (content: string) => assertSuccess(await client(ts, alice).post('/messages/render', { content })).rendered;

  test('an uploaded image is shown in place; a web address or another upload is a link', async () => {
    const image: string = assertSuccess(await upload(ts, alice, [{ name: 'dot.png', data: await solidPng(20, 10), type: 'image/png' }])).url;
    const rendered = await render(`see ![dot](${image})`);
    expect(rendered).toMatch(/^<p>see <img alt="dot" class="inline-image[^"]*" [^>]*data-original-src="[^"]+"[^>]*><\/p>$/);
    expect(rendered).toContain(`data-original-src="${image}"`);
    expect(await render('see ![cat](https://example.com/cat.png)')).toBe('<p>see <a href="https://example.com/cat.png">cat</a></p>');
    expect(await render('![](https://example.com/cat.png)')).toBe('<p><a href="https://example.com/cat.png">https://example.com/cat.png</a></p>');
    const text: string = assertSuccess(await upload(ts, alice, [{ name: 'notes.txt', data: 'hello', type: 'text/plain' }])).url;
    expect(await render(`![notes](${text})`)).toBe(`<p><a href="${text}">notes</a></p>`);
    const channel = await createChannel('level-467', [alice.id, bob.id]);
    const id = await send(alice, channel, '![cat](https://example.com/cat.png)');
    expect(assertSuccess(await client(ts, bob).get(`/messages/${id}`)).message.content).toBe('<p><a href="https://example.com/cat.png">cat</a></p>');
  });
});
