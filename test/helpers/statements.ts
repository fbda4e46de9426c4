import type { TestServer } from './server';

/** Counts the SQL statements (those `which` accepts) the server sends while `work` runs. */
export async function countStatements(ts: TestServer, work: () => Promise<unknown>, which: (sql: string) => boolean = () => true): Promise<number> {
  let count = 0;
  const onQuery = (query: { sql?: string }) => {
    if (which(query.sql ?? '')) count++;
  };
  ts.server.deps.knex.on('query', onQuery);
  try {
    await work();
  } finally {
    ts.server.deps.knex.off('query', onQuery);
  }
  return count;
}
