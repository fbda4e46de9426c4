#!/usr/bin/env node
// Bundles the web app (webapp/) into dist/webapp with esbuild: `npm run build` and `npm start` run
// it; src/web/webapp.ts serves the result at / and /static/webapp/. File names carry a content hash,
// so the files are cached for good and a new build is fetched at once.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'webapp');
const out = path.join(root, 'dist', 'webapp');
const assets = path.join(out, 'assets');
const PUBLIC_PATH = '/static/webapp/';

/** Replaces a file in one step, so a server or test reading it meanwhile sees the old or the new one. */
function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

// Earlier builds' files stay: their names differ, and a page loaded before this build still needs them.
function buildWebapp() {
  fs.mkdirSync(assets, { recursive: true });
  const result = esbuild.buildSync({
    entryPoints: [path.join(source, 'src', 'main.tsx')],
    outdir: assets,
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    sourcemap: false,
    target: ['es2022'],
    platform: 'browser',
    jsx: 'automatic',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    publicPath: PUBLIC_PATH,
    loader: { '.svg': 'file', '.woff2': 'file' },
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint);
  if (!entry) throw new Error('the web app build produced no entry');
  const name = (file) => PUBLIC_PATH + path.basename(file);
  const script = name(entry[0]);
  const css = entry[1].cssBundle ? name(entry[1].cssBundle) : null;
  // Chunks the entry imports statically are fetched at once, not one after another.
  const preloads = entry[1].imports.filter((i) => i.kind === 'import-statement').map((i) => name(i.path));
  const template = fs.readFileSync(path.join(source, 'index.html'), 'utf8');
  const head = [
    ...(css ? [`<link rel="stylesheet" href="${css}">`] : []),
    ...preloads.map((p) => `<link rel="modulepreload" href="${p}">`),
    `<script type="module" src="${script}"></script>`,
  ].join('\n    ');
  writeAtomically(path.join(out, 'index.html'), template.replace('<!-- assets -->', head));
  // What the bench reports as the initial download: the entry and what it imports statically.
  const initial = [entry[0], ...entry[1].imports.filter((i) => i.kind === 'import-statement').map((i) => i.path)];
  writeAtomically(path.join(out, 'manifest.json'), `${JSON.stringify({ script, css, initial: initial.map((f) => path.basename(f)) }, null, 2)}\n`);
}

module.exports = { buildWebapp };
if (require.main === module) buildWebapp();
