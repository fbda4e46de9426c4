import { RoleValue } from '../../src/core/users/roles';
import { makeUser, startTestServer, TestServer, TestUser } from './server';

export type Part = 'admin' | 'moderator' | 'alice' | 'bob' | 'carol' | 'guest';
export type Cast<P extends Part = Part> = { owner: TestUser } & Record<P, TestUser>;

/** Everyone a cast can hold besides the owner, in the order they are created. */
const PARTS: Record<Part, { role: RoleValue; fullName?: string }> = {
  admin: { role: 200 },
  moderator: { role: 300 },
  alice: { role: 400, fullName: 'Alice Liddell' },
  bob: { role: 400, fullName: 'Bob Builder' },
  carol: { role: 400, fullName: 'Carol Singer' },
  guest: { role: 600, fullName: 'Gus Guest' },
};

/**
 * The owner plus one account per part: all of them, or only the parts named. Accounts are always
 * created in the order above, so a test's ids and generated emails do not depend on how it asks.
 */
export async function makeCast<P extends Part = Part>(ts: TestServer, parts?: readonly P[]): Promise<Cast<P>> {
  const cast: Record<string, TestUser> = { owner: ts.owner };
  for (const [part, { role, fullName }] of Object.entries(PARTS)) {
    if (!parts || parts.includes(part as P)) cast[part] = await makeUser(ts, role, fullName === undefined ? {} : { fullName });
  }
  return cast as Cast<P>;
}

/** A new server with its cast, for tests that keep the two together. */
export async function startWithCast<P extends Part = Part>(parts?: readonly P[]): Promise<Cast<P> & { ts: TestServer }> {
  const ts = await startTestServer();
  return { ts, ...(await makeCast(ts, parts)) };
}

/** System group ids by name (role:members, ...). */
export async function systemGroups(ts: TestServer): Promise<Record<string, number>> {
  const rows = await ts.server.deps.knex('user_groups').where({ is_system_group: true }).select('id', 'name');
  return Object.fromEntries(rows.map((r: { id: number; name: string }) => [r.name, r.id]));
}
