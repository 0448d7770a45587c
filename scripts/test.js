#!/usr/bin/env node
// Runs every test tier in order with Node's own test runner; exits non-zero if any tier failed.
//   unit         no server, no browser
//   integration  against the built-in TDS simulator, through the real driver (mssql over tedious)
//   browser      the panel's webview bundle in Debian's Chromium (playwright-core), fed recorded data
//   e2e          the VSIX installed in a real VS Code (code-server) driven through Chromium, against the simulator
//   load         128 sessions against the simulator for minutes, the client's memory flat
//   load         128 client-loop sessions against the simulator (its own process) for SPINLAB_LOAD_MINUTES (default 3)
//                minutes, the client's memory flat; last, as it is the longest. test/load is outside tsconfig.json's
//                include, so the tier type-checks its files with tsc (no emit) and transpiles them into out/test/load.
// `node scripts/test.js unit integration` runs only the named tiers. Before its tier runs, each installs what it needs
// when missing: integration FreeTDS's tsql, nbformat and nbconvert (scripts/integration-setup.sh); browser and e2e
// Chromium and code-server (scripts/e2e-setup.sh, a cache folder outside the project); e2e also builds the VSIX.
// A tier whose prerequisites cannot be installed fails with the reason; no tier is skipped silently.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const only = process.argv.slice(2);
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status === 0;
const setup = () => run('bash', [path.join(root, 'scripts', 'e2e-setup.sh')]);
const tiers = [
  { name: 'unit', dir: 'out/test/unit', args: [] },
  // One file at a time: integration tests start simulators and sessions, and the machine has 2 cores.
  { name: 'integration', dir: 'out/test/integration', args: ['--test-concurrency=1'],
    before: () => run('bash', [path.join(root, 'scripts', 'integration-setup.sh')]) },
  { name: 'browser', dir: 'out/test/browser', args: ['--test-concurrency=1'], before: setup },
  { name: 'e2e', dir: 'out/test/e2e', args: ['--test-concurrency=1'],
    before: () => setup() && run(process.execPath, [path.join(root, 'scripts', 'package.js')]) },
  // 128 sessions for minutes with the client's memory watched (SPINLAB_LOAD_MINUTES, default 3).
  { name: 'load', dir: 'out/test/load', args: ['--test-concurrency=1'] },
];

for (const name of only) {
  if (!tiers.some((t) => t.name === name)) {
    console.error(`unknown tier ${name}; tiers: ${tiers.map((t) => t.name).join(', ')}`);
    process.exit(2);
  }
}

let failed = 0;
for (const tier of tiers) {
  if (only.length && !only.includes(tier.name)) continue;
  const dir = path.join(root, tier.dir);
  if (!fs.existsSync(dir)) {
    console.error(`\n!!! tier ${tier.name}: ${tier.dir} does not exist (did the build run?)`);
    failed++;
    continue;
  }
  console.log(`\n=== tier: ${tier.name}`);
  if (tier.before && !tier.before()) {
    console.error(`!!! tier ${tier.name}: its setup failed (see above)`);
    failed++;
    continue;
  }
  const r = spawnSync(process.execPath, ['--test', ...tier.args, tier.dir], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`!!! tier ${tier.name} failed (exit ${r.status})`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
