import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, fetchMessages, ids, messageFlags, ofType, sendDirect, sendToChannel, subscribe } from '../messages/helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let guest: TestUser;
let town: number;
let parrot: number;
let retired: number;

const react = (who: TestUser, id: number, params: Record<string, unknown>) => client(ts, who).post(`/messages/${id}/reactions`, params);
const unreact = (who: TestUser, id: number, params: Record<string, unknown>) => client(ts, who).delete(`/messages/${id}/reactions`, params);
const reactionsOf = async (who: TestUser, id: number) => assertSuccess(await client(ts, who).get(`/messages/${id}`)).message.reactions;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  town = await subscribe(ts, owner, 'town', [owner, alice, bob]);
  const knex = ts.server.deps.knex;
  const realmId = ts.server.deps.realmId;
  [{ id: parrot }] = await knex('realm_emoji')
    .insert({ realm_id: realmId, name: 'parrot', file_name: 'parrot.png', content_type: 'image/png' })
    .returning('id');
  [{ id: retired }] = await knex('realm_emoji')
    .insert({ realm_id: realmId, name: 'retired', file_name: 'r.png', content_type: 'image/png', deactivated: true })
    .returning('id');
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('adding', () => {
  test('by name alone, and with code and type; reactions appear on fetched messages', async () => {
    const id = await sendToChannel(ts, alice, town, 'r', 'react to me');
    assertSuccess(await react(bob, id, { emoji_name: 'thumbs_up' }));
    assertSuccess(await react(alice, id, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }));
    assertSuccess(await react(alice, id, { emoji_name: 'parrot', emoji_code: String(parrot), reaction_type: 'realm_emoji' }));
    assertSuccess(await react(bob, id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }));
    expect(await reactionsOf(carol, id)).toEqual([
      { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: bob.id },
      { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: alice.id },
      { emoji_name: 'parrot', emoji_code: String(parrot), reaction_type: 'realm_emoji', user_id: alice.id },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: bob.id },
    ]);
    const narrowed = await fetchMessages(ts, bob, {
      narrow: [
        ['channel', 'town'],
        ['has', 'reaction'],
      ],
    });
    expect(narrowed.messages.map((m: { id: number }) => m.id)).toEqual([id]);
  });

  test('a second reaction with the same code votes for the first one, under its name', async () => {
    const id = await sendToChannel(ts, alice, town, 'r', 'votes');
    assertSuccess(await react(alice, id, { emoji_name: 'thumbs_up' }));
    assertSuccess(await react(bob, id, { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
    expect((await reactionsOf(alice, id)).map((r: { emoji_name: string }) => r.emoji_name)).toEqual(['thumbs_up', 'thumbs_up']);
  });

  test('errors: duplicates, unknown names, mismatched codes, deactivated custom emoji', async () => {
    const id = await sendToChannel(ts, alice, town, 'r', 'errors');
    assertSuccess(await react(bob, id, { emoji_name: 'smile' }));
    assertError(await react(bob, id, { emoji_name: 'smile' }), 'REACTION_ALREADY_EXISTS', 'Reaction already exists.');
    assertError(await react(bob, id, { emoji_name: 'not_an_emoji' }), 'BAD_REQUEST', "Emoji 'not_an_emoji' does not exist");
    assertError(await react(bob, id, { emoji_name: 'smile', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' }), 'BAD_REQUEST', 'Invalid emoji code.');
    assertError(await react(bob, id, { emoji_name: 'octopus', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }), 'BAD_REQUEST', 'Invalid emoji name.');
    assertError(
      await react(bob, id, { emoji_name: 'retired', emoji_code: String(retired), reaction_type: 'realm_emoji' }),
      'BAD_REQUEST',
      'This custom emoji has been deactivated.',
    );
    assertError(await react(bob, id, { emoji_name: 'parrot', emoji_code: '99999', reaction_type: 'realm_emoji' }), 'BAD_REQUEST', 'Invalid custom emoji.');
    assertError(await react(bob, id, { emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'sticker' }), 'BAD_REQUEST', 'Invalid emoji type.');
    assertError(await react(bob, id, {}), 'REQUEST_VARIABLE_MISSING', "Missing 'emoji_name' argument");
  });

  test('messages one cannot see: Invalid message(s); a public message never received joins the history', async () => {
    const secret = await subscribe(ts, owner, 'secret', [owner, alice], { invite_only: true });
    const hidden = await sendToChannel(ts, alice, secret, 't', 'hush');
    const dm = await sendDirect(ts, alice, [owner], 'private');
    assertError(await react(bob, hidden, { emoji_name: 'smile' }), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await react(bob, dm, { emoji_name: 'smile' }), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await react(bob, 987654, { emoji_name: 'smile' }), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await react(guest, await sendToChannel(ts, alice, town, 'r', 'g'), { emoji_name: 'smile' }), 'BAD_REQUEST', 'Invalid message(s)');
    const id = await sendToChannel(ts, alice, town, 'r', 'for carol');
    assertSuccess(await react(carol, id, { emoji_name: 'smile' }));
    expect(await messageFlags(ts, carol, id)).toEqual(['read', 'historical']);
    expect((await fetchMessages(ts, carol, {})).messages.map((m: { id: number }) => m.id)).toContain(id);
  });
});

describe('removing', () => {
  test('by name or by code; a reaction that is not there is an error', async () => {
    const id = await sendToChannel(ts, alice, town, 'r', 'removals');
    assertSuccess(await react(bob, id, { emoji_name: 'smile' }));
    assertSuccess(await react(bob, id, { emoji_name: 'parrot' }));
    assertSuccess(await unreact(bob, id, { emoji_name: 'smile' }));
    assertError(await unreact(bob, id, { emoji_name: 'smile' }), 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    assertError(await unreact(bob, id, { emoji_name: 'parrot' }), 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    assertSuccess(await unreact(bob, id, { emoji_code: String(parrot), reaction_type: 'realm_emoji' }));
    assertError(await unreact(bob, id, {}), 'BAD_REQUEST', 'At least one of the following arguments must be present: emoji_name, emoji_code');
    expect(await reactionsOf(bob, id)).toEqual([]);
  });
});

describe('events', () => {
  test("reaction events go to the channel's subscribers, with the reacting user's id", async () => {
    const id = await sendToChannel(ts, alice, town, 'r', 'watch');
    const capture = captureEvents(ts);
    assertSuccess(await react(bob, id, { emoji_name: 'tada' }));
    assertSuccess(await unreact(bob, id, { emoji_name: 'tada' }));
    capture.stop();
    expect(capture.recipientsOf(ofType('reaction', 'add'))).toEqual(ids(owner, alice, bob));
    const [added, removed] = capture.for(alice.id).filter(ofType('reaction'));
    const shape = {
      type: 'reaction',
      user_id: bob.id,
      message_id: id,
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
    };
    expect(added).toEqual({ ...shape, op: 'add' });
    expect(removed).toEqual({ ...shape, op: 'remove' });
  });

  test('a non-subscriber who reacted keeps hearing about the message; direct messages reach participants', async () => {
    const id = await sendToChannel(ts, alice, town, 'r', 'carol joins in');
    assertSuccess(await react(carol, id, { emoji_name: 'smile' }));
    const capture = captureEvents(ts);
    assertSuccess(await react(alice, id, { emoji_name: 'smile' }));
    const dm = await sendDirect(ts, alice, [bob], 'psst');
    assertSuccess(await react(bob, dm, { emoji_name: 'smile' }));
    capture.stop();
    expect(capture.recipientsOf((e) => e.type === 'reaction' && e.message_id === id)).toEqual(ids(owner, alice, bob, carol));
    expect(capture.recipientsOf((e) => e.type === 'reaction' && e.message_id === dm)).toEqual(ids(alice, bob));
  });

  test('reactors count as topic participants for @**topic**', async () => {
    const id = await sendToChannel(ts, alice, town, 'participation', 'start');
    assertSuccess(await react(bob, id, { emoji_name: 'smile' }));
    const ping = await sendToChannel(ts, alice, town, 'participation', 'hey @**topic**');
    expect(await messageFlags(ts, bob, ping)).toEqual(['topic_wildcard_mentioned', 'wildcard_mentioned']);
    expect(await messageFlags(ts, owner, ping)).toEqual([]);
  });
});
