import { assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

/** The users every groups test works with. */
export type GroupsPeople = Record<'owner' | 'admin' | 'moderator' | 'alice' | 'bob' | 'guest', TestUser>;

/** A new server with the groups tests' users, and the system groups' ids by name. */
export async function startGroupsServer(): Promise<{ ts: TestServer; people: GroupsPeople; sys: Record<string, number> }> {
  const ts = await startTestServer();
  const people: GroupsPeople = {
    owner: ts.owner,
    admin: await makeUser(ts, 200),
    moderator: await makeUser(ts, 300),
    alice: await makeUser(ts, 400, { fullName: 'Alice Liddell' }),
    bob: await makeUser(ts, 400, { fullName: 'Bob Builder' }),
    guest: await makeUser(ts, 600, { fullName: 'Gus Guest' }),
  };
  return { ts, people, sys: await systemGroups(ts) };
}

let counter = 0;

/** Creates a group through the API as `who`; returns its id. */
export async function createGroup(ts: TestServer, who: TestUser, params: Record<string, unknown> = {}): Promise<number> {
  counter += 1;
  const body = assertSuccess(await client(ts, who).post('/user_groups/create', { name: `group ${counter}`, description: '', members: [], ...params }));
  return body.group_id;
}

export async function getGroup(ts: TestServer, id: number): Promise<Record<string, any>> {
  const body = assertSuccess(await client(ts, ts.owner).get('/user_groups', { include_deactivated_groups: true }));
  return body.user_groups.find((g: { id: number }) => g.id === id);
}
