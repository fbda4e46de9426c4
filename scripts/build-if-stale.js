#!/usr/bin/env node
// `npm start` runs this first: it compiles (as `npm run build` does) only when a source is newer
// than the last build this script made, so a restart does not wait for tsc.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = [
  'src',
  'migrations',
  'bench',
  'web',
  'dashboard',
  'webapp',
  'scripts/build-webapp.js',
  'scripts/build-graphiql.js',
  'scripts/build-dashboard.js',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];

/** Newest modification time (ms) under `file`, 0 when it does not exist. */
function newest(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  // A directory's own time changes when a file in it is added, removed or renamed.
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

let built = 0;
try {
  built = fs.statSync(stamp).mtimeMs;
} catch {
  // Never built by this script: build.
}
const sources = Math.max(...inputs.map((name) => newest(path.join(root, name))));
if (built > 0 && sources <= built) process.exit(0);

// The stamp takes the time the build started, so a file saved during the build counts as newer.
const started = new Date();
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
if (result.status !== 0) process.exit(result.status ?? 1);
const page = spawnSync(process.execPath, [path.join(root, 'scripts/build-graphiql.js')], { stdio: 'inherit', cwd: root });
if (page.status !== 0) process.exit(page.status ?? 1);
require('./build-dashboard').buildDashboard();
require('./build-webapp').buildWebapp();
fs.mkdirSync(path.dirname(stamp), { recursive: true });
fs.writeFileSync(stamp, '');
fs.utimesSync(stamp, started, started);
