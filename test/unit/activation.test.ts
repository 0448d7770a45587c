// Activation stays light, as VS Code waits for it. Activating the extension (with a stub `vscode`, in a child process
// so Node's module cache starts empty) registers every command, the Activity Bar tree, the status bar items and the panel's
// serializer, and loads none of the heavy code: the driver (mssql, tedious), the engine (the restore journal too), the
// message schemas (zod), the notebook code, the panel and its controller. Running a command loads them; the tree's
// first getChildren loads what it lists (the journal reader and the schemas, never the panel or the driver) and still
// lists a crashed run's unrestored journal. Checked on the tsc output (the module graph) and on the webpack bundle
// (dist/extension.js must not hold them; dist/tree.js loads for the tree, dist/lab.js on first use).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeJournal } from '../../src/engine/journal';
import type { ActivationReport } from '../helpers/activationChild';

const root = path.resolve(__dirname, '..', '..', '..');
const child = path.join(root, 'out', 'test', 'helpers', 'activationChild.js');
const dist = path.join(root, 'dist');

function activate(file: string, run?: string, opts: { tree?: boolean; stateDir?: string } = {}): ActivationReport {
  const args = [child, file, ...(opts.tree ? ['--tree'] : []), ...(run ? ['--run', run] : [])];
  const env = opts.stateDir ? { ...process.env, SPINLAB_STATE_DIR: opts.stateDir } : process.env;
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 60_000, env });
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
  if (/node_modules\/zod\//.test(f)) return 'the message schemas (zod)';
  const engine = /\/src\/engine\/(.+)\.[jt]s$/.exec(f);
  // The restore journal (with the small module its write errors use) is what the tree reads: not at activation.
  if (engine) return ['journal', 'outFiles'].includes(engine[1]) ? 'the restore journal' : `the engine (${engine[1]})`;
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

/** A state folder holding the journal of a run whose process is gone (a crash), as the tree must list it. */
function crashedRunStateDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-activation-'));
  writeJournal(dir, {
    version: 1,
    serverKey: 'lab9|lab9',
    serverAddress: 'lab9',
    serverName: 'LAB9',
    labDatabase: 'SpinlockLab',
    createdAt: '2026-11-20T10:00:00.000Z',
    pid: 4_194_304 + 4242, // above Linux's largest pid: that process is gone
    original: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [0, 1] } },
    changes: ['delayedDurability'],
  } as Parameters<typeof writeJournal>[1]);
  return dir;
}

/** The tree, asked for its items right after activation, lists the crashed run's journal with its Restore item. */
function assertTreeListsJournal(r: ActivationReport): void {
  assert.deepEqual(
    r.treeRoots?.find((n) => n.id === 'journal:lab9'),
    { id: 'journal:lab9', label: 'Unrestored settings on lab9' },
    `the tree did not list the unrestored journal: ${JSON.stringify(r.treeRoots)}`,
  );
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

    it("the tree's first getChildren lists a crashed run's unrestored journal, loading the journal reader but not the panel or the driver", () => {
      const r = activate(ext, undefined, { tree: true, stateDir: crashedRunStateDir() });
      assert.deepEqual(heavyOf(r.loaded), []);
      assertTreeListsJournal(r);
      const found = new Set(heavyOf(r.loadedAfterTree ?? []).map((s) => s.split(': ')[1]));
      assert.ok(found.has('the restore journal'), 'the tree did not read the journal');
      for (const what of ['the panel', 'the panel controller', 'the driver (mssql)', 'the driver (tedious)']) {
        assert.ok(!found.has(what), `the tree loaded ${what}`);
      }
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

    /** The bundles of dist/ among the files a run loaded, by name. */
    const chunks = (files: string[]) =>
      files
        .filter((f) => path.dirname(f) === dist)
        .map((f) => path.basename(f))
        .sort();
    /** What heavy code a bundle holds, by what it is. */
    const heavyIn = (chunk: string) => new Set(heavyOf(chunkSources(chunk)).map((s) => s.split(': ')[1]));

    it('dist/extension.js holds none of the heavy code; dist/lab.js holds it', () => {
      assert.deepEqual(heavyOf(chunkSources('extension.js')), []);
      const lab = heavyIn('lab.js');
      for (const what of ['the panel', 'the panel controller', 'the driver (mssql)', 'the driver (tedious)', 'notebook code']) {
        assert.ok(lab.has(what), `dist/lab.js does not hold ${what}`);
      }
    });

    it('activating loads dist/extension.js alone and registers everything; spinlab.open then loads dist/lab.js', () => {
      const r = activate(path.join(dist, 'extension.js'), 'spinlab.open');
      assertRegistered(r);
      assert.deepEqual(chunks(r.loaded), ['extension.js']);
      assert.deepEqual(chunks(r.loadedAfterRun ?? []), ['extension.js', 'lab.js']);
    });

    it("dist/tree.js holds the tree's data (the journal reader, the schemas) and none of the panel, engine or driver", () => {
      const tree = heavyIn('tree.js');
      assert.deepEqual([...tree].sort(), ['the message schemas (zod)', 'the restore journal']);
    });

    it("the tree's first getChildren loads dist/tree.js alone and lists a crashed run's unrestored journal", () => {
      const r = activate(path.join(dist, 'extension.js'), undefined, { tree: true, stateDir: crashedRunStateDir() });
      assert.deepEqual(chunks(r.loaded), ['extension.js']);
      assert.deepEqual(chunks(r.loadedAfterTree ?? []), ['extension.js', 'tree.js']);
      assertTreeListsJournal(r);
    });
  });
});
