import { assertSuccess, client } from '../helpers/api';
import { Cast, makeCast, systemGroups } from '../helpers/cast';
import { startTestServer, TestServer, TestUser } from '../helpers/server';

/** The users every groups test works with. */
export type GroupsCast = Cast<'admin' | 'moderator' | 'alice' | 'bob' | 'guest'>;

/** A new server with the groups tests' cast, and the system groups' ids by name. */
export async function startGroupsServer(): Promise<{ ts: TestServer; cast: GroupsCast; sys: Record<string, number> }> {
  const ts = await startTestServer();
  const cast = await makeCast(ts, ['admin', 'moderator', 'alice', 'bob', 'guest']);
  return { ts, cast, sys: await systemGroups(ts) };
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
