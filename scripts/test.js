#!/usr/bin/env node
// Runs every test tier in order with Node's own test runner and stops at the first failing tier.
// Tiers: unit (no server), integration (against the built-in TDS simulator, through the real driver).
// Each tier prints Node's summary; the script exits non-zero if any tier failed.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const only = process.argv.slice(2);
const tiers = [
  { name: 'unit', dir: 'out/test/unit', args: [] },
  // One file at a time: integration tests start simulators and sessions, and the machine has 2 cores.
  { name: 'integration', dir: 'out/test/integration', args: ['--test-concurrency=1'] },
];

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
  const r = spawnSync(process.execPath, ['--test', ...tier.args, tier.dir], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`!!! tier ${tier.name} failed (exit ${r.status})`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
