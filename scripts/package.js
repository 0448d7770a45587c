#!/usr/bin/env node
// Builds spinlock-lab.vsix from the webpack bundles (npm run build must have run) with vsce, then checks what went
// in: the bundles, sql/ and schema/ must be there; tests, the TDS simulator, sources and node_modules must not.
// Prints the size, because the VSIX should stay small.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const out = path.join(root, 'spinlock-lab.vsix');
const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
for (const f of ['dist/extension.js', 'dist/tree.js', 'dist/lab.js', 'dist/webview.js', 'dist/renderer.js', 'dist/clientWorker.js']) {
  if (!fs.existsSync(path.join(root, f))) {
    console.error(`package: ${f} is missing; run npm run build first`);
    process.exit(1);
  }
}
const r = spawnSync(
  process.execPath,
  [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out],
  { cwd: root, stdio: 'inherit' },
);
if (r.status !== 0) process.exit(r.status ?? 1);

const list = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' });
const files = list.stdout
  .split('\n')
  .map((s) => s.trim())
  .filter(Boolean);
const problems = [];
for (const must of [
  'dist/extension.js',
  'dist/tree.js',
  'dist/lab.js',
  'dist/webview.js',
  'dist/renderer.js',
  'dist/clientWorker.js',
  'sql/dmv/sample.sql',
  'schema/experiment.schema.json',
]) {
  if (!files.includes(must)) problems.push(`missing ${must}`);
}
// Every chunk webpack wrote must ship: the extension loads dist/lab.js on first use, and a chunk left out of
// .vscodeignore would fail only then, in the user's hands.
for (const f of fs
  .readdirSync(path.join(root, 'dist'))
  .filter((n) => n.endsWith('.js'))
  .map((n) => `dist/${n}`)) {
  if (!files.includes(f)) problems.push(`missing ${f} (a bundle chunk; list it in .vscodeignore)`);
}
for (const f of files) {
  if (/^(tools|test|src|bench|out|node_modules|scripts)\//.test(f) || /\.map$/.test(f)) problems.push(`should not ship ${f}`);
}
if (problems.length) {
  console.error(`package: the VSIX is wrong:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
const kb = fs.statSync(out).size / 1024;
console.log(`package: ${path.relative(root, out)} ${kb.toFixed(0)} KiB, ${files.length} files`);
