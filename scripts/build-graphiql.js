#!/usr/bin/env node
// Bundles the GraphiQL page (web/graphiql) with React and GraphiQL from node_modules into
// dist/graphiql, so /graphql serves a working IDE without any request leaving the machine.
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');

esbuild
  .build({
    entryPoints: { graphiql: path.join(root, 'web/graphiql/main.js') },
    outdir: path.join(root, 'dist/graphiql'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl' },
    logLevel: 'warning',
    legalComments: 'linked',
  })
  .catch(() => process.exit(1));
