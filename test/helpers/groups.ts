import { TestServer } from './server';

/** System group ids by name (role:members, ...). */
export async function systemGroups(ts: TestServer): Promise<Record<string, number>> {
  const rows = await ts.server.deps.knex('user_groups').where({ is_system_group: true }).select('id', 'name');
  return Object.fromEntries(rows.map((r: { id: number; name: string }) => [r.name, r.id]));
}
