// Against the simulator, end to end through the CLI: every completed run's record holds where its steady state began
// (run.steady) and its figures are over that window; presets whose deploys coexist in the lab database (disk-insert
// and inmem-insert) run their arms in turns across the deploys, one A/B block per repetition and thread count, and a
// preset whose deploys replace each other (ring-buffer: one scenario, other tables) records that its arms were not
// interleaved (design.interleaved, and blocks no two arms share).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { mainCli, type MainResult } from '../helpers/cliInProcess';
import { readExperiment, tmp } from '../helpers/common';
import { validateExperiment } from '../../src/engine/migrate';
import { perSecond, runFigures } from '../../src/shared/analysis';
import type { Experiment, RunRecord } from '../../src/shared/experiment';

const SHORT = ['--threads', '2', '--duration', '2s', '--warmup', '1s', '--interval', '250ms'];

async function preset(args: string[]): Promise<MainResult & { e: Experiment }> {
  return withSim({}, async (sim) => {
    const dir = path.join(tmp('steady'), 'out');
    const env = {
      SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
      SPINLAB_PASSWORD: SIM_PASSWORD,
      SPINLAB_STATE_DIR: tmp('state'),
    };
    const r = await mainCli(['run', ...args, ...SHORT, '--out', dir], env);
    assert.equal(r.code, 0, r.output);
    return { ...r, e: readExperiment(dir) };
  });
}

/** The steady window as the record holds it, and the run's figures over it. */
function checkSteady(r: RunRecord): void {
  const s = r.steady!;
  assert.ok(s, `run ${r.index + 1} has no steady field`);
  assert.equal(s.rule, 'mser');
  assert.equal(s.warmupMs, 1000);
  assert.equal(s.droppedTicks, s.fromTick);
  assert.ok(s.fromTick <= Math.floor(r.timeline.length / 3));
  const dropped = r.timeline.slice(0, s.fromTick);
  assert.equal(
    s.droppedMs,
    dropped.reduce((a, t) => a + t.intervalMs, 0),
  );
  assert.equal(
    s.droppedRows,
    dropped.reduce((a, t) => a + t.rows, 0),
  );
  // The figures are over the window: its ticks (and the closing sliver, not charted) make the totals.
  const window = r.timeline.slice(s.fromTick);
  assert.ok(r.totals.elapsedMs >= window.reduce((a, t) => a + t.intervalMs, 0));
  assert.equal(r.elapsedMs, r.totals.elapsedMs);
  assert.equal(r.derived.rowsPerSec, perSecond(r.rows, r.totals.elapsedMs));
  assert.equal(runFigures(r).rowsPerSec, r.derived.rowsPerSec, 'every view reads the one figure');
}

const show = (e: Experiment) =>
  e.runs
    .map(
      (r) =>
        `      run ${r.index + 1} ${r.arm.id}#${r.repetition} block ${r.block}: steady from tick ${r.steady?.fromTick} of ${r.timeline.length} (dropped ${r.steady?.droppedMs} ms, p ${r.steady?.p}), ${Math.round(r.derived.rowsPerSec)} rows/s`,
    )
    .join('\n');

describe('steady state and A/B blocks in the record, against the simulator', function () {
  this.timeout(240_000);

  it('numa-logwriter with its in-memory arms: disk and in-memory deploys coexist, so all four arms take turns', async () => {
    const { e } = await preset(['--preset', 'numa-logwriter', '--set', 'in_memory=true', '--set', 'seed_rows=0', '--repeat', '2']);
    console.log(`      design.interleaved ${JSON.stringify(e.design?.interleaved)}\n${show(e)}`);
    assert.equal(validateExperiment(e), null);
    const ids = [...new Set(e.runs.map((r) => r.arm.id))];
    assert.equal(ids.length, 4);
    assert.deepEqual(e.design?.interleaved, [ids]);
    // Both deploys first, then A B C D, D C B A: each block holds every arm once.
    assert.deepEqual(
      e.runs.map((r) => r.block),
      [1, 1, 1, 1, 2, 2, 2, 2],
    );
    assert.deepEqual(
      e.runs.slice(4).map((r) => r.arm.id),
      [...ids].reverse(),
    );
    assert.equal(e.runs[0].arm.scenarioId, 'disk-insert');
    assert.equal(e.runs[2].arm.scenarioId, 'inmem-insert');
    for (const r of e.runs) {
      assert.equal(r.status, 'completed', JSON.stringify(r.events));
      checkSteady(r);
    }
  });

  it("ring-buffer: its arms replace each other's tables, so they run one after another and the record says so", async () => {
    const { e } = await preset(['--preset', 'ring-buffer', '--set', 'slots=4096', '--repeat', '2']);
    console.log(`      design.interleaved ${JSON.stringify(e.design?.interleaved)}\n${show(e)}`);
    assert.equal(validateExperiment(e), null);
    const ids = [...new Set(e.runs.map((r) => r.arm.id))];
    assert.ok(ids.length >= 2);
    assert.deepEqual(
      e.design?.interleaved,
      ids.map((id) => [id]),
    );
    // No two arms share a block: a paired analysis of disk against memory slots has no pairs to use.
    const armsOfBlock = new Map<number, Set<string>>();
    for (const r of e.runs) armsOfBlock.set(r.block!, (armsOfBlock.get(r.block!) ?? new Set()).add(r.arm.id));
    assert.ok([...armsOfBlock.values()].every((s) => s.size === 1));
    for (const r of e.runs.filter((x) => x.status === 'completed')) checkSteady(r);
  });
});
