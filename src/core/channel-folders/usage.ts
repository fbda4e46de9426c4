import type { Knex } from 'knex';

/**
 * A folder that still holds channels cannot be archived. The channels feature registers the check
 * (archived channels count too, as in Zulip).
 */
export type FolderUsageCheck = (db: Knex, realmId: number, folderId: number) => Promise<boolean>;

const checks: FolderUsageCheck[] = [];

export function registerFolderUsageCheck(check: FolderUsageCheck): void {
  if (!checks.includes(check)) checks.push(check);
}

export async function folderInUse(db: Knex, realmId: number, folderId: number): Promise<boolean> {
  for (const check of checks) if (await check(db, realmId, folderId)) return true;
  return false;
}
