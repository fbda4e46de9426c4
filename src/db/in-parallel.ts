import type { Knex } from 'knex';

/**
 * Runs independent queries concurrently on a pool, one after another inside a transaction (a
 * transaction holds a single connection, which cannot run two queries at once).
 */
export async function inParallel<T extends readonly unknown[]>(db: Knex, tasks: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  if ((db as Knex & { isTransaction?: boolean }).isTransaction) {
    const out: unknown[] = [];
    for (const task of tasks) out.push(await task());
    return out as unknown as T;
  }
  return (await Promise.all(tasks.map((task) => task()))) as unknown as T;
}
