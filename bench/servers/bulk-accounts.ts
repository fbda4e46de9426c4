import type { Knex } from 'knex';
import { createUser } from '../../src/core/users/actions';
import { generateApiKey, hashApiKey } from '../../src/core/users/credentials';
import type { AppDeps } from '../../src/core/deps';

export interface BenchAccount {
  id: number;
  email: string;
  apiKey: string;
}

/** Above this many accounts, the rest are copied in SQL (see createAccounts). */
const THROUGH_THE_API = 200;

/**
 * Accounts for a scenario. Creating one through the action tells every existing user, so making
 * 10,000 one by one costs time quadratic in the count (minutes of setup for nothing measured):
 * beyond the first THROUGH_THE_API, accounts are copies of the last one made through the action
 * (its row, settings, groups and default-channel subscriptions), each with its own API key.
 */
export async function createAccounts(deps: AppDeps, knex: Knex, count: number, prefix: string): Promise<BenchAccount[]> {
  const accounts: BenchAccount[] = [];
  const made = Math.min(count, THROUGH_THE_API);
  for (let i = 0; i < made; i++) {
    const { user, apiKey } = await createUser(deps, null, { email: `${prefix}-${i}@example.com`, fullName: `${prefix} ${i}`, password: null });
    accounts.push({ id: user.id, email: user.delivery_email, apiKey });
  }
  if (count === made) return accounts;
  const template = accounts[made - 1].id;
  const columnsOf = async (table: string, except: string[]) => {
    const { rows } = await knex.raw(
      'SELECT column_name AS name FROM information_schema.columns WHERE table_name = ? AND table_schema = current_schema() ORDER BY ordinal_position',
      [table],
    );
    return (rows as { name: string }[])
      .map((c) => c.name)
      .filter((c) => !except.includes(c))
      .map((c) => `"${c}"`);
  };
  const userColumns = await columnsOf('users', ['id', 'delivery_email', 'full_name']);
  const settingColumns = await columnsOf('user_settings', ['user_id']);
  const subscriptionColumns = await columnsOf('subscriptions', ['id', 'user_id']);
  await knex.transaction(async (trx) => {
    const { rows } = await trx.raw(
      `INSERT INTO users (${userColumns.join(', ')}, delivery_email, full_name)
       SELECT ${userColumns.join(', ')}, ? || '-' || g || '@example.com', ? || ' ' || g FROM users, generate_series(?::int, ?::int) g WHERE id = ?
       RETURNING id, delivery_email`,
      [prefix, prefix, made, count - 1, template],
    );
    const created = (rows as { id: number; delivery_email: string }[]).sort((a, b) => a.id - b.id);
    const ids = created.map((r) => r.id);
    await trx.raw(
      `INSERT INTO user_settings (user_id, ${settingColumns.join(', ')}) SELECT u, ${settingColumns.join(', ')} FROM user_settings, unnest(?::int[]) u WHERE user_id = ?`,
      [ids, template],
    );
    await trx.raw('INSERT INTO user_group_members (group_id, user_id) SELECT m.group_id, u FROM user_group_members m, unnest(?::int[]) u WHERE m.user_id = ?', [
      ids,
      template,
    ]);
    await trx.raw(
      `INSERT INTO subscriptions (${subscriptionColumns.join(', ')}, user_id) SELECT ${subscriptionColumns.join(', ')}, u FROM subscriptions, unnest(?::int[]) u WHERE user_id = ?`,
      [ids, template],
    );
    const keys = created.map(() => generateApiKey());
    await trx.raw('INSERT INTO api_keys (realm_id, user_id, key_hash) SELECT ?, u, k FROM unnest(?::int[], ?::text[]) AS t(u, k)', [
      deps.realmId,
      ids,
      keys.map(hashApiKey),
    ]);
    created.forEach((row, i) => accounts.push({ id: row.id, email: row.delivery_email, apiKey: keys[i] }));
  });
  return accounts;
}
