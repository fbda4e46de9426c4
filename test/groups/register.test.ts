import { userGroupsSlice } from '../../src/core/groups/state';
import { stateSlices } from '../../src/core/register/slices';
import type { User } from '../../src/core/users/model';
import { User as UserModel } from '../../src/core/users/model';
import { assertSuccess, client } from '../helpers/api';
import { captureEvents, registerOptions } from '../helpers/events';
import { TestServer } from '../helpers/server';
import { createGroup, GroupsPeople, startGroupsServer } from './fixtures';

// Each suite starts a server and hashes several passwords; a loaded machine needs the headroom.
jest.setTimeout(120_000);

let ts: TestServer;
let people: GroupsPeople;
let sys: Record<string, number>;
let me: User;
beforeAll(async () => {
  ({ ts, people, sys } = await startGroupsServer());
  me = (await UserModel.query(ts.server.deps.knex).findById(people.alice.id))!;
});
afterAll(async () => {
  await ts.close();
});

const fetch = async (includeDeactivated: boolean) =>
  userGroupsSlice.fetch(ts.server.deps, me, registerOptions({ includeSubscribers: 'false' }, { include_deactivated_groups: includeDeactivated }));

test('the slice is registered under the realm_user_groups fetch type', () => {
  expect(stateSlices).toContain(userGroupsSlice);
  expect(userGroupsSlice.fetchTypes).toEqual(['realm_user_groups']);
});

test('realm_user_groups matches GET /user_groups, deactivated groups only when declared', async () => {
  const retired = await createGroup(ts, people.alice);
  assertSuccess(await client(ts, people.alice).post(`/user_groups/${retired}/deactivate`));
  const plain = await fetch(false);
  const declared = await fetch(true);
  expect(plain.realm_user_groups).toEqual(assertSuccess(await client(ts, people.alice).get('/user_groups')).user_groups);
  expect(declared.realm_user_groups).toEqual(
    assertSuccess(await client(ts, people.alice).get('/user_groups', { include_deactivated_groups: true })).user_groups,
  );
  expect((plain.realm_user_groups as { id: number }[]).some((g) => g.id === retired)).toBe(false);
  expect((declared.realm_user_groups as { id: number }[]).some((g) => g.id === retired)).toBe(true);
});

/** Brings a snapshot taken before some changes up to date by applying their events (twice). */
async function replay(includeDeactivated: boolean, change: () => Promise<void>) {
  const options = registerOptions({ includeSubscribers: 'false' }, { include_deactivated_groups: includeDeactivated });
  const before = await userGroupsSlice.fetch(ts.server.deps, me, options);
  const events = captureEvents(ts);
  await change();
  events.stop();
  for (let round = 0; round < 2; round++) {
    for (const d of events.deliveries) userGroupsSlice.apply!(before, d.event, me, options);
  }
  const after = await userGroupsSlice.fetch(ts.server.deps, me, options);
  expect(before).toEqual(after);
}

test.each([false, true])('applying events reproduces a fresh snapshot (include_deactivated_groups %s)', async (declared) => {
  let id = 0;
  const sub = await createGroup(ts, people.bob);
  await replay(declared, async () => {
    id = await createGroup(ts, people.alice, { members: [people.alice.id], subgroups: [sub] });
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { name: `renamed ${declared}`, description: 'new' }));
    assertSuccess(
      await client(ts, people.alice).patch(`/user_groups/${id}`, {
        can_mention_group: { new: { direct_members: [people.bob.id], direct_subgroups: [sys['role:moderators']] } },
      }),
    );
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/members`, { add: [people.bob.id, people.admin.id] }));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/members`, { delete: [people.admin.id] }));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/subgroups`, { delete: [sub] }));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/subgroups`, { add: [sub] }));
  });
  await replay(declared, async () => {
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/deactivate`));
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { name: `retired ${declared}` }));
  });
  await replay(declared, async () => {
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { deactivated: false }));
  });
  await replay(declared, async () => {
    assertSuccess(await client(ts, ts.owner).patch(`/users/${people.bob.id}`, { role: 300 }));
    assertSuccess(await client(ts, ts.owner).patch(`/users/${people.bob.id}`, { role: 400 }));
  });
});
