import { draftsSlice } from '../../src/core/drafts/state';
import { User } from '../../src/core/users/model';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents } from '../helpers/events';
import { defaultRegisterOptions as registerOptions } from '../helpers/register-options';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
/** A public channel everyone but guests can write to. */
let channelId: number;
beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  carol = await makeUser(ts, 600);
  channelId = await createChannel('drafts-room');
}, 120_000);

async function createChannel(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name }], ...extra }));
  return assertSuccess(await client(ts, ts.owner).get('/get_stream_id', { stream: name })).stream_id;
}
afterAll(async () => {
  await ts.close();
});

const channelDraft = (extra: Record<string, unknown> = {}) => ({ type: 'stream', to: [channelId], topic: 'plans', content: 'Hello', ...extra });

describe('POST /drafts', () => {
  test('returns ids in submitted order and stores each draft', async () => {
    const me = await makeUser(ts, 400);
    const body = assertSuccess(
      await client(ts, me).post('/drafts', {
        drafts: [
          channelDraft({ timestamp: 1595479019 }),
          { type: 'private', to: [bob.id], topic: 'ignored', content: 'Hi Bob', timestamp: 1595479020 },
          { type: '', to: [1, 2], topic: 'x', content: 'Unaddressed', timestamp: 1595479021.75 },
        ],
      }),
    );
    expect(body.ids).toHaveLength(3);
    expect([...body.ids].sort((a: number, b: number) => a - b)).toEqual(body.ids);
    const list = assertSuccess(await client(ts, me).get('/drafts'));
    expect(list.count).toBe(3);
    expect(list.drafts).toEqual([
      { id: body.ids[0], type: 'stream', to: [channelId], topic: 'plans', content: 'Hello', timestamp: 1595479019 },
      { id: body.ids[1], type: 'private', to: [bob.id], topic: '', content: 'Hi Bob', timestamp: 1595479020 },
      { id: body.ids[2], type: '', to: [], topic: '', content: 'Unaddressed', timestamp: 1595479021 },
    ]);
  });

  test('fills in the timestamp when absent', async () => {
    const me = await makeUser(ts, 400);
    const before = Math.floor(Date.now() / 1000);
    const { ids } = assertSuccess(await client(ts, me).post('/drafts', { drafts: [channelDraft()] }));
    const after = Math.ceil(Date.now() / 1000);
    const [draft] = assertSuccess(await client(ts, me).get('/drafts')).drafts;
    expect(draft.id).toBe(ids[0]);
    expect(draft.timestamp).toBeGreaterThanOrEqual(before);
    expect(draft.timestamp).toBeLessThanOrEqual(after);
  });

  test('the drafts parameter may be omitted', async () => {
    expect(assertSuccess(await client(ts, alice).post('/drafts', {})).ids).toEqual([]);
  });

  test('a channel draft needs exactly one channel id', async () => {
    for (const to of [[], [1, 2]]) {
      const res = await client(ts, alice).post('/drafts', { drafts: [channelDraft({ to })] });
      assertError(res, 'BAD_REQUEST', 'Must specify exactly 1 channel ID for channel messages');
    }
  });

  test('the channel must be an active one the user can read, else "Invalid channel ID"', async () => {
    const secret = await createChannel('drafts-secret', { invite_only: true });
    const archived = await createChannel('drafts-archived');
    assertSuccess(await client(ts, ts.owner).delete(`/streams/${archived}`));
    const me = await makeUser(ts, 400);
    for (const to of [[999999], [2 ** 40], [secret], [archived]]) {
      assertError(await client(ts, me).post('/drafts', { drafts: [channelDraft({ to })] }), 'BAD_REQUEST', 'Invalid channel ID');
    }
    // Guests read only the channels they are subscribed to.
    assertError(await client(ts, carol).post('/drafts', { drafts: [channelDraft()] }), 'BAD_REQUEST', 'Invalid channel ID');
    assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'drafts-room' }], principals: [carol.id] }));
    assertSuccess(await client(ts, carol).post('/drafts', { drafts: [channelDraft()] }));
    // A subscriber of the private channel may address it; an edit is checked the same way.
    assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'drafts-secret' }], principals: [me.id] }));
    const { ids } = assertSuccess(await client(ts, me).post('/drafts', { drafts: [channelDraft({ to: [secret] })] }));
    assertError(await client(ts, me).patch(`/drafts/${ids[0]}`, { draft: channelDraft({ to: [archived] }) }), 'BAD_REQUEST', 'Invalid channel ID');
    expect(assertSuccess(await client(ts, me).get('/drafts')).drafts.map((d: any) => d.to)).toEqual([[secret]]);
  });

  test('nothing is stored when one draft of a batch is invalid', async () => {
    const me = await makeUser(ts, 400);
    const res = await client(ts, me).post('/drafts', { drafts: [channelDraft(), channelDraft({ to: [] })] });
    assertError(res, 'BAD_REQUEST', 'Must specify exactly 1 channel ID for channel messages');
    expect(assertSuccess(await client(ts, me).get('/drafts')).count).toBe(0);
  });

  test('NUL bytes are refused in content and in a channel topic', async () => {
    assertError(
      await client(ts, alice).post('/drafts', { drafts: [channelDraft({ content: 'a\u0000b' })] }),
      'BAD_REQUEST',
      'Message must not contain null bytes',
    );
    assertError(await client(ts, alice).post('/drafts', { drafts: [channelDraft({ topic: 'a\u0000b' })] }), 'BAD_REQUEST', 'Topic must not contain null bytes');
  });

  test('shape errors name the draft and field', async () => {
    const post = (drafts: unknown) => client(ts, alice).post('/drafts', { drafts });
    assertError(await post({}), 'BAD_REQUEST', 'drafts is not a list');
    assertError(await post([5]), 'BAD_REQUEST', 'drafts[0] is not a dict');
    assertError(await post([channelDraft({ type: 'group' })]), 'BAD_REQUEST', 'Invalid drafts[0]["type"]');
    assertError(await post([channelDraft(), channelDraft({ to: ['x'] })]), 'BAD_REQUEST', 'drafts[1]["to"][0] is not an integer');
    assertError(await post([channelDraft({ to: 3 })]), 'BAD_REQUEST', 'drafts[0]["to"] is not a list');
    assertError(await post([channelDraft({ topic: 4 })]), 'BAD_REQUEST', 'drafts[0]["topic"] is not a string');
    assertError(await post([channelDraft({ content: '   ' })]), 'BAD_REQUEST', 'drafts[0]["content"] cannot be blank');
    assertError(await post([channelDraft({ timestamp: 'soon' })]), 'BAD_REQUEST', 'drafts[0]["timestamp"] is not a float');
    assertError(await post([channelDraft({ id: 3 })]), 'BAD_REQUEST', 'Argument "id" at drafts[0]["id"] is unexpected');
    assertError(await post([{ type: 'stream', to: [1], topic: 't' }]), 'BAD_REQUEST', 'content key is missing from drafts[0]');
    assertError(await post([channelDraft({ timestamp: -5 })]), 'BAD_REQUEST', 'Timestamp must not be negative.');
    const res = await client(ts, alice).post('/drafts', { drafts: 'not json' });
    expect(res.status).toBe(400);
    expect(res.body.result).toBe('error');
  });

  test('direct-message recipients must be accounts of the organization', async () => {
    assertError(
      await client(ts, alice).post('/drafts', { drafts: [{ type: 'private', to: [bob.id, 999999], topic: '', content: 'x' }] }),
      'BAD_REQUEST',
      'Invalid user ID 999999',
    );
    assertError(
      await client(ts, alice).post('/drafts', { drafts: [{ type: 'private', to: [2 ** 40], topic: '', content: 'x' }] }),
      'BAD_REQUEST',
      `Invalid user ID ${2 ** 40}`,
    );
  });

  test('a deactivated recipient is refused', async () => {
    const gone = await makeUser(ts, 400);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    assertError(
      await client(ts, alice).post('/drafts', { drafts: [{ type: 'private', to: [gone.id], topic: '', content: 'x' }] }),
      'BAD_REQUEST',
      `'${gone.email}' is no longer using Zulip.`,
    );
  });

  test('direct-message recipients are stored as the other participants, or the user alone', async () => {
    const me = await makeUser(ts, 400);
    const { ids } = assertSuccess(
      await client(ts, me).post('/drafts', {
        drafts: [
          { type: 'private', to: [carol.id, me.id, bob.id, bob.id], topic: '', content: 'group', timestamp: 1 },
          { type: 'private', to: [me.id], topic: '', content: 'note to self', timestamp: 2 },
          { type: 'private', to: [], topic: '', content: 'nobody yet', timestamp: 3 },
        ],
      }),
    );
    const { drafts } = assertSuccess(await client(ts, me).get('/drafts'));
    expect(drafts.map((d: any) => [d.id, d.type, d.to])).toEqual([
      [ids[0], 'private', [bob.id, carol.id].sort((a, b) => a - b)],
      [ids[1], 'private', [me.id]],
      [ids[2], '', []],
    ]);
  });

  test('long content and topics are truncated as messages are', async () => {
    const me = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/drafts', { drafts: [channelDraft({ topic: 't'.repeat(70), content: `\n\n${'c'.repeat(10005)}  \n` })] }));
    const [draft] = assertSuccess(await client(ts, me).get('/drafts')).drafts;
    expect(draft.topic).toBe(`${'t'.repeat(57)}...`);
    expect(draft.content).toHaveLength(10000);
    expect(draft.content.endsWith('\n[message truncated]')).toBe(true);
  });

  test('creation sends a drafts add event to the user only, after commit', async () => {
    const events = captureEvents(ts);
    try {
      const { ids } = assertSuccess(await client(ts, alice).post('/drafts', { drafts: [channelDraft({ timestamp: 100 })] }));
      expect(events.ofType('drafts')).toEqual([
        {
          event: { type: 'drafts', op: 'add', drafts: [{ id: ids[0], type: 'stream', to: [channelId], topic: 'plans', content: 'Hello', timestamp: 100 }] },
          userIds: [alice.id],
        },
      ]);
      events.clear();
      await client(ts, alice).post('/drafts', { drafts: [channelDraft({ to: [] })] });
      expect(events.ofType('drafts')).toEqual([]);
    } finally {
      events.stop();
    }
  });
});

describe('GET /drafts', () => {
  test('lists drafts oldest edit first, and only the user own', async () => {
    const me = await makeUser(ts, 400);
    const other = await makeUser(ts, 400);
    const { ids } = assertSuccess(await client(ts, me).post('/drafts', { drafts: [channelDraft({ timestamp: 300 }), channelDraft({ timestamp: 100 })] }));
    assertSuccess(await client(ts, other).post('/drafts', { drafts: [channelDraft({ timestamp: 200 })] }));
    const body = assertSuccess(await client(ts, me).get('/drafts'));
    expect(body.count).toBe(2);
    expect(body.drafts.map((d: any) => d.id)).toEqual([ids[1], ids[0]]);
  });
});

describe('PATCH /drafts/{id}', () => {
  test('replaces the draft and sends an update event', async () => {
    const me = await makeUser(ts, 400);
    const { ids } = assertSuccess(await client(ts, me).post('/drafts', { drafts: [channelDraft({ timestamp: 10 })] }));
    const events = captureEvents(ts);
    try {
      assertSuccess(
        await client(ts, me).patch(`/drafts/${ids[0]}`, {
          draft: { type: 'private', to: [bob.id], topic: 'dropped', content: 'Changed', timestamp: 20 },
        }),
      );
      const expected = { id: ids[0], type: 'private', to: [bob.id], topic: '', content: 'Changed', timestamp: 20 };
      expect(assertSuccess(await client(ts, me).get('/drafts')).drafts).toEqual([expected]);
      expect(events.ofType('drafts')).toEqual([{ event: { type: 'drafts', op: 'update', draft: expected }, userIds: [me.id] }]);
    } finally {
      events.stop();
    }
  });

  test('validates the replacement like a new draft', async () => {
    const me = await makeUser(ts, 400);
    const { ids } = assertSuccess(await client(ts, me).post('/drafts', { drafts: [channelDraft()] }));
    assertError(
      await client(ts, me).patch(`/drafts/${ids[0]}`, { draft: channelDraft({ to: [1, 2] }) }),
      'BAD_REQUEST',
      'Must specify exactly 1 channel ID for channel messages',
    );
    assertError(await client(ts, me).patch(`/drafts/${ids[0]}`, { draft: [] }), 'BAD_REQUEST', 'draft is not a dict');
    assertError(await client(ts, me).patch(`/drafts/${ids[0]}`, {}), 'REQUEST_VARIABLE_MISSING', "Missing 'draft' argument");
  });

  test('a missing draft and another user draft get the same answer', async () => {
    const { ids } = assertSuccess(await client(ts, bob).post('/drafts', { drafts: [channelDraft()] }));
    for (const id of [ids[0], 99999999]) {
      assertError(await client(ts, alice).patch(`/drafts/${id}`, { draft: channelDraft() }), 'BAD_REQUEST', 'Draft does not exist', 404);
    }
    const bobs = assertSuccess(await client(ts, bob).get('/drafts')).drafts;
    expect(bobs.find((d: any) => d.id === ids[0]).content).toBe('Hello');
  });
});

describe('DELETE /drafts/{id}', () => {
  test('deletes the draft and sends a remove event', async () => {
    const me = await makeUser(ts, 400);
    const { ids } = assertSuccess(await client(ts, me).post('/drafts', { drafts: [channelDraft(), channelDraft()] }));
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, me).delete(`/drafts/${ids[0]}`));
      expect(events.ofType('drafts')).toEqual([{ event: { type: 'drafts', op: 'remove', draft_id: ids[0] }, userIds: [me.id] }]);
    } finally {
      events.stop();
    }
    expect(assertSuccess(await client(ts, me).get('/drafts')).drafts.map((d: any) => d.id)).toEqual([ids[1]]);
    assertError(await client(ts, me).delete(`/drafts/${ids[0]}`), 'BAD_REQUEST', 'Draft does not exist', 404);
  });

  test('another user draft cannot be deleted', async () => {
    const { ids } = assertSuccess(await client(ts, bob).post('/drafts', { drafts: [channelDraft()] }));
    assertError(await client(ts, alice).delete(`/drafts/${ids[0]}`), 'BAD_REQUEST', 'Draft does not exist', 404);
    assertError(await client(ts, ts.owner).delete(`/drafts/${ids[0]}`), 'BAD_REQUEST', 'Draft does not exist', 404);
    expect(assertSuccess(await client(ts, bob).get('/drafts')).drafts.some((d: any) => d.id === ids[0])).toBe(true);
  });
});

describe('drafts synchronization setting', () => {
  test('turning it off deletes the stored drafts and refuses every drafts endpoint until it is on again', async () => {
    const me = await makeUser(ts, 400);
    const other = await makeUser(ts, 400);
    const { ids } = assertSuccess(await client(ts, me).post('/drafts', { drafts: [channelDraft(), channelDraft()] }));
    assertSuccess(await client(ts, other).post('/drafts', { drafts: [channelDraft()] }));
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, me).patch('/settings', { enable_drafts_synchronization: false }));
      // No drafts event: clients keep their local copies.
      expect(events.ofType('drafts')).toEqual([]);
    } finally {
      events.stop();
    }
    const msg = 'User has disabled synchronizing drafts.';
    assertError(await client(ts, me).get('/drafts'), 'BAD_REQUEST', msg);
    assertError(await client(ts, me).post('/drafts', { drafts: [channelDraft()] }), 'BAD_REQUEST', msg);
    assertError(await client(ts, me).patch(`/drafts/${ids[0]}`, { draft: channelDraft() }), 'BAD_REQUEST', msg);
    assertError(await client(ts, me).delete(`/drafts/${ids[0]}`), 'BAD_REQUEST', msg);
    const user = await User.query(ts.server.deps.knex).findById(me.id);
    expect(await draftsSlice.fetch(ts.server.deps, user!, registerOptions)).toEqual({ drafts: [] });

    assertSuccess(await client(ts, me).patch('/settings', { enable_drafts_synchronization: true }));
    expect(assertSuccess(await client(ts, me).get('/drafts')).drafts).toEqual([]);
    expect(assertSuccess(await client(ts, other).get('/drafts')).count).toBe(1);
  });
});

describe('register slice', () => {
  test('fetches newest first and applies events idempotently', async () => {
    const me = await makeUser(ts, 400);
    const { ids } = assertSuccess(await client(ts, me).post('/drafts', { drafts: [channelDraft({ timestamp: 5 }), channelDraft({ timestamp: 9 })] }));
    const user = (await User.query(ts.server.deps.knex).findById(me.id))!;
    const state = await draftsSlice.fetch(ts.server.deps, user, registerOptions);
    expect((state.drafts as any[]).map((d) => d.id)).toEqual([ids[1], ids[0]]);

    const added = { id: 777, type: '', to: [], topic: '', content: 'x', timestamp: 1 };
    const apply = (event: any) => draftsSlice.apply!(state, event, user, registerOptions);
    apply({ type: 'drafts', op: 'add', drafts: [added] });
    apply({ type: 'drafts', op: 'add', drafts: [added] });
    expect((state.drafts as any[]).filter((d) => d.id === 777)).toHaveLength(1);
    apply({ type: 'drafts', op: 'update', draft: { ...added, content: 'y' } });
    expect((state.drafts as any[]).find((d) => d.id === 777).content).toBe('y');
    apply({ type: 'drafts', op: 'remove', draft_id: 777 });
    apply({ type: 'drafts', op: 'remove', draft_id: 777 });
    apply({ type: 'drafts', op: 'update', draft: { ...added, id: 778 } });
    expect((state.drafts as any[]).map((d) => d.id)).toEqual([ids[1], ids[0]]);
  });
});

describe('GraphQL', () => {
  const fields = 'id type to topic content timestamp';
  test('creates, lists, edits and deletes drafts through the same rules', async () => {
    const me = await makeUser(ts, 400);
    const created = await graphql(ts, me, `mutation($d: [DraftInput!]!) { createDrafts(drafts: $d) { ${fields} } }`, {
      d: [
        { type: 'stream', to: [channelId], topic: 'gql', content: 'Hi', timestamp: 50 },
        { type: 'private', to: [bob.id], topic: '', content: 'DM' },
      ],
    });
    expect(created.errors).toBeUndefined();
    const [first, second] = created.data!.createDrafts;
    expect(first).toEqual({ id: expect.any(String), type: 'stream', to: [channelId], topic: 'gql', content: 'Hi', timestamp: 50 });
    expect(second).toMatchObject({ type: 'private', to: [bob.id], content: 'DM' });

    const listed = await graphql(ts, me, `{ drafts { id } }`);
    expect(listed.data!.drafts.map((d: any) => d.id)).toEqual([first.id, second.id]);

    const edited = await graphql(ts, me, `mutation($id: Int!, $d: DraftInput!) { editDraft(id: $id, draft: $d) { ${fields} } }`, {
      id: Number(first.id),
      d: { type: '', to: [], topic: 'x', content: 'Later', timestamp: 60 },
    });
    expect(edited.data!.editDraft).toEqual({ id: first.id, type: '', to: [], topic: '', content: 'Later', timestamp: 60 });

    const bad = await graphql(ts, me, `mutation($d: [DraftInput!]!) { createDrafts(drafts: $d) { id } }`, {
      d: [{ type: 'stream', to: [], topic: 't', content: 'c' }],
    });
    expect(graphqlError(bad)).toEqual({ code: 'BAD_REQUEST', message: 'Must specify exactly 1 channel ID for channel messages' });

    const stranger = await graphql(ts, alice, `mutation { deleteDraft(id: ${first.id}) { id } }`);
    expect(graphqlError(stranger)).toEqual({ code: 'BAD_REQUEST', message: 'Draft does not exist' });
    expect((await graphql(ts, me, `mutation { deleteDraft(id: ${first.id}) { id } }`)).data).toEqual({ deleteDraft: { id: first.id } });
    expect(graphqlError(await graphql(ts, null, '{ drafts { id } }')).code).toBe('UNAUTHORIZED');
  });
});
