/** The system suite: tests that need Debian packages (Chromium, slapd), run by `npm run test:system`. */
const base = require('./jest.config');

module.exports = {
  ...base,
  testMatch: ['**/*.system.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 60000,
  maxWorkers: 1,
};
