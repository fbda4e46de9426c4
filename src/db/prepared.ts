import type { Knex } from 'knex';
import pg from 'pg';
import { fromDatabase } from './connect';

/** A statement written with `?` placeholders (and no `?` elsewhere in its text). */
export interface Statement {
  sql: string;
  bindings: readonly unknown[];
}

/** node-postgres's text of each Statement's SQL ($1, $2, ... for the placeholders), made once. */
const nativeTexts = new Map<string, string>();

function nativeText(sql: string): string {
  let text = nativeTexts.get(sql);
  if (text === undefined) {
    let n = 0;
    nativeTexts.set(sql, (text = sql.replace(/\?/g, () => `$${++n}`)));
  }
  return text;
}

type Connections = { acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): Promise<unknown> };

/**
 * Runs a statement (built on `db`) that PostgreSQL prepares once per connection and afterwards
 * only executes, and returns its rows. For the hottest statements, whose planning costs more than
 * their execution (sending's channel lookup plans in about 0.5 ms and runs in 0.15). `name` must
 * identify the SQL text: a different text needs a different name. On PGlite, whose connection is
 * not node-postgres's, the statement simply runs. Works on the pool and inside a transaction (whose
 * connection knex hands out). The statement bypasses knex's query events, which `watchWrites`
 * (core/users/auth-cache.ts) relies on: never use it for statements writing users, api_keys or realms.
 */
export async function runPrepared(db: Knex, name: string, query: Knex.Raw | Knex.QueryBuilder | Statement): Promise<Record<string, unknown>[]> {
  const client = db.client as unknown as Connections;
  const connection = await client.acquireConnection();
  let prepared: pg.QueryResult | null = null;
  try {
    if (connection instanceof pg.Client) {
      // A Statement skips knex's query building, which costs more than the statement's execution.
      const native = 'toSQL' in query ? query.toSQL().toNative() : { sql: nativeText(query.sql), bindings: query.bindings };
      // Outside knex, so its query-error hook does not see a lost connection: mark it here.
      prepared = await connection.query({ name, text: native.sql, values: native.bindings as unknown[] }).catch((error: unknown) => {
        fromDatabase(error);
        throw error;
      });
    }
  } finally {
    await client.releaseConnection(connection);
  }
  if (prepared) return prepared.rows;
  const result = (await ('toSQL' in query ? query : db.raw(query.sql, query.bindings as Knex.RawBinding[]))) as
    | Record<string, unknown>[]
    | { rows: Record<string, unknown>[] };
  return Array.isArray(result) ? result : result.rows;
}
