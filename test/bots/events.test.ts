import { assertSuccess, client } from '../helpers/api';
import { verifyActionFor } from '../helpers/events';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';

// Every bot change, replayed on register snapshots of its owner, an administrator and a bystander
// (who hears realm_user changes only), must equal a fresh register.
let ts: TestServer;
let people: Record<'admin' | 'alice' | 'bob' | 'carol', TestUser>;

beforeAll(async () => {
  ts = await startTestServer();
  people = {
    admin: await makeUser(ts, 200),
    alice: await makeUser(ts, 400, { fullName: 'Alice Liddell' }),
    bob: await makeUser(ts, 400, { fullName: 'Bob Builder' }),
    carol: await makeUser(ts, 400, { fullName: 'Carol Singer' }),
  };
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }] }));
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], invite_only: true }));
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const watchers = () => [people.alice, people.admin, people.bob];
const watch = (action: () => Promise<unknown>, users: TestUser[] = watchers()) => verifyActionFor(ts, users, action as never, { clientGravatar: false });

let counter = 0;
async function botOf(owner: TestUser, extra: Record<string, unknown> = {}): Promise<number> {
  counter += 1;
  return assertSuccess(await client(ts, owner).post('/bots', { full_name: `Event Bot ${counter}`, short_name: `event${counter}`, ...extra })).user_id;
}

test('creating a bot: realm_user add for everyone, realm_bot add for its owner and the administrators', async () => {
  const [alice, admin, bob] = await watch(() =>
    client(ts, people.alice).post('/bots', {
      full_name: 'Created Bot',
      short_name: 'created',
      bot_type: 3,
      payload_url: JSON.stringify('http://127.0.0.1:9/hook'),
    }),
  );
  const botAdd = (events: Record<string, any>[]) => events.find((e) => e.type === 'realm_bot');
  // Since feature level 474 the bot object is its configuration only; the rest is in realm_user.
  expect(botAdd(alice)).toMatchObject({
    op: 'add',
    bot: {
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      services: [{ base_url: 'http://127.0.0.1:9/hook', interface: 1, token: expect.stringMatching(/^[A-Za-z0-9]{32}$/) }],
    },
  });
  expect(Object.keys(botAdd(alice)!.bot).sort()).toEqual([
    'default_all_public_streams',
    'default_events_register_stream',
    'default_sending_stream',
    'services',
    'user_id',
  ]);
  expect(botAdd(admin)).toMatchObject({ op: 'add' });
  expect(botAdd(bob)).toBeUndefined();
  expect(bob.find((e) => e.type === 'realm_user')).toMatchObject({
    op: 'add',
    person: { full_name: 'Created Bot', is_bot: true, bot_type: 3, bot_owner_id: people.alice.id },
  });
});

test('renaming, default channels, all public channels, service URL', async () => {
  const id = await botOf(people.alice, { bot_type: 3, payload_url: JSON.stringify('http://127.0.0.1:9/a') });
  await watch(() => client(ts, people.alice).patch(`/bots/${id}`, { full_name: 'Renamed Event Bot' }));
  await watch(() => client(ts, people.alice).patch(`/bots/${id}`, { default_sending_stream: 'general', default_all_public_streams: true }));
  await watch(() => client(ts, people.admin).patch(`/bots/${id}`, { default_sending_stream: '' }));
  const [alice] = await watch(() =>
    client(ts, people.alice).patch(`/bots/${id}`, { service_payload_url: JSON.stringify('http://127.0.0.1:9/b'), service_interface: 2 }),
  );
  expect(alice).toEqual([
    expect.objectContaining({
      type: 'realm_bot',
      op: 'update',
      bot: { user_id: id, services: [expect.objectContaining({ base_url: 'http://127.0.0.1:9/b', interface: 2 })] },
    }),
  ]);
});

test('a private default channel', async () => {
  const id = await botOf(ts.owner);
  const [owner, admin, bob] = await watch(
    () => client(ts, ts.owner).patch(`/bots/${id}`, { default_sending_stream: 'hidden' }),
    [ts.owner, people.admin, people.bob],
  );
  expect(owner).toHaveLength(1);
  expect(admin).toHaveLength(1);
  expect(bob).toEqual([]);
});

test('changing the owner between members and to an administrator', async () => {
  const id = await botOf(people.alice);
  const [alice, admin, bob] = await watch(() => client(ts, people.alice).patch(`/bots/${id}`, { bot_owner_id: people.bob.id }));
  expect(alice.map((e) => `${e.type}/${e.op}`).sort()).toEqual(['realm_bot/delete', 'realm_user/update']);
  expect(admin.map((e) => `${e.type}/${e.op}`).sort()).toEqual(['realm_user/update']);
  expect(bob.map((e) => `${e.type}/${e.op}`).sort()).toEqual(['realm_bot/add', 'realm_user/update']);
  await watch(() => client(ts, people.bob).patch(`/bots/${id}`, { bot_owner_id: people.admin.id }));
});

test('role changes through PATCH /bots', async () => {
  const id = await botOf(people.alice);
  await watch(() => client(ts, people.admin).patch(`/bots/${id}`, { role: 300 }));
});

test('deactivating and reactivating a bot', async () => {
  const id = await botOf(people.alice);
  const [alice] = await watch(() => client(ts, people.alice).delete(`/bots/${id}`));
  expect(alice).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: id, is_active: false } })]));
  expect(alice.filter((e) => e.type === 'realm_bot')).toEqual([]);
  const [again] = await watch(() => client(ts, people.admin).post(`/users/${id}/reactivate`));
  expect(again.filter((e) => e.type === 'realm_bot')).toEqual([]);
});

test('deactivating a person deactivates their bots, as everyone sees', async () => {
  const dave = await makeUser(ts, 400);
  await botOf(dave);
  await botOf(dave);
  await watch(() => client(ts, ts.owner).delete(`/users/${dave.id}`), [people.admin, people.bob]);
});

test('an administrator renaming a bot through PATCH /users/{id}', async () => {
  const id = await botOf(people.alice);
  const [alice] = await watch(() => client(ts, people.admin).patch(`/users/${id}`, { full_name: 'Renamed By Admin' }));
  expect(alice.map((e) => `${e.type}/${e.op}`).sort()).toEqual(['realm_user/update']);
});

test('promoting a member to administrator shows them every bot; demoting hides the others’ again', async () => {
  await botOf(people.alice);
  await botOf(people.carol);
  const [carol] = await watch(() => client(ts, ts.owner).patch(`/users/${people.carol.id}`, { role: 200 }), [people.carol, people.bob]);
  expect(carol.filter((e) => e.type === 'realm_bot').every((e) => e.op === 'add')).toBe(true);
  await watch(() => client(ts, ts.owner).patch(`/users/${people.carol.id}`, { role: 400 }), [people.carol, people.bob]);
});
