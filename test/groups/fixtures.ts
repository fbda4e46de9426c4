import { assertSuccess, client } from '../helpers/api';
import { makeUser, TestServer, TestUser } from '../helpers/server';

export interface Cast {
  owner: TestUser;
  admin: TestUser;
  moderator: TestUser;
  member: TestUser;
  other: TestUser;
  guest: TestUser;
}

/** One account per role, plus a second member. */
export async function makeCast(ts: TestServer): Promise<Cast> {
  return {
    owner: ts.owner,
    admin: await makeUser(ts, 200),
    moderator: await makeUser(ts, 300),
    member: await makeUser(ts, 400),
    other: await makeUser(ts, 400),
    guest: await makeUser(ts, 600),
  };
}

/** System group ids by name (role:members, ...). */
export async function systemGroups(ts: TestServer): Promise<Record<string, number>> {
  const rows = await ts.server.deps.knex('user_groups').where({ is_system_group: true }).select('id', 'name');
  return Object.fromEntries(rows.map((r: { id: number; name: string }) => [r.name, r.id]));
}

let counter = 0;

/** Creates a group through the API as `who`; returns its id. */
export async function createGroup(
  ts: TestServer,
  who: TestUser,
  params: Record<string, unknown> = {},
): Promise<number> {
  counter += 1;
  const body = assertSuccess(
    await client(ts, who).post('/user_groups/create', { name: `group ${counter}`, description: '', members: [], ...params }),
  );
  return body.group_id;
}

export async function getGroup(ts: TestServer, id: number): Promise<Record<string, any>> {
  const body = assertSuccess(await client(ts, ts.owner).get('/user_groups', { include_deactivated_groups: true }));
  return body.user_groups.find((g: { id: number }) => g.id === id);
}
