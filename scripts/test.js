#!/usr/bin/env node
// Runs every test tier in order with mocha (scripts/mochaTier.js, one process per tier); exits non-zero if any tier
// failed. Its closing line counts every tier's tests: 'N passed, N failed' (', N skipped' when a step was skipped).
//   unit         no server, no browser
//   stats        the verdicts' error rates on seeded messy data (drift, order effects, heavy tails, level shifts)
//   integration  against the built-in TDS simulator, through the real driver (mssql over tedious)
//   browser      the panel's webview bundle in Debian's Chromium (playwright-core), fed recorded data
//   e2e          the VSIX installed in a real VS Code (code-server) driven through Chromium, against the simulator
//   server       a real SQL Server when SPINLAB_TEST_SERVER is set (README: Testing against a real SQL Server)
//   load         128 client-loop sessions against the simulator (its own process) for SPINLAB_LOAD_MINUTES (default 3)
//                minutes, the client's memory flat; last, as it is the longest.
// `node scripts/test.js unit integration` runs only the named tiers. Before its tier runs, each installs what it needs
// when missing: integration FreeTDS's tsql, nbformat and nbconvert (scripts/integration-setup.sh); browser and e2e
// Chromium and code-server (scripts/e2e-setup.sh, a cache folder outside the project); e2e also builds the VSIX.
// A tier whose prerequisites cannot be installed fails with the reason; no tier is skipped silently.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const only = process.argv.slice(2);
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status === 0;
const setup = () => run('bash', [path.join(root, 'scripts', 'e2e-setup.sh')]);
// timeoutMs: mocha's default per test in the tier (a test that needs longer says so with this.timeout / .timeout()).
const tiers = [
  { name: 'unit', dir: 'out/test/unit', timeoutMs: 60_000 },
  // The verdicts against data they do not assume (drift, order effects, heavy tails, level shifts): thousands of
  // seeded comparisons, a few minutes; apart from unit so that tier stays fast.
  { name: 'stats', dir: 'out/test/stats', timeoutMs: 600_000 },
  {
    name: 'integration',
    dir: 'out/test/integration',
    timeoutMs: 120_000,
    before: () => run('bash', [path.join(root, 'scripts', 'integration-setup.sh')]),
  },
  { name: 'browser', dir: 'out/test/browser', timeoutMs: 120_000, before: setup },
  {
    name: 'e2e',
    dir: 'out/test/e2e',
    timeoutMs: 120_000,
    before: () => setup() && run(process.execPath, [path.join(root, 'scripts', 'package.js')]),
  },
  // 128 sessions for minutes with the client's memory watched (SPINLAB_LOAD_MINUTES, default 3).
  { name: 'load', dir: 'out/test/load', timeoutMs: 120_000 },
  // Against a real SQL Server named by SPINLAB_TEST_SERVER (npm run test:server); without it the tier says loudly,
  // by name, that it did not run and how to run it, and counts as one skipped test.
  { name: 'server', dir: 'out/test/server', timeoutMs: 600_000 },
];

for (const name of only) {
  if (!tiers.some((t) => t.name === name)) {
    console.error(`unknown tier ${name}; tiers: ${tiers.map((t) => t.name).join(', ')}`);
    process.exit(2);
  }
}

let failed = 0;
const total = { passes: 0, failures: 0, pending: 0 };
const counts = [];
const failedTitles = [];
for (const tier of tiers) {
  if (only.length && !only.includes(tier.name)) continue;
  const dir = path.join(root, tier.dir);
  if (!fs.existsSync(dir)) {
    console.error(`\n!!! tier ${tier.name}: ${tier.dir} does not exist (did the build run?)`);
    failed++;
    total.failures++;
    continue;
  }
  console.log(`\n=== tier: ${tier.name}`);
  if (tier.before && !tier.before()) {
    console.error(`!!! tier ${tier.name}: its setup failed (see above)`);
    failed++;
    total.failures++;
    continue;
  }
  const statsFile = path.join(os.tmpdir(), `spinlab-tier-${process.pid}-${tier.name}.json`);
  fs.rmSync(statsFile, { force: true });
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'mochaTier.js'), dir, String(tier.timeoutMs), statsFile], {
    cwd: root,
    stdio: 'inherit',
  });
  const stats = fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8')) : { passes: 0, failures: 1, pending: 0 };
  fs.rmSync(statsFile, { force: true });
  for (const k of Object.keys(total)) total[k] += stats[k];
  for (const t of stats.failed || []) failedTitles.push(`${tier.name}: ${t}`);
  counts.push(`${tier.name} ${stats.passes}/${stats.passes + stats.failures + stats.pending}`);
  if (r.status !== 0) {
    console.error(`!!! tier ${tier.name} failed (exit ${r.status})`);
    failed++;
  }
}
if (failedTitles.length) console.log(`\nfailed:\n${failedTitles.map((t) => `  - ${t}`).join('\n')}`);
console.log(`\ntiers: ${counts.join(', ') || 'none ran'}`);
console.log(`${total.passes} passed, ${total.failures} failed${total.pending ? `, ${total.pending} skipped` : ''}`);
process.exit(failed ? 1 : 0);
