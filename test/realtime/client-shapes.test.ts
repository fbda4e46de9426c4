import { assertSuccess, client } from '../helpers/api';
import { getEvents, registerQueue, verifyAction, verifyActionFor } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

/**
 * Through real actions and real event queues: each feature's events reach a client in the shape
 * its register options and capabilities ask for.
 */
let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let outsider: TestUser;

const api = (who: TestUser) => client(ts, who);
const channelId = async (name: string) => assertSuccess(await api(owner).get('/get_stream_id', { stream: name })).stream_id as number;
const drain = async (who: TestUser, queueId: string) => (await getEvents(ts, who, queueId, -1, { dontBlock: true })).filter((e) => e.type !== 'heartbeat');

async function channel(name: string, members: TestUser[], extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(await api(owner).post('/users/me/subscriptions', { subscriptions: [{ name }], principals: members.map((u) => u.id), ...extra }));
  return channelId(name);
}

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  outsider = await makeUser(ts, 400, { fullName: 'Olive Outsider' });
}, SERVER_HOOK_TIMEOUT);
afterAll(() => ts.close(), 60_000);

describe('messages', () => {
  test('content follows apply_markdown; avatar_url follows client_gravatar', async () => {
    const town = await channel('town', [owner, alice, bob]);
    const html = await registerQueue(ts, bob, { clientGravatar: false, extra: { apply_markdown: true, event_types: ['message'] } });
    const markdown = await registerQueue(ts, bob, { clientGravatar: true, extra: { apply_markdown: false, event_types: ['message'] } });
    assertSuccess(await api(alice).post('/messages', { type: 'stream', to: town, topic: 'shapes', content: '**bold**' }));
    const [rendered] = await drain(bob, html.queueId);
    const [raw] = await drain(bob, markdown.queueId);
    expect(rendered.message).toMatchObject({ content: '<p><strong>bold</strong></p>', content_type: 'text/html', sender_id: alice.id });
    expect(raw.message).toMatchObject({ content: '**bold**', content_type: 'text/x-markdown' });
    for (const event of [rendered, raw]) {
      expect(event.message.rendered_content).toBeUndefined();
      expect(event.message.sender_has_public_gravatar).toBeUndefined();
    }
    expect(typeof rendered.message.avatar_url).toBe('string');
    // Gravatar users' avatars are computed by clients that asked to.
    expect(raw.message.avatar_url).toBe(null);
  });

  test('all_public_streams queues get public channel messages, without flags, and never private ones', async () => {
    const open = await channel('open-plaza', [owner, alice]);
    const closed = await channel('closed-room', [owner, alice], { invite_only: true });
    const watcher = await registerQueue(ts, outsider, { allPublicStreams: true, eventTypes: ['message'] });
    assertSuccess(await api(alice).post('/messages', { type: 'stream', to: open, topic: 't', content: 'for all' }));
    assertSuccess(await api(alice).post('/messages', { type: 'stream', to: closed, topic: 't', content: 'secret' }));
    const events = await drain(outsider, watcher.queueId);
    expect(events.map((e) => e.message.content)).toEqual(['for all']);
    expect(events[0].flags).toEqual([]);
  });

  test('delete_message follows bulk_message_deletion', async () => {
    const town = await channelId('town');
    const id = assertSuccess(await api(alice).post('/messages', { type: 'stream', to: town, topic: 'gone', content: 'x' })).id;
    const bulk = await registerQueue(ts, bob, { eventTypes: ['delete_message'], capabilities: { bulk_message_deletion: true } });
    const single = await registerQueue(ts, bob, { eventTypes: ['delete_message'] });
    assertSuccess(await api(owner).delete(`/messages/${id}`));
    expect((await drain(bob, bulk.queueId))[0]).toMatchObject({ message_ids: [id], stream_id: town, topic: 'gone' });
    const [one] = await drain(bob, single.queueId);
    expect(one).toMatchObject({ message_id: id, stream_id: town, topic: 'gone' });
    expect(one.message_ids).toBeUndefined();
  });
});

describe('settings', () => {
  test('no client gets the legacy settings events any more; the older layout follows user_settings', async () => {
    const events = await verifyAction(ts, alice, () => api(alice).patch('/settings', { left_side_userlist: true }));
    expect(events.map((e) => e.type)).toEqual(['user_settings']);
    const notices = await verifyAction(ts, alice, () => api(alice).patch('/settings', { enable_sounds: false }));
    expect(notices.map((e) => e.type)).toEqual(['user_settings']);
    const modern = await verifyAction(ts, alice, () => api(alice).patch('/settings', { enable_sounds: true }), {
      capabilities: { user_settings_object: true },
    });
    expect(modern.map((e) => e.type)).toEqual(['user_settings']);
  });
});

describe('channels', () => {
  test('archiving: is_archived for archived_channels clients, a deletion for the others', async () => {
    const id = await channel('to-archive', [owner, alice]);
    const [modern] = await verifyActionFor(ts, [alice], () => api(owner).delete(`/streams/${id}`), { capabilities: { archived_channels: true } });
    expect(modern.filter((e) => e.type === 'stream')).toEqual([expect.objectContaining({ op: 'update', property: 'is_archived', value: true, stream_id: id })]);
    assertSuccess(await api(owner).patch(`/streams/${id}`, { is_archived: false }));
    const legacy = await verifyAction(ts, alice, () => api(owner).delete(`/streams/${id}`));
    const deletion = legacy.find((e) => e.type === 'stream')!;
    expect(deletion).toMatchObject({ op: 'delete', stream_ids: [id] });
    expect(deletion.for_archiving).toBeUndefined();
    expect(legacy.some((e) => e.property === 'is_archived')).toBe(false);
    // Unarchiving brings the channel back to both kinds of clients.
    await verifyActionFor(ts, [alice], () => api(owner).patch(`/streams/${id}`, { is_archived: false }), { capabilities: { archived_channels: true } });
    assertSuccess(await api(owner).delete(`/streams/${id}`));
    const back = await verifyAction(ts, alice, () => api(owner).patch(`/streams/${id}`, { is_archived: false }));
    expect(back.some((e) => 'for_unarchiving' in e)).toBe(false);
  });

  test('notification settings are the user’s defaults unless the client accepts null', async () => {
    await channel('notify', [owner, alice]);
    const settingsOf = async (capabilities?: Record<string, boolean>) => {
      const state = (await registerQueue(ts, alice, { fetchEventTypes: ['subscription'], ...(capabilities ? { capabilities } : {}) })).state;
      return state.subscriptions.find((s: { name: string }) => s.name === 'notify');
    };
    expect((await settingsOf({ notification_settings_null: true })).desktop_notifications).toBe(null);
    assertSuccess(await api(alice).patch('/settings', { enable_stream_desktop_notifications: true }));
    expect((await settingsOf()).desktop_notifications).toBe(true);
    assertSuccess(await api(alice).patch('/settings', { enable_stream_desktop_notifications: false }));
    expect((await settingsOf()).desktop_notifications).toBe(false);
  });

  test('typing in a channel reaches its subscribers whose clients show channel typing', async () => {
    const room = await channel('typing-room', [owner, alice, bob]);
    const able = await registerQueue(ts, bob, { eventTypes: ['typing'], capabilities: { stream_typing_notifications: true } });
    const unable = await registerQueue(ts, bob, { eventTypes: ['typing'] });
    const stranger = await registerQueue(ts, outsider, { eventTypes: ['typing'], capabilities: { stream_typing_notifications: true } });
    assertSuccess(await api(alice).post('/typing', { type: 'channel', op: 'start', stream_id: room, topic: 'plans' }));
    expect(await drain(bob, able.queueId)).toEqual([
      expect.objectContaining({
        type: 'typing',
        op: 'start',
        message_type: 'stream',
        stream_id: room,
        topic: 'plans',
        sender: { user_id: alice.id, email: alice.email },
      }),
    ]);
    expect(await drain(bob, unable.queueId)).toEqual([]);
    expect(await drain(outsider, stranger.queueId)).toEqual([]);
  });

  test('typing in a private channel one cannot access is refused like an unknown channel', async () => {
    const hidden = await channel('hidden-typing', [owner], { invite_only: true });
    const res = await api(outsider).post('/typing', { type: 'channel', op: 'start', stream_id: hidden, topic: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
  });
});
