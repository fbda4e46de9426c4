const { config } = require('./test/jest-projects');

/** `npm test`: every test but the system suite's (Chromium, slapd), on the databases jest-projects names. */
module.exports = config({ testMatch: ['**/*.test.ts'], ignore: ['\\.system\\.test\\.ts$', '\\.faults\\.test\\.ts$'], maxWorkers: 3 });
