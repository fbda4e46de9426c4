import type { Knex } from 'knex';

/**
 * Turning enable_drafts_synchronization off deletes every draft the server stores for the user
 * (clients keep their local copies, and no drafts event is sent). Drafts live in the `drafts`
 * table, keyed by user_id; until that table exists there is nothing to delete.
 */
export async function deleteServerDrafts(db: Knex, realmId: number, userId: number): Promise<number> {
  const result = await db.raw("SELECT to_regclass('drafts') IS NOT NULL AS present");
  if (!result.rows[0].present) return 0;
  return db('drafts').where({ realm_id: realmId, user_id: userId }).delete();
}
