import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let admin: TestUser;
let alice: TestUser;
let lobby: number;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  assertSuccess(await client(ts, admin).post('/users/me/subscriptions', { subscriptions: [{ name: 'lobby' }] }));
  lobby = assertSuccess(await client(ts, admin).get('/get_stream_id', { stream: 'lobby' })).stream_id;
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const UPDATE = `mutation ($settings: JSON!) { updateRealmSettings(settings: $settings) { changed settings { name enableReadReceipts canCreateGroups } } }`;

test('updateRealmSettings goes through the PATCH /realm action, events included', async () => {
  const groups = await systemGroups(ts);
  let res: Awaited<ReturnType<typeof graphql>> | undefined;
  const events = await verifySharedAction(ts, [alice], async () => {
    res = await graphql(ts, ts.owner, UPDATE, {
      settings: { name: 'GraphQL Org', enableReadReceipts: false, can_create_groups: { new: groups['role:administrators'] } },
    });
  });
  expect(res!.errors).toBeUndefined();
  expect(res!.data!.updateRealmSettings).toEqual({
    changed: { name: 'updated', enable_read_receipts: false, can_create_groups: groups['role:administrators'] },
    settings: { name: 'GraphQL Org', enableReadReceipts: false, canCreateGroups: groups['role:administrators'] },
  });
  expect(events).toEqual([
    { type: 'realm', op: 'update', property: 'name', value: 'GraphQL Org' },
    { type: 'realm', op: 'update', property: 'enable_read_receipts', value: false },
    { type: 'realm', op: 'update_dict', property: 'default', data: { can_create_groups: groups['role:administrators'] } },
  ]);
});

test('updateRealmSettings refuses what PATCH /realm refuses', async () => {
  expect(graphqlError(await graphql(ts, alice, UPDATE, { settings: { name: 'Mine' } }))).toEqual({
    code: 'UNAUTHORIZED_PRINCIPAL',
    message: 'Must be an organization administrator',
  });
  expect(graphqlError(await graphql(ts, admin, UPDATE, { settings: { waitingPeriodThreshold: 2 } }))).toEqual({
    code: 'UNAUTHORIZED_PRINCIPAL',
    message: 'Must be an organization owner',
  });
  expect(graphqlError(await graphql(ts, ts.owner, UPDATE, { settings: { videoChatProvider: 9 } }))).toEqual({
    code: 'BAD_REQUEST',
    message: 'Invalid video_chat_provider 9',
  });
  expect(graphqlError(await graphql(ts, ts.owner, UPDATE, { settings: { noSuchSetting: 1 } }))).toEqual({
    code: 'BAD_REQUEST',
    message: 'Invalid setting: no_such_setting',
  });
});

test('default channels and domains over GraphQL', async () => {
  const added = await graphql(ts, admin, `mutation ($id: Int!) { addDefaultChannel(channelId: $id) { defaultChannelIds } }`, { id: lobby });
  expect(added.data!.addDefaultChannel.defaultChannelIds).toEqual([lobby]);
  expect((await graphql(ts, alice, '{ defaultChannelIds }')).data!.defaultChannelIds).toEqual([lobby]);
  expect(graphqlError(await graphql(ts, alice, `mutation { removeDefaultChannel(channelId: ${lobby}) { defaultChannelIds } }`)).code).toBe(
    'UNAUTHORIZED_PRINCIPAL',
  );
  const removed = await graphql(ts, admin, `mutation { removeDefaultChannel(channelId: ${lobby}) { defaultChannelIds } }`);
  expect(removed.data!.removeDefaultChannel.defaultChannelIds).toEqual([]);

  const domain = await graphql(
    ts,
    ts.owner,
    'mutation { addRealmDomain(domain: "Example.com", allowSubdomains: false) { realmDomain { id domain allowSubdomains } } }',
  );
  expect(domain.data!.addRealmDomain.realmDomain).toEqual({ id: 'example.com', domain: 'example.com', allowSubdomains: false });
  const changed = await graphql(
    ts,
    ts.owner,
    'mutation { changeRealmDomain(domain: "example.com", allowSubdomains: true) { realmDomain { allowSubdomains } } }',
  );
  expect(changed.data!.changeRealmDomain.realmDomain.allowSubdomains).toBe(true);
  expect((await graphql(ts, alice, '{ realmDomains { domain allowSubdomains } }')).data!.realmDomains).toEqual([
    { domain: 'example.com', allowSubdomains: true },
  ]);
  expect(graphqlError(await graphql(ts, admin, 'mutation { removeRealmDomain(domain: "example.com") { domain } }')).code).toBe('UNAUTHORIZED_PRINCIPAL');
  expect((await graphql(ts, ts.owner, 'mutation { removeRealmDomain(domain: "example.com") { domain } }')).data!.removeRealmDomain.domain).toBe('example.com');
});

test('deactivateRealm is for owners only', async () => {
  expect(graphqlError(await graphql(ts, admin, 'mutation { deactivateRealm { deactivated } }'))).toEqual({
    code: 'UNAUTHORIZED_PRINCIPAL',
    message: 'Must be an organization owner',
  });
  expect((await graphql(ts, ts.owner, 'mutation { deactivateRealm { deactivated } }')).data!.deactivateRealm.deactivated).toBe(true);
  const res = await client(ts, alice).get('/users/me');
  expect(res.body.code).toBe('REALM_DEACTIVATED');
});
