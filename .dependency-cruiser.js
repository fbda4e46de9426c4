/**
 * Parley's layers, top to bottom; a module may import its own layer or any layer below, never above.
 *   1. entry points: main, cli, server, app, bootstrap, startup-errors, startup-checks, operator/
 *   2. API faces: rest/, schema/ + resolvers/ (GraphQL), graphql-ws/, web/, ops/
 *   3. core/ (actions, register state, the dependency container core/deps.ts)
 *   4. infrastructure: db/ above realtime/ (the unit of work publishes onto the event bus)
 *   5. base: config/, errors, log, failure-log, version, types/, validation/
 */
const ENTRY = '^src/(main|cli|server|app|bootstrap|startup-errors|startup-checks)\\.ts$|^src/operator/';
const FACES = '^src/(rest|schema|resolvers|graphql-ws|web|ops)/';
const CORE = '^src/core/';
const DB = '^src/db/';
const REALTIME = '^src/realtime/';
const BASE = '^src/(errors|log|failure-log|version)\\.ts$|^src/(config|types|validation)/';

/** One rule per layer: it may not import anything listed in `above`. */
function layer(name, path, above) {
  return {
    name: `${name}-imports-higher-layer`,
    comment: `${name} may import only its own layer or lower ones.`,
    severity: 'error',
    from: { path },
    to: { path: above },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('faces', FACES, ENTRY),
    layer('core', CORE, [ENTRY, FACES]),
    layer('db', DB, [ENTRY, FACES, CORE]),
    layer('realtime', REALTIME, [ENTRY, FACES, CORE, DB]),
    layer('base', BASE, [ENTRY, FACES, CORE, DB, REALTIME]),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(migrations|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
