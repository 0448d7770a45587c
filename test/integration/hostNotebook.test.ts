// Notebooks from the panel: an experiment run in the panel saved as a notebook (checked by nbformat's validator and
// rendered by nbconvert with its charts as images),
// exported as CSV and T-SQL, and "Run this experiment again" from the saved notebook: the re-run goes through the
// same confirmed run as the Run button and is added to the notebook beside the original, with a comparison.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { LabController } from '../../src/host/labController';
import { simProfile } from '../helpers/host';
import { parseNotebook } from '../../src/engine/notebook/read';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';

const profileFor = (sim: Simulator) => simProfile(sim);

function nbformatValid(file: string): void {
  const r = spawnSync(
    'python3',
    ['-c', 'import sys, nbformat\nnbformat.validate(nbformat.read(sys.argv[1], as_version=4))\nprint("valid")', file],
    { encoding: 'utf8' },
  );
  if (r.error) throw new Error(`python3 with nbformat is needed (pip install nbformat): ${r.error.message}`);
  assert.equal(r.status, 0, `nbformat rejects ${file}:\n${r.stderr}`);
}

it('panel: save as notebook, export CSV and T-SQL, run the notebook again and find the re-run added with a comparison', () =>
  withSim({}, async (sim) => {
    const ports = fakePorts();
    const c = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
    await c.start();
    try {
      await c.receive({ type: 'connectionOpen', payload: { profile: profileFor(sim), password: SIM_PASSWORD, savePassword: false } });
      assert.equal(ports.lastState().connection.status, 'connected');
      const run = { mode: 'server-loop' as const, threads: '1,2', duration: '1s', rows: '', warmup: '0s', interval: '250ms' };
      await c.receive({
        type: 'experimentRun',
        payload: {
          scenarioId: 'disk-insert',
          parameters: { seed_rows: 0, batch_size: 2 },
          run,
          knobs: { delayedDurability: 'FORCED', affinity: 'numa:1' },
          title: 'batch 2 on node 1',
          question: 'Is node 1 slower?',
        },
      });
      const id = ports.lastState().active!.experimentId!;
      assert.equal(ports.lastState().active!.status, 'completed', ports.lastState().active!.message);

      const work = tmpDir('nb');
      const file = path.join(work, 'saved.ipynb');
      ports.saveFileAnswer = undefined;
      await c.receive({ type: 'experimentSaveNotebook', payload: { id } });
      assert.ok(!fs.existsSync(file), 'cancelling the save dialog writes nothing');
      ports.saveFileAnswer = file;
      await c.receive({ type: 'experimentSaveNotebook', payload: { id } });
      assert.equal(ports.lastState().lastError, null, JSON.stringify(ports.lastState().lastError));
      nbformatValid(file);
      const html = spawnSync('jupyter', ['nbconvert', '--to', 'html', '--output-dir', work, file], { encoding: 'utf8' });
      assert.equal(html.status, 0, `nbconvert failed: ${html.stderr}`);
      const images = fs.readFileSync(path.join(work, 'saved.html'), 'utf8').match(/<img[^>]*src="data:image\/svg\+xml;base64,/g) ?? [];
      assert.ok(images.length >= 5, `the panel's notebook renders its charts as images in nbconvert's HTML (${images.length})`);
      assert.deepEqual(ports.opened, [file], 'the saved notebook is opened');

      ports.folderAnswer = work;
      await c.receive({ type: 'experimentExport', payload: { id, kind: 'csv' } });
      await c.receive({ type: 'experimentExport', payload: { id, kind: 'tsql' } });
      assert.ok(fs.existsSync(path.join(work, `${id}-csv`, 'ticks.csv')));
      assert.match(
        fs.readFileSync(path.join(work, `${id}-tsql`, '02-knobs.sql'), 'utf8'),
        /AFFINITY CPU[\s\S]*FORCED|FORCED[\s\S]*AFFINITY CPU/,
      );

      const confirmsBefore = ports.confirms.length;
      await c.rerunNotebook(file);
      assert.equal(ports.lastState().lastError, null, JSON.stringify(ports.lastState().lastError));
      assert.equal(
        ports.confirms.length,
        confirmsBefore + 2,
        'the re-run shows its plan, then asks before changing server-wide settings, as a run does',
      );
      assert.equal(ports.confirms[confirmsBefore].title, "Run this notebook's experiment again?");
      assert.match(ports.confirms[confirmsBefore].detail, /Threads: +1, 2 \(one run per count\)/);
      const { record, notebook } = parseNotebook(fs.readFileSync(file, 'utf8'));
      assert.equal(record.experiments.length, 2);
      assert.equal(record.experiments[0].id, id, 'the original is kept first');
      assert.equal(record.experiments[1].knobs.applied.affinity?.spec, 'numa:1');
      assert.match(
        notebook.cells.find((x) => x.source.join('').startsWith('## Summary'))!.source.join(''),
        /original \(A\) against the re-run/,
      );
      nbformatValid(file);

      fs.writeFileSync(path.join(work, 'not-ours.ipynb'), JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [] }));
      await c.rerunNotebook(path.join(work, 'not-ours.ipynb'));
      assert.match(ports.lastState().lastError!.message, /not saved by Spinlock Lab/);
      for (const f of fs.readdirSync(work, { recursive: true }) as string[]) {
        const p = path.join(work, f);
        if (fs.statSync(p).isFile()) assert.ok(!fs.readFileSync(p, 'utf8').includes(SIM_PASSWORD), `${f} has no password`);
      }
    } finally {
      await c.dispose();
    }
  })).timeout(120_000);

it("panel: a preset's notebook run again from the panel is planned again as the preset, and added beside the original", () =>
  withSim({}, async (sim) => {
    const ports = fakePorts({ confirmServerChanges: false });
    const c = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
    await c.start();
    try {
      await c.receive({ type: 'connectionOpen', payload: { profile: profileFor(sim), password: SIM_PASSWORD, savePassword: false } });
      const load = { mode: 'server-loop' as const, threads: '2', duration: '1s', rows: '', warmup: '0s', interval: '250ms' };
      await c.receive({ type: 'presetRun', payload: { presetId: 'writelog', settings: { seed_rows: 0 }, load, repeat: 1 } });
      const active = ports.lastState().active!;
      assert.equal(active.status, 'completed', active.message);
      const work = tmpDir('nb-preset');
      const file = path.join(work, 'writelog.ipynb');
      ports.saveFileAnswer = file;
      await c.receive({ type: 'experimentSaveNotebook', payload: { id: active.experimentId! } });
      nbformatValid(file);
      await c.rerunNotebook(file);
      assert.equal(ports.lastState().lastError, null, JSON.stringify(ports.lastState().lastError));
      assert.equal(
        ports.confirms[0]?.title,
        "Run this notebook's experiment again?",
        'the plan is shown first, and a saved preset notebook agrees with itself',
      );
      assert.match(ports.confirms[0].detail, /preset writelog/);
      const { record } = parseNotebook(fs.readFileSync(file, 'utf8'));
      assert.equal(record.experiments.length, 2);
      const rerun = record.experiments[1];
      assert.equal(rerun.preset?.id, 'writelog');
      assert.deepEqual(
        [...new Set(rerun.runs.map((r) => r.arm.id))],
        [...new Set(record.experiments[0].runs.map((r) => r.arm.id))],
        'the same arms',
      );
      assert.deepEqual(rerun.preset?.settings?.seed_rows, 0, 'with the recorded settings');
      nbformatValid(file);
    } finally {
      await c.dispose();
    }
  })).timeout(120_000);
