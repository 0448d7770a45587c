#!/usr/bin/env node
// The spinlab command: the compiled CLI lives in out/ (npm run build).
// Library deprecation notices are not for the user (src/cli/warnings.ts): dropped before anything else loads.
require('../out/src/cli/warnings.js').quietDeprecations();
// A closed pipe (spinlab scenarios | head) is a normal end, not a crash.
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(0); throw e; });
require('../out/src/cli/main.js').main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err && err.stack ? err.stack : String(err)); process.exitCode = 1; },
);
