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

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Tests that need system packages (Chromium, slapd) run in `npm run test:system`.
  testPathIgnorePatterns: ['/node_modules/', '\\.system\\.test\\.ts$'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  setupFiles: ['<rootDir>/test/helpers/setup-env.ts'],
  // Also the bound of hooks without their own: starting a server takes a minute on a loaded machine.
  testTimeout: 120000,
  maxWorkers: 2,
};
