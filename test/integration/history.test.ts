// spinlab history end to end: one experiment run against the simulator and saved, then copied into a history of
// twelve days (each copy's runs moved a day on and its throughput set to a level times seeded noise, with a 20% drop
// from the seventh), beside a folder that is not readable and an experiment of another workload. The command refuses
// the mixed folder and names both workloads, shows one workload's history with the drop marked at its place with the
// shift and its interval, skips the unreadable folder with a reason, and gives the same figures as --json.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import { connString } from '../helpers/simTarget';
import { programCli } from '../helpers/cliInProcess';
import { ask, connectedController, resultOf } from '../helpers/host';
import { fakePorts } from '../unit/host/fakePorts';
import { lognormalFactors } from '../helpers/repeatedRuns';
import { experiment } from '../helpers/builders';
import { EXIT } from '../../src/cli/exitCodes';
import type { Experiment, RunRecord } from '../../src/shared/experiment';
import type { WorkloadHistory } from '../../src/shared/regressionHistory';

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-history-state-'));
process.env.SPINLAB_STATE_DIR = stateDir;

const DAY = 86_400_000;

/** The saved experiment again, `days` later, every run's throughput times `k`. */
function copy(e: Experiment, i: number, k: number): Experiment {
  const shift = (iso: string) => new Date(Date.parse(iso) + i * DAY).toISOString();
  const runs = e.runs.map((r): RunRecord => ({
    ...r,
    startedAt: shift(r.startedAt),
    endedAt: shift(r.endedAt),
    rows: Math.round(r.rows * k),
    totals: { ...r.totals, rows: Math.round(r.totals.rows * k) },
    derived: { ...r.derived, rowsPerSec: r.derived.rowsPerSec * k },
  }));
  return { ...e, id: `${e.id}-day${String(i).padStart(2, '0')}`, createdAt: shift(e.createdAt), runs };
}

function save(parent: string, e: Experiment): string {
  const dir = path.join(parent, e.id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'experiment.json'), JSON.stringify(e, null, 2));
  return dir;
}

describe('spinlab history: saved experiments over time, change points marked', function () {
  this.timeout(180_000);
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-history-'));
  const oneWorkload: string[] = [];
  let saved: Experiment;

  before(() =>
    withSim({ topology: '1x4x2' }, async (sim) => {
      const out = path.join(os.tmpdir(), `spinlab-history-run-${process.pid}`);
      fs.rmSync(out, { recursive: true, force: true });
      const r = await programCli([
        'run',
        '--scenario',
        'disk-insert',
        '-c',
        connString(sim),
        '--threads',
        '2,4',
        '--duration',
        '1s',
        '--warmup',
        '0s',
        '--interval',
        '250ms',
        '--repeat',
        '2',
        '--set',
        'seed_rows=0',
        '--out',
        out,
      ]);
      assert.equal(r.code, EXIT.ok, r.err);
      saved = JSON.parse(fs.readFileSync(path.join(out, 'experiment.json'), 'utf8')) as Experiment;
      const factor = lognormalFactors(44, 0.03);
      for (let i = 0; i < 12; i++) oneWorkload.push(save(parent, copy(saved, i, (i < 6 ? 1 : 0.8) * factor())));
      // Not readable, and another workload (the builders' in-memory scenario).
      fs.mkdirSync(path.join(parent, 'broken'));
      fs.writeFileSync(path.join(parent, 'broken', 'experiment.json'), '{"id": "broken", ');
      const other = experiment('inmem-run', [2]);
      save(parent, { ...other, scenario: { id: 'inmem-insert', parameters: {} } });
    }),
  );

  it('refuses a folder of two workloads, naming each, and offers a history of each', async () => {
    const r = await programCli(['history', parent]);
    console.log(`      ${r.err.trim().split('\n').join('\n      ')}`);
    assert.equal(r.code, EXIT.usage);
    assert.match(r.err, /skipped .*broken: .*not readable JSON/);
    assert.match(
      r.err,
      /These experiments ran 2 different workloads, and a history lines up one: scenario disk-insert .*: 12 \(.*\); scenario inmem-insert.*: 1 \(inmem-run\)\. .*--by-workload/,
    );
    const each = await programCli(['history', parent, '--by-workload']);
    assert.equal(each.code, EXIT.ok, each.err);
    assert.match(each.out, /History of scenario disk-insert[^\n]*12 experiments/);
    assert.match(each.out, /History of scenario inmem-insert[^\n]*1 experiment,/);
  });

  it('one workload: each cell oldest first, the drop marked at the seventh experiment with its shift and interval', async () => {
    const r = await programCli(['history', ...[...oneWorkload].reverse(), path.join(parent, 'broken')]);
    console.log(`      ${r.out.trim().split('\n').join('\n      ')}`);
    assert.equal(r.code, EXIT.ok, r.err);
    assert.match(r.err, /^spinlab history: skipped \S*broken: .*\n$/, 'one line for the unreadable folder');
    for (const cell of ['2 threads', '4 threads']) {
      const block = r.out.split(`\nAt ${cell}: `)[1].split('\nAt ')[0];
      assert.match(block, /^1 change point: \S+-day06 slower/);
      const rows = block
        .split('\n')
        .slice(2)
        .filter((l) => l.trim());
      assert.equal(rows.length, 12);
      assert.deepEqual(
        rows.map((l) => /-day(\d\d)/.exec(l)?.[1]),
        ['00', '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11'],
        'oldest first',
      );
      const marked = rows.filter((l) => l.includes('▼'));
      assert.equal(marked.length, 1);
      assert.match(marked[0], /-day06 .* 2 +▼ slower -\d+(\.\d)?% \[-\d+(\.\d)?%, -\d+(\.\d)?%\] from here \(6 before, 6 after\)$/);
    }
  });

  it('--cell shows one cell; --json carries the same figures; an unknown cell names those there are', async () => {
    const text = await programCli(['history', ...oneWorkload, '--cell', '4 threads']);
    assert.equal(text.code, EXIT.ok, text.err);
    assert.doesNotMatch(text.out, /At 2 threads/);
    const json = await programCli(['history', ...oneWorkload, '--cell', '4 threads', '--json']);
    assert.equal(json.code, EXIT.ok, json.err);
    const { histories } = JSON.parse(json.out) as { histories: WorkloadHistory[] };
    assert.equal(histories.length, 1);
    const [cell] = histories[0].cells;
    assert.equal(cell.name, '4 threads');
    assert.equal(cell.points.length, 12);
    assert.deepEqual(
      cell.changes.map((c) => [c.index, c.experimentId]),
      [[6, `${saved.id}-day06`]],
    );
    const c = cell.changes[0];
    assert.ok(c.interval.low < 0.8 * 1.05 && c.interval.high > 0.8 / 1.05 && c.interval.high < 1, JSON.stringify(c));
    const missing = await programCli(['history', ...oneWorkload, '--cell', '16 threads']);
    assert.equal(missing.code, EXIT.usage);
    assert.match(missing.err, /No cell "16 threads" in this history; it has "2 threads", "4 threads"\./);
  });

  it("the panel's History view asks the host and gets the same figures as --json (one definition, shared)", () =>
    withSim({}, async (sim) => {
      const ports = fakePorts({ resultsFolder: parent });
      const c = await connectedController(sim, ports, fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-history-panel-')));
      try {
        const trend = resultOf(await ask(c, ports, 'historyTrend', {}));
        const panel = trend.histories.filter((h) => h.workload.startsWith('scenario disk-insert'));
        const cli = JSON.parse((await programCli(['history', ...oneWorkload, '--json'])).out) as { histories: WorkloadHistory[] };
        assert.equal(panel.length, 1);
        assert.equal(panel[0].cells[0].changes[0]?.experimentId, `${saved.id}-day06`);
        assert.deepEqual(JSON.parse(JSON.stringify(panel)), cli.histories);
      } finally {
        await c.dispose();
      }
    }));

  it('nothing readable: a clear error, the files exit code', async () => {
    const r = await programCli(['history', path.join(parent, 'broken'), path.join(parent, 'nowhere')]);
    assert.equal(r.code, EXIT.files);
    assert.match(r.err, /skipped \S*nowhere: does not exist/);
    assert.match(r.err, /No experiment could be read from .*: give the folders runs wrote/);
  });
});
