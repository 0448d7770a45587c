#!/usr/bin/env node
// The spinlab command: the compiled CLI lives in out/ (npm run build:tsc; `npm ci` builds it through `prepare`).
// When out/ is missing (a clone where install scripts were skipped), it is built first, and that is said.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const main = path.join(root, 'out', 'src', 'cli', 'main.js');
if (!fs.existsSync(main)) {
  let tsc;
  try {
    tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
  } catch {
    tsc = null;
  }
  if (!tsc) {
    console.error('spinlab: the CLI is not built (out/ is missing) and TypeScript is not installed: run `npm ci` in ' + root);
    process.exit(1);
  }
  console.error('spinlab: building the CLI first (tsc -p tsconfig.json; once, about half a minute)...');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0 || !fs.existsSync(main)) {
    console.error('spinlab: the build failed (see above); `npm run build:tsc` shows the same errors');
    process.exit(1);
  }
}
// Library deprecation notices are not for the user (src/cli/warnings.ts): dropped before anything else loads.
require(path.join(root, 'out', 'src', 'cli', 'warnings.js')).quietDeprecations();
// A closed pipe (spinlab scenarios | head) is a normal end, not a crash.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
require(main)
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    // main() turns every error into its exit code (src/cli/exitCodes.ts); one escaping it is a bug: internal, code 6.
    (err) => {
      console.error(`spinlab: internal error: ${err && err.message ? err.message : String(err)}`);
      if (process.env.SPINLAB_DEBUG && err && err.stack) console.error(err.stack);
      process.exitCode = 6;
    },
  );
