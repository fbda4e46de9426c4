const { TestEnvironment } = require('jest-environment-node');
const sharedPglite = require('./helpers/shared-pglite');

/**
 * Node's test environment, plus the worker's shared PGlite instance (test/helpers/shared-pglite.js)
 * for the test files' servers. That instance lives in the worker's realm, so its dates are the
 * worker's Date: test files use the same Date, so `instanceof Date` holds for values it returns.
 */
class ParleyEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    sharedPglite.startOfFile();
    this.global.Date = Date;
    this.global.parleySharedPglite = sharedPglite;
  }

  async teardown() {
    sharedPglite.endOfFile();
    await super.teardown();
  }
}

module.exports = ParleyEnvironment;
