const { config } = require('./test/jest-projects');

/** The system suite: tests that need Debian packages (Chromium, slapd), run by `npm run test:system`. */
module.exports = { ...config({ testMatch: ['**/*.system.test.ts'], ignore: [], maxWorkers: 1 }), testTimeout: 60000 };
