import { deleteExpiredMessages } from '../../src/core/realm/retention';
import { assertError, assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { verifyAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

// A short retention interval lets the background job run during the tests.
let ts: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer({ PARLEY_RETENTION_INTERVAL_SECONDS: '1' });
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  groups = await systemGroups(ts);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const patch = (params: Record<string, unknown>) => client(ts, ts.owner).patch('/realm', params);

async function channel(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [alice.id, bob.id], ...extra }));
  return assertSuccess(await client(ts, ts.owner).get('/get_stream_id', { stream: name })).stream_id;
}
const send = async (who: TestUser, to: number | number[], topic = 'general') =>
  assertSuccess(
    await client(ts, who).post('/messages', Array.isArray(to) ? { type: 'direct', to, content: 'hi' } : { type: 'stream', to, topic, content: 'hi' }),
  ).id as number;

test('message editing limits apply to edits', async () => {
  const stream = await channel('editing');
  const id = await send(alice, stream);
  assertSuccess(await patch({ allow_message_editing: false }));
  assertError(await client(ts, alice).patch(`/messages/${id}`, { content: 'changed' }), 'BAD_REQUEST', 'Your organization has turned off message editing');
  assertSuccess(await patch({ allow_message_editing: true, message_content_edit_limit_seconds: 1 }));
  await ts.server.deps
    .knex('messages')
    .where({ id })
    .update({ date_sent: new Date(Date.now() - 120_000) });
  assertError(await client(ts, alice).patch(`/messages/${id}`, { content: 'changed' }), 'BAD_REQUEST', 'The time limit for editing this message has passed');
  assertSuccess(await patch({ message_content_edit_limit_seconds: JSON.stringify('unlimited') }));
  assertSuccess(await client(ts, alice).patch(`/messages/${id}`, { content: 'changed' }));
});

test('the organization topics policy applies to channels that inherit it', async () => {
  const stream = await channel('topics');
  assertSuccess(await patch({ topics_policy: 'disable_empty_topic' }));
  const res = await client(ts, alice).post('/messages', { type: 'stream', to: stream, topic: '', content: 'no topic' });
  expect(res.body.result).toBe('error');
  expect(res.body.msg).toMatch(/is not allowed in this channel/);
  assertSuccess(await patch({ topics_policy: 'allow_empty_topic' }));
  await send(alice, stream, '');
});

test('read receipts follow enable_read_receipts', async () => {
  const stream = await channel('receipts');
  const id = await send(alice, stream);
  assertSuccess(await client(ts, alice).get(`/messages/${id}/read_receipts`));
  assertSuccess(await patch({ enable_read_receipts: false }));
  assertError(await client(ts, alice).get(`/messages/${id}/read_receipts`), 'BAD_REQUEST', 'Read receipts are disabled in this organization.');
  assertSuccess(await patch({ enable_read_receipts: true }));
});

test('web-public channels need spectator access', async () => {
  const create = () => client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'on-the-web' }], is_web_public: true });
  assertError(await create(), 'BAD_REQUEST', 'Web-public channels are not enabled.');
  assertSuccess(await patch({ enable_spectator_access: true }));
  assertSuccess(await create());
  assertSuccess(await patch({ enable_spectator_access: false }));
});

test('channel policies: adding subscribers and channel-level permission grants', async () => {
  const stream = await channel('adding');
  const carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  assertSuccess(await patch({ can_add_subscribers_group: { new: groups['role:administrators'] } }));
  assertError(
    await client(ts, alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'adding' }], principals: [carol.id] }),
    'BAD_REQUEST',
    'Insufficient permission',
  );
  assertSuccess(await client(ts, admin).post('/users/me/subscriptions', { subscriptions: [{ name: 'adding' }], principals: [carol.id] }));
  assertSuccess(await patch({ can_add_subscribers_group: { new: groups['role:members'] } }));
  expect(stream).toBeGreaterThan(0);
});

test('custom emoji need can_add_custom_emoji_group', async () => {
  assertSuccess(await patch({ can_add_custom_emoji_group: { new: groups['role:administrators'] } }));
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'e.png');
  const res = await fetch(`${ts.url}/api/v1/realm/emoji/party_parrot`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${alice.email}:${alice.apiKey}`).toString('base64')}` },
    body: form,
  });
  expect(await res.json()).toMatchObject({ result: 'error', msg: 'Insufficient permission' });
  assertSuccess(await patch({ can_add_custom_emoji_group: { new: groups['role:members'] } }));
});

describe('message retention', () => {
  test('the background job deletes messages older than the organization policy', async () => {
    const stream = await channel('retained');
    const old = await send(alice, stream);
    const oldDm = await send(alice, [bob.id]);
    const fresh = await send(alice, stream);
    await ts.server.deps
      .knex('messages')
      .whereIn('id', [old, oldDm])
      .update({ date_sent: new Date(Date.now() - 40 * 24 * 3600 * 1000) });
    assertSuccess(await patch({ message_retention_days: 30 }));
    await waitUntil(async () => (await ts.server.deps.knex('messages').whereIn('id', [old, oldDm]).count('* as n').first())?.n === 0, 10_000);
    expect(await ts.server.deps.knex('messages').where({ id: fresh }).first('id')).toBeTruthy();
    expect(await ts.server.deps.knex('user_messages').whereIn('message_id', [old, oldDm]).first()).toBeUndefined();
    const res = await client(ts, alice).get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: stream }],
    });
    expect(assertSuccess(res).messages.map((m: { id: number }) => m.id)).toEqual([fresh]);
    assertSuccess(await patch({ message_retention_days: JSON.stringify('unlimited') }));
  });

  test('a channel keeping messages forever is left alone; deletions are announced', async () => {
    const kept = await channel('kept-forever', { message_retention_days: JSON.stringify('unlimited') });
    const other = await channel('expiring');
    const keptId = await send(alice, kept);
    const goneId = await send(alice, other);
    // The newest message stays, so clients keep knowing max_message_id.
    await send(alice, other, 'recent');
    const knex = ts.server.deps.knex;
    // Everything happens inside the observed action, whether the job's timer or this call deletes.
    const events = await verifyAction(ts, alice, async () => {
      await knex('messages')
        .whereIn('id', [keptId, goneId])
        .update({ date_sent: new Date(Date.now() - 10 * 24 * 3600 * 1000) });
      assertSuccess(await patch({ message_retention_days: 5 }));
      await deleteExpiredMessages(ts.server.deps);
      await waitUntil(async () => !(await knex('messages').where({ id: goneId }).first('id')), 10_000);
    });
    expect(events.filter((e) => e.type === 'delete_message').flatMap((e) => e.message_ids ?? [e.message_id])).toContain(goneId);
    expect(await ts.server.deps.knex('messages').where({ id: keptId }).first('id')).toBeTruthy();
    assertSuccess(await patch({ message_retention_days: JSON.stringify('unlimited') }));
  });
});

test('a group holding an organization setting cannot be deactivated', async () => {
  const created = assertSuccess(await client(ts, ts.owner).post('/user_groups/create', { name: 'emoji-crew', description: 'x', members: [alice.id] }));
  const groupId = created.group_id as number;
  assertSuccess(await patch({ can_add_custom_emoji_group: { new: { direct_members: [], direct_subgroups: [groupId, groups['role:administrators']] } } }));
  const res = await client(ts, ts.owner).post(`/user_groups/${groupId}/deactivate`);
  expect(res.body).toMatchObject({ code: 'CANNOT_DEACTIVATE_GROUP_IN_USE', objections: [{ type: 'realm', settings: ['can_add_custom_emoji_group'] }] });
  assertSuccess(await patch({ can_add_custom_emoji_group: { new: groups['role:members'] } }));
  assertSuccess(await client(ts, ts.owner).post(`/user_groups/${groupId}/deactivate`));
});
