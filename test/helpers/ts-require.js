// Lets a child node process run the TypeScript sources directly (as jest does, through SWC), so a
// test can start the real entry point without a build. Compiled files are kept in the temporary
// directory under a hash of their source, so each child after the first compiles nothing.
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const { transformSync, version } = require('@swc/core');

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};

const cacheDir = path.join(os.tmpdir(), 'parley-ts-require');
const salt = `${version}\0${JSON.stringify(options)}\0`;

function compile(filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const key = crypto.createHash('sha256').update(salt).update(filename).update('\0').update(source).digest('hex');
  const cached = path.join(cacheDir, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    const { code } = transformSync(source, { ...options, filename });
    // Written under a unique name and renamed, so processes racing on one file never read half of it.
    fs.mkdirSync(cacheDir, { recursive: true });
    const partial = `${cached}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, cached);
    return code;
  }
}

Module._extensions['.ts'] = (module, filename) => {
  module._compile(compile(filename), filename);
};
