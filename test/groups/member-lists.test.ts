import { assertSuccess, client } from '../helpers/api';
import { RedisPair, startRedisPair } from '../helpers/redis-pair';
import { describeWithRedis } from '../helpers/redis';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { countStatements } from '../helpers/statements';
import { waitUntil } from '../helpers/wait';
import { createGroup } from './fixtures';

jest.setTimeout(180_000);

/**
 * Group member lists come from a per-process cache (src/core/groups/member-lists.ts): GET
 * /user_groups and POST /register must show the database's members after each kind of change,
 * in this process and in another one, and a warm read must not read the membership rows again.
 */
const membersOf = async (ts: TestServer, id: number) => {
  const body = assertSuccess(await client(ts, ts.owner).get('/user_groups', { include_deactivated_groups: true }));
  return body.user_groups.find((g: { id: number }) => g.id === id).members as number[];
};
const readsMemberships = (sql: string) => /from "user_group_members"/i.test(sql);

describe('group member lists in one process', () => {
  let ts: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: number;

  beforeAll(async () => {
    ts = await startTestServer();
    alice = await makeUser(ts, 400);
    bob = await makeUser(ts, 400);
    group = await createGroup(ts, ts.owner, { members: [alice.id] });
  }, 120_000);
  afterAll(async () => {
    await ts?.close();
  }, 60_000);

  test('a warm read does not read memberships', async () => {
    await membersOf(ts, group);
    expect(await countStatements(ts, () => membersOf(ts, group), readsMemberships)).toBe(0);
  });

  test('adding, removing, deactivating and a script write are seen by the next read', async () => {
    assertSuccess(await client(ts, ts.owner).post(`/user_groups/${group}/members`, { add: [bob.id] }));
    expect(await membersOf(ts, group)).toEqual([alice.id, bob.id].sort((x, y) => x - y));
    assertSuccess(await client(ts, ts.owner).delete(`/users/${bob.id}`));
    expect(await membersOf(ts, group)).toEqual([alice.id]);
    assertSuccess(await client(ts, ts.owner).post(`/users/${bob.id}/reactivate`));
    expect(await membersOf(ts, group)).toEqual([alice.id, bob.id].sort((x, y) => x - y));
    await ts.server.deps.knex('user_group_members').where({ group_id: group, user_id: bob.id }).delete();
    expect(await membersOf(ts, group)).toEqual([alice.id]);
  });

  test('POST /register lists the same members as GET /user_groups', async () => {
    const register = async () =>
      assertSuccess(await client(ts, alice).post('/register', { fetch_event_types: JSON.stringify(['realm_user_groups']) })).realm_user_groups.find(
        (g: { id: number }) => g.id === group,
      ).members as number[];
    expect(await register()).toEqual(await membersOf(ts, group));
  });
});

describeWithRedis()('group member lists across processes', () => {
  let pair: RedisPair;
  let a: TestServer;
  let b: TestServer;
  let carol: TestUser;
  let group: number;

  beforeAll(async () => {
    pair = await startRedisPair();
    ({ a, b } = pair);
    carol = await makeUser(a, 400);
    group = await createGroup(a, a.owner, { members: [] });
  });
  afterAll(async () => {
    await pair?.close();
  });

  test("members added on A show in B's lists once the event arrives", async () => {
    await waitUntil(async () => (await membersOf(b, group))?.length === 0);
    assertSuccess(await client(a, a.owner).post(`/user_groups/${group}/members`, { add: [carol.id] }));
    await waitUntil(async () => (await membersOf(b, group)).includes(carol.id));
    assertSuccess(await client(a, a.owner).delete(`/users/${carol.id}`));
    await waitUntil(async () => !(await membersOf(b, group)).includes(carol.id));
  });
});
