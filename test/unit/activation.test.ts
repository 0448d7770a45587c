// Activation stays light, as VS Code waits for it. Activating the extension (with a stub `vscode`, in a child process
// so Node's module cache starts empty) registers every command, the Activity Bar tree, the status bar items and the panel's
// serializer, and loads none of the heavy code: the driver (mssql, tedious), the engine beyond the restore journal,
// the notebook code, the panel and its controller. Running a command loads them. Checked on the tsc output (the
// module graph) and on the webpack bundle (dist/extension.js must not hold them; dist/lab.js loads on first use).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ActivationReport } from '../helpers/activationChild';

const root = path.resolve(__dirname, '..', '..', '..');
const child = path.join(root, 'out', 'test', 'helpers', 'activationChild.js');
const dist = path.join(root, 'dist');

function activate(file: string, run?: string): ActivationReport {
  const r = spawnSync(process.execPath, [child, file, ...(run ? ['--run', run] : [])], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `activation child failed: ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as ActivationReport;
}

/** Heavy code by its path (a loaded file or a bundle's source): what it is, or null when it is not heavy. */
function heavy(p: string): string | null {
  const f = p.split(path.sep).join('/');
  const pkg = /node_modules\/(mssql|tedious)\//.exec(f);
  if (pkg) return `the driver (${pkg[1]})`;
  if (/\/src\/db\//.test(f)) return 'src/db';
  if (/notebook/i.test(f.slice(f.lastIndexOf('/src/') + 1))) return 'notebook code';
  const engine = /\/src\/engine\/(.+)\.[jt]s$/.exec(f);
  // The restore journal is the one engine module activation may load (the tree lists unrestored journals), with the
  // small module its write errors use (node:fs only; no driver). Its error class comes from src/shared.
  if (engine && !['journal', 'outFiles'].includes(engine[1])) return `the engine (${engine[1]})`;
  if (/\/src\/host\/labController\.[jt]s$/.test(f)) return 'the panel controller';
  if (/\/src\/extension\/(panel|lab|vscodePorts)\.[jt]s$/.test(f)) return 'the panel';
  return null;
}

function heavyOf(paths: string[]): string[] {
  return paths.filter((p) => heavy(p) !== null).map((p) => `${path.relative(root, p.replace(/^webpack:\/\/[^/]+\//, ''))}: ${heavy(p)}`);
}

function contributedCommands(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
  return pkg.contributes.commands.map((c) => c.command);
}

function assertRegistered(r: ActivationReport): void {
  for (const id of contributedCommands()) assert.ok(r.registered.includes(`command:${id}`), `activate() did not register ${id}`);
  for (const what of [
    'treeView:spinlab.home',
    'statusBarItem:spinlab.run',
    'statusBarItem:spinlab.stop',
    'webviewPanelSerializer:spinlab.panel',
  ]) {
    assert.ok(r.registered.includes(what), `activate() did not register ${what}`);
  }
}

/** The sources a bundle chunk was built from (its source map), as absolute paths. */
function chunkSources(name: string): string[] {
  const map = JSON.parse(fs.readFileSync(path.join(dist, `${name}.map`), 'utf8')) as { sources: string[] };
  return map.sources.filter((s) => s.startsWith('webpack://')).map((s) => path.join(root, s.replace(/^webpack:\/\/[^/]+\//, '')));
}

describe('activation: nothing heavy until first use', function () {
  this.timeout(60_000);

  describe('the tsc output (out/src/extension/extension.js)', () => {
    const ext = path.join(root, 'out', 'src', 'extension', 'extension.js');

    it('registers every contributed command, the tree, the status bar items and the serializer, and loads no driver, engine, notebook or panel code', () => {
      const r = activate(ext);
      assertRegistered(r);
      assert.deepEqual(heavyOf(r.loaded), []);
    });

    it('the first command run (spinlab.open) loads the panel, the controller, the engine and the driver', () => {
      const r = activate(ext, 'spinlab.open');
      const found = new Set(heavyOf(r.loadedAfterRun ?? []).map((s) => s.split(': ')[1]));
      for (const what of ['the panel', 'the panel controller', 'the driver (mssql)', 'the driver (tedious)', 'notebook code']) {
        assert.ok(found.has(what), `spinlab.open did not load ${what}`);
      }
    });
  });

  describe('the webpack bundle (dist/)', () => {
    before(function () {
      // The bundle comes from `npm run build` (npm test runs it); `npm run test:unit` builds only the tsc output.
      if (!fs.existsSync(path.join(dist, 'extension.js.map'))) this.skip();
    });

    it('dist/extension.js holds none of the heavy code; dist/lab.js holds it', () => {
      assert.deepEqual(heavyOf(chunkSources('extension.js')), []);
      const lab = new Set(heavyOf(chunkSources('lab.js')).map((s) => s.split(': ')[1]));
      for (const what of ['the panel', 'the panel controller', 'the driver (mssql)', 'the driver (tedious)', 'notebook code']) {
        assert.ok(lab.has(what), `dist/lab.js does not hold ${what}`);
      }
    });

    it('activating loads dist/extension.js alone and registers everything; spinlab.open then loads dist/lab.js', () => {
      const r = activate(path.join(dist, 'extension.js'), 'spinlab.open');
      assertRegistered(r);
      const chunks = (files: string[]) =>
        files
          .filter((f) => path.dirname(f) === dist)
          .map((f) => path.basename(f))
          .sort();
      assert.deepEqual(chunks(r.loaded), ['extension.js']);
      assert.deepEqual(chunks(r.loadedAfterRun ?? []), ['extension.js', 'lab.js']);
    });
  });
});
