/**
 * Seeding a large organization straight in SQL, for the scenarios that need thousands of accounts
 * (register, web): copies of one member's row, each with settings and that member's system groups.
 */
export type Sql = <T = Record<string, any>>(text: string, bindings?: unknown[]) => Promise<T[]>;

/** A table's columns, quoted, without `except`: what a copy of a row takes from the original. */
export async function columnsOf(sql: Sql, table: string, except: string[]): Promise<string[]> {
  const rows = await sql<{ name: string }>(
    'SELECT column_name AS name FROM information_schema.columns WHERE table_name = ? AND table_schema = current_schema() ORDER BY ordinal_position',
    [table],
  );
  return rows
    .map((c) => c.name)
    .filter((c) => !except.includes(c))
    .map((c) => `"${c}"`);
}

/** `count` accounts copied from `memberId`'s row, addressed `<prefix>-<n>@example.com`. */
export async function copyMembers(sql: Sql, memberId: number, count: number, prefix: string): Promise<void> {
  const userColumns = await columnsOf(sql, 'users', ['id', 'delivery_email', 'full_name']);
  await sql(
    `INSERT INTO users (${userColumns.join(', ')}, delivery_email, full_name)
     SELECT ${userColumns.join(', ')}, '${prefix}-' || g || '@example.com', 'Bench User ' || g FROM users, generate_series(1, ?) g WHERE id = ?`,
    [count, memberId],
  );
  await sql(
    'INSERT INTO user_settings (user_id, realm_id) SELECT id, realm_id FROM users u WHERE NOT EXISTS (SELECT 1 FROM user_settings s WHERE s.user_id = u.id)',
  );
  await sql(
    `INSERT INTO user_group_members (group_id, user_id)
     SELECT m.group_id, u.id FROM user_group_members m, users u WHERE m.user_id = ? AND u.delivery_email LIKE '${prefix}-%'`,
    [memberId],
  );
}
