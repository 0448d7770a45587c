// Loads the extension bundle and calls activate() with a stub `vscode` module (test/helpers/vscodeStub.ts), then
// prints how long each took and which chunks of dist/ were loaded:
//   node out/bench/activationProbe.js dist/extension.js [--first-use]
//   ->  ACTIVATION load_ms=... activate_ms=... chunks=extension.js [first_use_ms=... first_use_chunks=extension.js,lab.js]
// One measurement per process, so each starts cold (Node's own module cache empty; the OS file cache is warm).
// --first-use then runs the spinlab.open command as VS Code would and times it until the panel is shown: the loading
// of the heavy half (dist/lab.js) that activation no longer does.
import * as path from 'node:path';
import { installVscodeStub } from '../test/helpers/vscodeStub';

const vscode = installVscodeStub();
const file = path.resolve(process.argv[2]);
const firstUse = process.argv.includes('--first-use');

/** The dist/ chunks Node has loaded so far, by file name. */
function chunks(): string {
  const dir = path.dirname(file);
  return Object.keys(require.cache)
    .filter((f) => path.dirname(f) === dir)
    .map((f) => path.basename(f))
    .sort()
    .join(',');
}

async function main(): Promise<void> {
  const t0 = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ext = require(file) as { activate(ctx: unknown): unknown };
  const t1 = performance.now();
  await ext.activate(vscode.context(process.cwd()));
  const t2 = performance.now();
  let line = `ACTIVATION load_ms=${(t1 - t0).toFixed(2)} activate_ms=${(t2 - t1).toFixed(2)} chunks=${chunks()}`;
  if (firstUse) {
    const open = vscode.commands.get('spinlab.open');
    if (!open) throw new Error('activate() registered no spinlab.open command');
    const t3 = performance.now();
    await open();
    line += ` first_use_ms=${(performance.now() - t3).toFixed(2)} first_use_chunks=${chunks()}`;
  }
  console.log(line);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
