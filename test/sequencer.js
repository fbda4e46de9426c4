const Sequencer = require('@jest/test-sequencer').default;
const fs = require('node:fs');
const path = require('node:path');

/**
 * Longest first, so that no worker starts a slow file when the others are nearly done. A file's
 * length is its duration in the last run jest remembers, else the one in test/durations.json (a
 * measured run, for a clean checkout), else an estimate from its size. PostgreSQL files take about
 * a third of their PGlite time.
 */
const recorded = JSON.parse(fs.readFileSync(path.join(__dirname, 'durations.json'), 'utf8'));
const SECONDS_PER_BYTE = 1 / 1000;
const POSTGRES_SHARE = 1 / 3;

class LongestFirst extends Sequencer {
  sort(tests) {
    const weight = new Map(tests.map((test) => [test, this.weight(test)]));
    return [...tests].sort((a, b) => weight.get(b) - weight.get(a));
  }

  weight(test) {
    const cached = this.time(test);
    if (cached != null) return cached / 1000;
    const name = path.relative(path.join(test.context.config.rootDir, 'test'), test.path);
    const pglite = recorded[name] ?? (test.context.hasteFS.getSize(test.path) ?? 0) * SECONDS_PER_BYTE;
    return test.context.config.displayName?.name === 'postgres' ? pglite * POSTGRES_SHARE : pglite;
  }
}

module.exports = LongestFirst;
