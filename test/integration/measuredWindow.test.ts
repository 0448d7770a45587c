// What the measurement itself does must stay out of the window it measures. Each workload session draws its key block
// from the lab's NO CACHE sequence, a metadata write under the METADATA_SEQUENCE_GENERATOR latch: the very latch the
// ring-buffer preset asks about. The draw happens once per session when it connects, before warm-up and the baseline,
// and not at all for a scenario whose procedures take no key.
import assert from 'node:assert/strict';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { runExperiment, type ExperimentOptions } from '../../src/engine/experiment';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { tmp } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';

function options(sim: Simulator, scenarioId: string, mode: 'server-loop' | 'client-loop'): ExperimentOptions {
  return {
    scenarioId,
    target: targetFor(sim),
    parameters: {
      ...defaultParameters(getScenario(scenarioId)),
      ...(scenarioId === 'ring-buffer' ? { slots: 4096 } : { seed_rows: 1000 }),
    },
    labDatabase: 'SpinlockLab',
    load: { mode, threads: [4], durationMs: 1000, rows: null, warmupMs: 300, intervalMs: 250, clientWorkers: 0 },
    knobs: {},
    outDir: tmp('out'),
    stateDir: tmp('state'),
  };
}

/** Key blocks drawn so far: the sequence's next value less its start. */
function drawn(sim: Simulator): number {
  const db = sim.model.database('SpinlockLab');
  const seq = db && sim.model.findObject(db, 'dbo.spinlab_key_block');
  return seq ? Number((seq.nextValue ?? 1n) - 1n) : 0;
}

describe('the measured window', function () {
  this.timeout(60_000);

  for (const mode of ['server-loop', 'client-loop'] as const) {
    it(`disk-insert (${mode}): one key block per session, drawn before the baseline; no sequence latch in the run`, () =>
      withSim({}, async (sim) => {
        const { experiment } = await runExperiment(options(sim, 'disk-insert', mode), new AbortController().signal, () => undefined);
        assert.equal(experiment.status, 'completed', JSON.stringify(experiment.events));
        const [run] = experiment.runs;
        assert.ok(run.rows > 0);
        // Warm-up and measured phase share the sessions' blocks (at different offsets): 4 sessions, 4 draws.
        assert.equal(drawn(sim), 4);
        assert.equal(
          run.totals.latches.METADATA_SEQUENCE_GENERATOR?.count ?? 0,
          0,
          `sequence latch waits inside the measured window: ${JSON.stringify(run.totals.latches.METADATA_SEQUENCE_GENERATOR)}`,
        );
      }));
  }

  it('ring-buffer: its procedures take no key, so no key block is drawn at all', () =>
    withSim({}, async (sim) => {
      const { experiment } = await runExperiment(options(sim, 'ring-buffer', 'client-loop'), new AbortController().signal, () => undefined);
      assert.equal(experiment.status, 'completed', JSON.stringify(experiment.events));
      assert.equal(drawn(sim), 0);
    }));

  it('a run whose sessions open slowly says it overran its plan, and where the time went, in its warnings', () =>
    withSim({}, async (sim) => {
      // Every reply held back 2 s while the sessions open (a server slow to take logins), none after.
      const { experiment } = await runExperiment(options(sim, 'disk-insert', 'server-loop'), new AbortController().signal, (p) => {
        if (p.kind === 'status' && /opening \d+ sessions/.test(p.message)) sim.faults.setResponseDelay(2000);
        if (p.kind === 'status' && /warming up|measuring/.test(p.message)) sim.faults.setResponseDelay(0);
      });
      assert.equal(experiment.status, 'completed', JSON.stringify(experiment.events));
      const warnings = experiment.runs[0].events.filter((e) => e.level === 'warning').map((e) => e.message);
      const note = warnings.find((m) => /this run took/.test(m));
      assert.ok(note, warnings.join('\n'));
      assert.match(
        note,
        /^this run took [\d.]+ s against the 1\.3 s planned \(0\.3 s warm-up \+ 1 s measured\): opening the 4 sessions [\d.]+ s/,
      );
      assert.ok(
        experiment.events.some((e) => e.level === 'warning' && /run 1 \(4 threads\): this run took/.test(e.message)),
        "in the experiment's warnings too",
      );
    }));
});
