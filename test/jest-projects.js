const path = require('node:path');

const rootDir = path.resolve(__dirname, '..');

/** Tests run TypeScript through SWC (decorator metadata on, define semantics off, as in tsconfig). */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

/**
 * Tests that touch no database (pure functions, parsers, in-memory structures): they run once, on
 * the first database of the run, not once per database. docs/testing.md says how to tell.
 */
const DATABASE_FREE = [
  'accounts/log-redaction',
  'cli/progress',
  'config/config',
  'core/wake-loop',
  'db/snapshot-cache',
  'db/table-cache',
  'db/write-batches',
  'emoji/data',
  'graphql/event-kinds',
  'graphql/parity',
  'graphql/schema-file',
  'limits/client-address',
  'linkifiers/render',
  'markdown/content',
  'markdown/html-diff',
  'messages/send-snapshot-store',
  'ops/log-batch',
  'presence/connect',
  'realtime/shared-execution',
  'rest/form-body',
  'webapp/search-parse',
  'webapp/feed-logic',
  'webapp/widgets',
  'webapp/video-call',
  'submessages/widget',
];
const databaseFree = DATABASE_FREE.map((name) => `/test/${name}\\.test\\.ts$`);

/**
 * The databases tests run on: PGlite, or PostgreSQL when TEST_DATABASE_URL is set. TEST_DATABASES
 * ("pglite,postgres") runs both in one jest run, as two projects sharing the workers, so neither
 * database's slowest files leave a core idle at the end.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const databases = (process.env.TEST_DATABASES ?? (postgresUrl ? 'postgres' : 'pglite')).split(',').map((d) => d.trim());
for (const database of databases) {
  if (database !== 'pglite' && database !== 'postgres') throw new Error(`TEST_DATABASES: unknown database ${database}`);
  if (database === 'postgres' && !postgresUrl) throw new Error('TEST_DATABASES names postgres: set TEST_DATABASE_URL');
}

function project(database, index, { testMatch, ignore }) {
  return {
    displayName: database,
    rootDir,
    testEnvironment: '<rootDir>/test/environment.js',
    roots: ['<rootDir>/test'],
    testMatch,
    testPathIgnorePatterns: ['/node_modules/', ...ignore, ...(index > 0 ? databaseFree : [])],
    transform: { '^.+\\.ts$': ['@swc/jest', swc] },
    setupFiles: ['<rootDir>/test/helpers/setup-env.ts', `<rootDir>/test/helpers/database-${database}.ts`],
  };
}

/** A suite's settings: the files it runs and how many at once. */
function config({ testMatch, ignore, maxWorkers }) {
  return {
    rootDir,
    projects: databases.map((database, index) => project(database, index, { testMatch, ignore })),
    testSequencer: '<rootDir>/test/sequencer.js',
    // Also the bound of hooks without their own: starting a server takes a minute on a loaded machine.
    testTimeout: 120000,
    maxWorkers,
    // A worker runs a hundred files or more, and what they leave on its heap adds up: one past this
    // after a file is replaced by a fresh worker rather than left to run out of memory.
    workerIdleMemoryLimit: '2GB',
  };
}

module.exports = { config };
