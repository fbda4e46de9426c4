#!/usr/bin/env node
// Bundles the dashboard page (dashboard/) into dist/dashboard with esbuild: `npm run build` and
// `npm start` run it; GET /dashboard serves the result.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'dashboard');
const out = path.join(root, 'dist', 'dashboard');

function buildDashboard() {
  fs.mkdirSync(out, { recursive: true });
  esbuild.buildSync({
    entryPoints: [path.join(source, 'main.ts')],
    outfile: path.join(out, 'app.js'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2022'],
    platform: 'browser',
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'app.css']) fs.copyFileSync(path.join(source, file), path.join(out, file));
}

module.exports = { buildDashboard };
if (require.main === module) buildDashboard();
