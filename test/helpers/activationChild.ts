// Run in a child process by test/unit/activation.test.ts: loads the extension (the tsc output or the webpack bundle)
// with the stub `vscode`, calls activate(), and prints as JSON what activation registered and every file Node loaded
// (require.cache). With `--run <command>` it then runs that command as VS Code would and prints what was loaded after;
// with `--tree` it asks the Activity Bar tree for its items as VS Code does once the view shows (before any command).
//   node out/test/helpers/activationChild.js <extension.js> [--tree] [--run spinlab.open]
import * as path from 'node:path';
import { installVscodeStub } from './vscodeStub';

export interface ActivationReport {
  registered: string[];
  /** Files loaded by the time activate() returned. */
  loaded: string[];
  /** With --run: files loaded once the command finished. */
  loadedAfterRun?: string[];
  /** With --tree: the tree's root items (id and label), and the files loaded once it answered. */
  treeRoots?: { id: string; label: string }[];
  loadedAfterTree?: string[];
}

async function main(): Promise<void> {
  const vscode = installVscodeStub();
  const file = path.resolve(process.argv[2]);
  const run = process.argv.indexOf('--run');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ext = require(file) as { activate(ctx: unknown): unknown };
  await ext.activate(vscode.context(process.cwd()));
  const report: ActivationReport = { registered: [...vscode.registered], loaded: Object.keys(require.cache) };
  if (process.argv.includes('--tree')) {
    const provider = vscode.trees.get('spinlab.home')?.treeDataProvider;
    if (!provider) throw new Error('activate() created no spinlab.home tree with a treeDataProvider');
    const roots = (await provider.getChildren()) as { id: string; label: string }[];
    report.treeRoots = roots.map((n) => ({ id: n.id, label: n.label }));
    report.loadedAfterTree = Object.keys(require.cache);
  }
  if (run > 0) {
    const id = process.argv[run + 1];
    const handler = vscode.commands.get(id);
    if (!handler) throw new Error(`activate() registered no ${id} command`);
    await handler();
    report.loadedAfterRun = Object.keys(require.cache);
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
