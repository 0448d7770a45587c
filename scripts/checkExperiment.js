#!/usr/bin/env node
// Checks an experiment.json: valid against schema/experiment.schema.json, and with non-zero spinlock deltas in at
// least two runs (what the demo must produce). Usage: node scripts/checkExperiment.js path/to/experiment.json
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Ajv2020 = require('ajv/dist/2020').default;

const file = process.argv[2];
if (!file) {
  console.error('usage: checkExperiment.js experiment.json');
  process.exit(2);
}
const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'schema', 'experiment.schema.json'), 'utf8'));
const experiment = JSON.parse(fs.readFileSync(file, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(schema);
if (!validate(experiment)) {
  console.error(`${file} does not match the schema:`);
  for (const e of validate.errors) console.error(`  ${e.instancePath || '/'} ${e.message}`);
  process.exit(1);
}
const withSpins = experiment.runs.filter((r) => Object.values(r.totals.spinlocks).some((s) => s.spins > 0));
if (withSpins.length < 2) {
  console.error(`${file}: expected non-zero spinlock deltas in at least two runs, found ${withSpins.length}`);
  process.exit(1);
}
console.log(
  `${file}: valid (schema v${experiment.schemaVersion}); ${experiment.runs.length} runs, ${withSpins.length} with spinlock deltas; status ${experiment.status}`,
);
