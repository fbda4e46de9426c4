import { assertError, assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, fetchMessages, ids, messageFlags, ofType, sendDirect, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let admin: TestUser;
let moderator: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let guest: TestUser;
let town: number;
let groups: Record<string, number>;

const edit = (who: TestUser, id: number, params: Record<string, unknown>) => client(ts, who).patch(`/messages/${id}`, params);
const message = async (who: TestUser, id: number, params: Record<string, unknown> = {}) =>
  assertSuccess(await client(ts, who).get(`/messages/${id}`, params)).message;
const history = async (who: TestUser, id: number, params: Record<string, unknown> = {}) =>
  assertSuccess(await client(ts, who).get(`/messages/${id}/history`, params)).message_history;
const age = (id: number, seconds: number) =>
  ts.server.deps
    .knex('messages')
    .where({ id })
    .update({ date_sent: new Date(Date.now() - seconds * 1000) });
const realmSettings = (values: Record<string, unknown>) =>
  ts.server.deps
    .knex('realm_message_settings')
    .insert({ realm_id: ts.server.deps.realmId, ...values })
    .onConflict('realm_id')
    .merge();
const resetSettings = () => ts.server.deps.knex('realm_message_settings').delete();

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  admin = await makeUser(ts, 200);
  moderator = await makeUser(ts, 300);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  town = await subscribe(ts, owner, 'town', [owner, admin, moderator, alice, bob, guest]);
  groups = await systemGroups(ts);
}, 120_000);
afterAll(() => ts.close(), 60_000);
afterEach(() => resetSettings());

describe('content edits', () => {
  test('the sender edits; mentions and flags follow; everyone who can see it hears of it', async () => {
    const id = await sendToChannel(ts, alice, town, 'edits', 'hello world');
    const capture = captureEvents(ts);
    expect(assertSuccess(await edit(alice, id, { content: 'hello @**Bob Builder**' }))).toEqual({ result: 'success', msg: '', detached_uploads: [] });
    capture.stop();
    expect(await messageFlags(ts, bob, id)).toEqual(['mentioned']);
    const edited = await message(bob, id);
    expect(edited.content).toContain('user-mention');
    expect(edited.last_edit_timestamp).toEqual(expect.any(Number));
    expect(edited.last_moved_timestamp).toBeUndefined();
    expect(edited.edit_history).toEqual([
      { user_id: alice.id, timestamp: edited.last_edit_timestamp, prev_content: 'hello world', prev_rendered_content: '<p>hello world</p>' },
    ]);
    expect(capture.recipientsOf(ofType('update_message'))).toEqual(ids(owner, admin, moderator, alice, bob, guest));
    const forBob = capture.for(bob.id).find(ofType('update_message'))!;
    expect(forBob).toEqual({
      type: 'update_message',
      user_id: alice.id,
      edit_timestamp: expect.any(Number),
      message_id: id,
      rendering_only: false,
      stream_name: 'town',
      stream_id: town,
      orig_content: 'hello world',
      orig_rendered_content: '<p>hello world</p>',
      content: 'hello @**Bob Builder**',
      rendered_content: expect.stringContaining('@Bob Builder'),
      is_me_message: false,
      message_ids: [id],
      flags: ['mentioned'],
    });
    expect(capture.for(alice.id).find(ofType('update_message'))!.flags).toEqual(['read']);
  });

  test('blank content becomes "(deleted)"; NUL is refused', async () => {
    const id = await sendToChannel(ts, alice, town, 'edits', 'soon gone');
    assertSuccess(await edit(alice, id, { content: '   ' }));
    expect((await message(alice, id, { apply_markdown: false })).content).toBe('(deleted)');
    assertError(await edit(alice, id, { content: 'a\u0000' }), 'BAD_REQUEST', 'Message must not contain null bytes');
  });

  test('who may edit content, and until when', async () => {
    const id = await sendToChannel(ts, alice, town, 'edits', 'mine');
    assertError(await edit(bob, id, { content: 'theirs' }), 'BAD_REQUEST', "You don't have permission to edit this message");
    assertError(await edit(owner, id, { content: 'theirs' }), 'BAD_REQUEST', "You don't have permission to edit this message");
    await age(id, 3600);
    assertError(await edit(alice, id, { content: 'late' }), 'BAD_REQUEST', 'The time limit for editing this message has passed');
    await realmSettings({ message_content_edit_limit_seconds: null });
    assertSuccess(await edit(alice, id, { content: 'no limit' }));
    await realmSettings({ allow_message_editing: false });
    assertError(await edit(alice, id, { content: 'again' }), 'BAD_REQUEST', 'Your organization has turned off message editing');
  });

  test('malformed edits', async () => {
    const id = await sendToChannel(ts, alice, town, 'malformed', 'x');
    const dm = await sendDirect(ts, alice, [bob], 'dm');
    assertError(await edit(alice, id, {}), 'BAD_REQUEST', 'Nothing to change');
    assertError(await edit(alice, id, { topic: 'malformed' }), 'BAD_REQUEST', 'Nothing to change');
    assertError(await edit(alice, dm, { topic: 'x' }), 'BAD_REQUEST', 'Direct messages cannot have topics.');
    assertError(await edit(alice, dm, { stream_id: town }), 'BAD_REQUEST', 'Direct messages cannot be moved to channels.');
    assertError(await edit(alice, id, { content: 'y', propagate_mode: 'change_all' }), 'BAD_REQUEST', 'Invalid propagate_mode without topic edit');
    assertError(await edit(alice, id, { content: 'y', stream_id: town }), 'BAD_REQUEST', 'Cannot change message content while changing channel');
    assertError(await edit(alice, id, { topic: 'y', propagate_mode: 'change_some' }), 'BAD_REQUEST', 'Invalid propagate_mode');
    assertError(await edit(alice, id, { topic: '✔ general chat' }), 'BAD_REQUEST', 'General chat cannot be marked as resolved');
    assertError(await edit(alice, id, { topic: 'bad\u0001' }), 'BAD_REQUEST', 'Invalid character in topic, at position 4!');
    assertError(await edit(alice, 987654, { content: 'y' }), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await edit(carol, dm, { content: 'y' }), 'BAD_REQUEST', 'Invalid message(s)');
    assertSuccess(await edit(alice, dm, { content: 'edited dm' }));
  });
});

describe('topic edits', () => {
  test('change_one, change_later and change_all', async () => {
    const [m1, m2, m3] = [
      await sendToChannel(ts, alice, town, 'move me', '1'),
      await sendToChannel(ts, bob, town, 'move me', '2'),
      await sendToChannel(ts, alice, town, 'move me', '3'),
    ];
    assertSuccess(await edit(alice, m1, { topic: 'one only' }));
    expect((await message(alice, m1)).subject).toBe('one only');
    expect((await message(alice, m2)).subject).toBe('move me');
    const capture = captureEvents(ts);
    assertSuccess(await edit(alice, m2, { topic: 'later', propagate_mode: 'change_later' }));
    capture.stop();
    expect([(await message(alice, m2)).subject, (await message(alice, m3)).subject]).toEqual(['later', 'later']);
    const event = capture.for(carol.id).find(ofType('update_message'));
    expect(event).toBeUndefined();
    expect(capture.for(bob.id).find(ofType('update_message'))).toEqual({
      type: 'update_message',
      user_id: alice.id,
      edit_timestamp: expect.any(Number),
      message_id: m2,
      rendering_only: false,
      stream_name: 'town',
      stream_id: town,
      propagate_mode: 'change_later',
      orig_subject: 'move me',
      subject: 'later',
      topic_links: [],
      message_ids: [m2, m3],
      flags: ['read'],
    });
    assertSuccess(await edit(bob, m3, { topic: 'together', propagate_mode: 'change_all' }));
    expect([(await message(alice, m2)).subject, (await message(alice, m3)).subject]).toEqual(['together', 'together']);
    const moved = await message(alice, m3);
    expect(moved.last_moved_timestamp).toEqual(expect.any(Number));
    expect(moved.last_edit_timestamp).toBeUndefined();
  });

  test('resolving and unresolving a topic is not a move', async () => {
    const a = await sendToChannel(ts, alice, town, 'question', 'how?');
    const b = await sendToChannel(ts, bob, town, 'question', 'like this');
    // Anyone who can see a public channel may resolve its topics (can_resolve_topics_group is everyone).
    assertSuccess(await edit(carol, a, { topic: '✔ question', propagate_mode: 'change_all' }));
    expect((await message(alice, b)).subject).toBe('✔ question');
    expect((await message(alice, b)).last_moved_timestamp).toBeUndefined();
    const resolved = await fetchMessages(ts, alice, {
      narrow: [
        ['channel', 'town'],
        ['is', 'resolved'],
      ],
    });
    // The notification bot says who resolved it, in the topic itself.
    const [first, second, notice] = resolved.messages;
    expect([first.id, second.id]).toEqual([a, b]);
    expect(notice).toMatchObject({
      sender_full_name: 'Notification Bot',
      subject: '✔ question',
      content: expect.stringContaining('has marked this topic as resolved.'),
    });
    expect(notice.content).toContain(`data-user-id="${carol.id}"`);
    assertSuccess(await edit(bob, b, { topic: 'question', propagate_mode: 'change_all' }));
    expect((await message(alice, a)).subject).toBe('question');
    const after = await fetchMessages(ts, alice, {
      narrow: [
        ['channel', 'town'],
        ['topic', 'question'],
      ],
    });
    expect(after.messages.at(-1)).toMatchObject({
      sender_full_name: 'Notification Bot',
      content: expect.stringContaining('has marked this topic as unresolved.'),
    });
  });

  test('moves are announced where the messages went and, when asked, where they were', async () => {
    const a = await sendToChannel(ts, alice, town, 'old place', 'one');
    const b = await sendToChannel(ts, alice, town, 'old place', 'two');
    assertSuccess(await edit(alice, b, { topic: 'new place', propagate_mode: 'change_one', send_notification_to_old_thread: true }));
    const old = (
      await fetchMessages(ts, alice, {
        narrow: [
          ['channel', 'town'],
          ['topic', 'old place'],
        ],
        apply_markdown: false,
      })
    ).messages;
    expect(old.map((m: { id: number }) => m.id)[0]).toBe(a);
    expect(old.at(-1)).toMatchObject({
      sender_full_name: 'Notification Bot',
      content: `A message was moved from this topic to #**town>new place** by @_**Alice Liddell|${alice.id}**.`,
    });
    const fresh = (
      await fetchMessages(ts, alice, {
        narrow: [
          ['channel', 'town'],
          ['topic', 'new place'],
        ],
        apply_markdown: false,
      })
    ).messages;
    expect(fresh.map((m: { content: string }) => m.content)).toEqual([
      'two',
      `A message was moved here from #**town>old place** by @_**Alice Liddell|${alice.id}**.`,
    ]);

    // A whole topic, without a notice in the new place.
    assertSuccess(await edit(alice, a, { topic: 'quiet place', propagate_mode: 'change_all', send_notification_to_new_thread: false }));
    const quiet = (
      await fetchMessages(ts, alice, {
        narrow: [
          ['channel', 'town'],
          ['topic', 'quiet place'],
        ],
        apply_markdown: false,
      })
    ).messages;
    expect(
      quiet.every((m: { sender_full_name: string; content: string }) => m.sender_full_name !== 'Notification Bot' || !m.content.includes('moved here')),
    ).toBe(true);
  });

  test('time limits and permissions for topic edits', async () => {
    const old = await sendToChannel(ts, alice, town, 'ancient', 'old');
    await sendToChannel(ts, alice, town, 'ancient', 'new');
    await age(old, 8 * 24 * 3600);
    assertError(await edit(bob, old, { topic: 'renamed' }), 'BAD_REQUEST', "The time limit for editing this message's topic has passed.");
    const limited = assertError(
      await edit(bob, old + 1, { topic: 'renamed', propagate_mode: 'change_all' }),
      'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      'You only have permission to move the 1/2 most recent messages in this topic.',
    );
    expect(limited).toMatchObject({ first_message_id_allowed_to_move: old + 1, total_messages_in_topic: 2, total_messages_allowed_to_move: 1 });
    assertSuccess(await edit(moderator, old, { topic: 'renamed', propagate_mode: 'change_all' }));

    const id = await sendToChannel(ts, alice, town, 'guarded', 'x');
    await realmSettings({ can_move_messages_between_topics_group: groups['role:administrators'] });
    assertError(await edit(bob, id, { topic: 'elsewhere' }), 'BAD_REQUEST', "You don't have permission to edit this message");
    assertSuccess(await edit(bob, id, { topic: '✔ guarded' }));
    await realmSettings({ can_resolve_topics_group: groups['role:administrators'] });
    assertError(await edit(bob, id, { topic: 'guarded' }), 'BAD_REQUEST', "You don't have permission to resolve topics in this channel.");
    assertSuccess(await edit(admin, id, { topic: 'elsewhere' }));
  });
});

describe('channel moves', () => {
  test('moving into a private channel: non-members lose the messages and get delete_message', async () => {
    const vault = await subscribe(ts, owner, 'vault', [owner, alice], { invite_only: true, history_public_to_subscribers: true });
    const first = await sendToChannel(ts, alice, town, 'to the vault', 'a');
    const second = await sendToChannel(ts, bob, town, 'to the vault', 'b');
    assertSuccess(await client(ts, bob).post('/messages/flags', { messages: [first], op: 'add', flag: 'starred' }));
    const capture = captureEvents(ts);
    assertSuccess(await edit(alice, first, { stream_id: vault, propagate_mode: 'change_all' }));
    capture.stop();
    for (const m of [first, second]) expect((await message(alice, m)).stream_id).toBe(vault);
    assertError(await client(ts, bob).get(`/messages/${first}`), 'BAD_REQUEST', 'Invalid message(s)');
    expect(capture.recipientsOf(ofType('delete_message'))).toEqual(ids(admin, moderator, bob, guest));
    expect(capture.for(bob.id).find(ofType('delete_message'))).toEqual({
      type: 'delete_message',
      message_ids: [first, second],
      message_type: 'stream',
      stream_id: town,
      topic: 'to the vault',
    });
    const update = capture.for(alice.id).find(ofType('update_message'))!;
    expect(update).toMatchObject({
      stream_id: town,
      new_stream_id: vault,
      orig_subject: 'to the vault',
      propagate_mode: 'change_all',
      message_ids: [first, second],
    });
    expect(update.subject).toBeUndefined();
    expect(capture.recipientsOf(ofType('update_message'))).toEqual(ids(owner, alice));
    const moved = await message(alice, first);
    expect(moved.edit_history[0]).toMatchObject({ prev_stream: town, stream: vault, user_id: alice.id });
  });

  test('moving needs permission, access to the target, and a channel one may post in', async () => {
    const id = await sendToChannel(ts, alice, town, 'stay', 'x');
    const hidden = await subscribe(ts, owner, 'hidden', [owner], { invite_only: true });
    assertError(await edit(alice, id, { stream_id: hidden }), 'BAD_REQUEST', 'Invalid channel ID');
    const announce = await subscribe(ts, owner, 'announce', [owner, alice]);
    assertSuccess(await client(ts, owner).patch(`/streams/${announce}`, { can_send_message_group: JSON.stringify({ new: groups['role:administrators'] }) }));
    assertError(await edit(alice, id, { stream_id: announce }), 'BAD_REQUEST', 'You do not have permission to post in this channel.');
    await realmSettings({ can_move_messages_between_channels_group: groups['role:administrators'] });
    const other = await subscribe(ts, owner, 'other', [owner, alice]);
    assertError(await edit(alice, id, { stream_id: other }), 'BAD_REQUEST', "You don't have permission to move this message");
    assertSuccess(await edit(admin, id, { stream_id: other, topic: 'arrived' }));
    expect(await message(alice, id)).toMatchObject({ stream_id: other, subject: 'arrived', display_recipient: 'other' });
  });

  test('topic preferences move with a whole topic', async () => {
    const id = await sendToChannel(ts, alice, town, 'followed', 'x');
    assertSuccess(await client(ts, bob).post('/user_topics', { stream_id: town, topic: 'followed', visibility_policy: 3 }));
    const capture = captureEvents(ts);
    assertSuccess(await edit(alice, id, { topic: 'still followed', propagate_mode: 'change_all' }));
    capture.stop();
    expect(capture.for(bob.id).filter(ofType('user_topic'))).toEqual([
      { type: 'user_topic', stream_id: town, topic_name: 'followed', last_updated: expect.any(Number), visibility_policy: 0 },
      { type: 'user_topic', stream_id: town, topic_name: 'still followed', last_updated: expect.any(Number), visibility_policy: 3 },
    ]);
  });
});

describe('edit history', () => {
  test('snapshots as the spec describes them', async () => {
    const id = await sendToChannel(ts, alice, town, 'draft', 'Hello!');
    expect(await history(bob, id)).toEqual([
      { topic: 'draft', content: 'Hello!', rendered_content: '<p>Hello!</p>', timestamp: expect.any(Number), user_id: alice.id },
    ]);
    assertSuccess(await edit(alice, id, { content: 'Howdy!' }));
    assertSuccess(await edit(bob, id, { topic: 'final' }));
    const other = await subscribe(ts, owner, 'archive-room', [owner, alice, bob]);
    assertSuccess(await edit(admin, id, { stream_id: other }));
    const snapshots = await history(bob, id);
    expect(snapshots).toEqual([
      { topic: 'draft', content: 'Hello!', rendered_content: '<p>Hello!</p>', timestamp: expect.any(Number), user_id: alice.id },
      {
        topic: 'draft',
        content: 'Howdy!',
        rendered_content: '<p>Howdy!</p>',
        prev_content: 'Hello!',
        prev_rendered_content: '<p>Hello!</p>',
        content_html_diff: expect.stringContaining('highlight_text_inserted'),
        timestamp: expect.any(Number),
        user_id: alice.id,
      },
      { topic: 'final', prev_topic: 'draft', content: 'Howdy!', rendered_content: '<p>Howdy!</p>', timestamp: expect.any(Number), user_id: bob.id },
      {
        topic: 'final',
        content: 'Howdy!',
        rendered_content: '<p>Howdy!</p>',
        stream: other,
        prev_stream: town,
        timestamp: expect.any(Number),
        user_id: admin.id,
      },
    ]);
    expect(snapshots[1].content_html_diff).toContain('highlight_text_deleted');
  });

  test('empty topics, access, and organizations without edit history', async () => {
    const id = await sendToChannel(ts, alice, town, '', 'x');
    assertSuccess(await edit(alice, id, { topic: 'named' }));
    expect((await history(alice, id)).map((s: { topic: string; prev_topic?: string }) => [s.topic, s.prev_topic])).toEqual([
      ['general chat', undefined],
      ['named', 'general chat'],
    ]);
    expect((await history(alice, id, { allow_empty_topic_name: true }))[1].prev_topic).toBe('');
    const dm = await sendDirect(ts, alice, [bob], 'private');
    assertError(await client(ts, carol).get(`/messages/${dm}/history`), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await client(ts, carol).get('/messages/987654/history'), 'BAD_REQUEST', 'Invalid message(s)');
    await realmSettings({ message_edit_history_visibility_policy: 3 });
    assertError(await client(ts, alice).get(`/messages/${id}/history`), 'BAD_REQUEST', 'Message edit history is disabled in this organization');
    expect((await message(alice, id)).edit_history).toBeUndefined();
    expect((await message(alice, id)).last_moved_timestamp).toEqual(expect.any(Number));
  });
});

describe('deleting', () => {
  test('own messages within the limit; delete_message in the bulk shape', async () => {
    const id = await sendToChannel(ts, alice, town, 'gone', 'oops');
    const bobsUnread = async () => assertSuccess(await client(ts, bob).post('/register', { fetch_event_types: '["message"]' })).unread_msgs.count;
    const unreadBefore = await bobsUnread();
    const capture = captureEvents(ts);
    assertSuccess(await client(ts, alice).delete(`/messages/${id}`));
    capture.stop();
    // The recipients' rows go with the message: nobody keeps an unread count for it.
    expect(Number((await ts.server.deps.knex('user_messages').where({ message_id: id }).count('* as n').first())!.n)).toBe(0);
    expect(await bobsUnread()).toBe(unreadBefore - 1);
    expect(capture.recipientsOf(ofType('delete_message'))).toEqual(ids(owner, admin, moderator, alice, bob, guest));
    expect(capture.for(bob.id).find(ofType('delete_message'))).toEqual({
      type: 'delete_message',
      message_ids: [id],
      message_type: 'stream',
      stream_id: town,
      topic: 'gone',
    });
    assertError(await client(ts, alice).get(`/messages/${id}`), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await client(ts, alice).delete(`/messages/${id}`), 'BAD_REQUEST', 'Invalid message(s)');
    const dm = await sendDirect(ts, alice, [bob], 'private');
    const dmCapture = captureEvents(ts);
    assertError(await client(ts, bob).delete(`/messages/${dm}`), 'BAD_REQUEST', "You don't have permission to delete this message");
    assertSuccess(await client(ts, alice).delete(`/messages/${dm}`));
    dmCapture.stop();
    expect(dmCapture.recipientsOf(ofType('delete_message'))).toEqual(ids(alice, bob));
    expect(dmCapture.for(bob.id).find(ofType('delete_message'))).toEqual({ type: 'delete_message', message_ids: [dm], message_type: 'private' });
  });

  test('permissions and the time limit', async () => {
    const id = await sendToChannel(ts, alice, town, 'keep', 'x');
    assertError(await client(ts, bob).delete(`/messages/${id}`), 'BAD_REQUEST', "You don't have permission to delete this message");
    assertError(await client(ts, moderator).delete(`/messages/${id}`), 'BAD_REQUEST', "You don't have permission to delete this message");
    await age(id, 3600);
    assertError(await client(ts, alice).delete(`/messages/${id}`), 'BAD_REQUEST', 'The time limit for deleting this message has passed');
    assertSuccess(await client(ts, admin).delete(`/messages/${id}`));
    const mine = await sendToChannel(ts, alice, town, 'keep', 'y');
    await realmSettings({ can_delete_own_message_group: groups['role:nobody'] });
    assertError(await client(ts, alice).delete(`/messages/${mine}`), 'BAD_REQUEST', "You don't have permission to delete this message");
    assertError(await client(ts, alice).delete('/messages/987654'), 'BAD_REQUEST', 'Invalid message(s)');
  });

  test("deleting a channel's first message moves first_message_id on", async () => {
    const room = await subscribe(ts, owner, 'first-room', [owner]);
    const first = await sendToChannel(ts, owner, room, 't', 'a');
    const second = await sendToChannel(ts, owner, room, 't', 'b');
    assertSuccess(await client(ts, owner).delete(`/messages/${first}`));
    expect(assertSuccess(await client(ts, owner).get(`/streams/${room}`)).stream.first_message_id).toBe(second);
  });
});
