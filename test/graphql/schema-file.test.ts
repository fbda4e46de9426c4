import fs from 'node:fs';
import path from 'node:path';
import { schemaSdl } from '../../src/schema';

test('schema.graphql matches the schema the server builds', () => {
  const file = path.resolve(__dirname, '../../schema.graphql');
  const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (committed !== schemaSdl()) {
    throw new Error('schema.graphql is stale: run `npm run schema:print` and commit the result.');
  }
  expect(committed).toContain('type Query');
});
