const path = require('node:path');

/**
 * The fault suite (`npm run test:faults`): Parley processes on a PostgreSQL and a Redis the suite
 * starts and restarts itself, so it runs alone, one file at a time, on neither test database.
 */
module.exports = {
  rootDir: path.resolve(__dirname),
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.faults.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  setupFiles: ['<rootDir>/test/helpers/setup-env.ts'],
  testTimeout: 300000,
  maxWorkers: 1,
};
