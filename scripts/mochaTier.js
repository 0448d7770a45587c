#!/usr/bin/env node
// Runs one test tier with mocha (BDD: describe/it) in its own process, so tiers do not share module state:
//   node scripts/mochaTier.js DIR TIMEOUT_MS STATS_FILE
// Every *.test.js under DIR, in name order, with the spec reporter; the tier's counts go to STATS_FILE as JSON for
// scripts/test.js's closing line. Exits 1 when a test failed or when DIR holds no test at all.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
// mocha 12 is an ES module loaded through require(): the class is its default export.
const Mocha = require('mocha').default;

const [dir, timeout, statsFile] = process.argv.slice(2);
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.test.js')) files.push(p);
  }
})(dir);

const write = (stats) => {
  if (statsFile) fs.writeFileSync(statsFile, JSON.stringify(stats));
};
if (!files.length) {
  console.error(`no *.test.js under ${dir}`);
  write({ passes: 0, failures: 1, pending: 0 });
  process.exit(1);
}

const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: Number(timeout) || 60_000, slow: 2_000 });
for (const f of files) mocha.addFile(path.resolve(f));
mocha.loadFilesAsync().then(
  () => {
    // Each failed test's full title and first line of its error, for the closing summary (a CI log is read from its
    // tail, far from where the spec reporter printed the failure).
    const failed = [];
    const runner = mocha.run((failures) => {
      const s = runner.stats;
      write({ passes: s.passes, failures: s.failures, pending: s.pending, failed });
      process.exitCode = failures ? 1 : 0;
    });
    runner.on('fail', (test, err) => {
      failed.push(
        `${test.fullTitle()}: ${String((err && err.message) || err)
          .split('\n')[0]
          .slice(0, 300)}`,
      );
    });
  },
  (err) => {
    // A file that does not load (a syntax or import error) fails the tier, loudly.
    console.error(`could not load the tests under ${dir}:`, err);
    write({ passes: 0, failures: 1, pending: 0 });
    process.exitCode = 1;
  },
);
