// Presets run from the panel: LabController driven by the webview's messages (the presetPreview request, presetRun, experimentStop) with
// fake host ports, against the simulator through the real driver. A preset's runs carry their arm, the confirmation
// names every server-wide change of every arm, Stop midway puts the knobs back, a one-node server gets the preset's
// adaptation notes in the state (not a failure), and bad settings come back as one error listing every problem.
import assert from 'node:assert/strict';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { CONFIRM_ACTION } from '../../src/host/labController';
import { ask, connectedController, knobsNow, resultOf, waitFor } from '../helpers/host';
import { listJournals } from '../../src/engine/journal';
import { readExperiment } from '../../src/host/history';
import type { PresetLoadInput } from '../../src/shared/protocol';
import { fakePorts, tmpDir, type FakePorts } from '../unit/host/fakePorts';

async function connected(sim: Simulator, ports: FakePorts, stateDir: string) {
  const c = await connectedController(sim, ports, stateDir);
  assert.equal(ports.lastState().connection.status, 'connected', JSON.stringify(ports.lastState().connection.error));
  return c;
}

// One run per cell: these tests are about the panel's plan and its knobs, not intervals (repetitions triple the time).
const SHORT: PresetLoadInput = {
  mode: 'server-loop',
  threads: '2',
  duration: '1s',
  rows: '',
  warmup: '0s',
  interval: '250ms',
};

it("the catalogue and each preset's plan for this server are in the state; writelog runs from the panel with its arms, confirmed and put back", () =>
  withSim({ topology: '2x10x2' }, async (sim) => {
    const ports = fakePorts();
    const stateDir = tmpDir('state');
    const c = await connected(sim, ports, stateDir);
    try {
      let s = ports.lastState();
      assert.deepEqual(
        s.presets.map((p) => p.id),
        ['numa-logwriter', 'isolate-core0', 'xdesmgr-batch', 'writelog', 'ring-buffer'],
      );
      const wl = s.presets.find((p) => p.id === 'writelog')!;
      assert.equal(wl.post, 'writelog-at-scale');
      assert.match(wl.question, /WRITELOG/);
      assert.deepEqual(
        wl.settings.map((x) => [x.name, x.default]),
        [
          ['batch_size', 2],
          ['affinity', 'exclude-core0'],
          ['seed_rows', 100000],
        ],
      );
      assert.deepEqual(
        s.presetPlans.map((p) => [p.presetId, p.problems]),
        s.presets.map((p) => [p.id, []]),
        'every preset has a plan on this server',
      );
      const plan = s.presetPlans.find((p) => p.presetId === 'writelog')!;
      assert.deepEqual(
        plan.arms.map((a) => [a.id, a.threads]),
        [
          ['dd-disabled', [16]],
          ['dd-forced', [16]],
        ],
      );
      assert.match(plan.arms[1].knobs, /delayed durability FORCED; CPU affinity exclude-core0 \(CPUs 2-39\)/);

      // A preview with the user's settings is the answer to the question; the state keeps the default plans.
      const preview = resultOf(
        await ask(c, ports, 'presetPreview', { presetId: 'writelog', settings: { affinity: 'unchanged' }, load: SHORT }),
      );
      assert.equal(preview.presetId, 'writelog');
      assert.deepEqual(ports.lastState().presetPlans, s.presetPlans, 'a preview does not touch the state');
      assert.deepEqual(
        preview.arms.map((a) => a.threads),
        [[2], [2]],
      );
      assert.match(preview.arms[0].knobs, /CPU affinity as the server has it/);

      const before = await knobsNow(sim);
      // Twice each arm, as the Repetitions field asks: the arms take turns, A B then B A.
      await c.receive({ type: 'presetRun', payload: { presetId: 'writelog', settings: { seed_rows: '0' }, load: SHORT, repeat: 2 } });
      s = ports.lastState();
      assert.equal(s.lastError, null, JSON.stringify(s.lastError));
      assert.equal(ports.confirms.length, 1);
      const q = ports.confirms[0];
      assert.equal(q.actionLabel, CONFIRM_ACTION);
      assert.match(
        q.detail,
        /arm "delayed durability DISABLED \(every commit waits for its flush\)": CPU affinity \(server-wide\): AUTO \(every CPU: 0-39\) -> CPUs 2-39/,
      );
      assert.match(
        q.detail,
        /arm "delayed durability FORCED": Delayed durability on \[SpinlockLab\]: DISABLED( \(the lab database is created with it\))? -> FORCED/,
      );
      assert.match(q.detail, /put back when the experiment ends, fails or is cancelled/);

      assert.equal(s.active?.status, 'completed', s.active?.message);
      assert.equal(s.active?.preset?.id, 'writelog');
      assert.deepEqual(
        s.active?.preset?.comparisons.map((x) => [x.a, x.b]),
        [['dd-disabled', 'dd-forced']],
      );
      assert.deepEqual(
        s.active?.runs.map((r) => `${r.arm?.id}#${r.repetition}`),
        ['dd-disabled#1', 'dd-forced#1', 'dd-forced#2', 'dd-disabled#2'],
      );
      assert.ok(
        s.active?.runs.every((r) => r.derived && r.derived.cpusUsed > 0),
        'ended runs carry their derived figures',
      );
      assert.deepEqual(
        ports.ofType('runStart').map((m) => [m.payload.arm?.label, m.payload.repetition]),
        [
          ['delayed durability DISABLED (every commit waits for its flush)', 1],
          ['delayed durability FORCED', 1],
          ['delayed durability FORCED', 2],
          ['delayed durability DISABLED (every commit waits for its flush)', 2],
        ],
      );
      assert.ok(ports.ofType('runTick').length >= 4);
      assert.match(ports.progressTitles[0], /WRITELOG: full against delayed durability \(preset writelog\)/);

      const h = s.history[0];
      assert.equal(h.id, s.active?.experimentId);
      assert.equal(h.presetId, 'writelog');
      assert.deepEqual(
        h.runs.map((r) => r.arm?.id),
        ['dd-disabled', 'dd-forced', 'dd-forced', 'dd-disabled'],
      );
      const e = readExperiment(ports.settingsValue.resultsFolder, h.id);
      assert.equal(e.preset?.id, 'writelog');
      assert.equal(e.design?.repeat, 2);
      const after = await knobsNow(sim);
      assert.deepEqual(after.affinity, before.affinity, 'affinity is back');
      assert.equal(
        after.delayedDurability,
        before.delayedDurability ?? 'DISABLED',
        'delayed durability is back (DISABLED: the lab database was created with it)',
      );
      assert.deepEqual(listJournals(stateDir), []);

      // Opened from the history, the experiment comes with its preset's views and comparisons.
      const opened = resultOf(await ask(c, ports, 'experimentOpen', { id: h.id }));
      assert.deepEqual(opened.preset?.views, ['ab', 'writelog']);
      assert.deepEqual(
        opened.preset?.comparisons.map((x) => [x.a, x.b]),
        [['dd-disabled', 'dd-forced']],
      );
    } finally {
      await c.dispose();
    }
  }));

it('a preset stopped midway puts the knobs back; bad settings give every problem in one error', () =>
  withSim({ topology: '2x10x2' }, async (sim) => {
    const ports = fakePorts();
    const stateDir = tmpDir('state');
    const c = await connected(sim, ports, stateDir);
    try {
      await c.receive({
        type: 'presetRun',
        payload: {
          presetId: 'isolate-core0',
          settings: { batch_size: '0', delayed_durability: 'SOMETIMES', colour: 'blue' },
          load: { ...SHORT, threads: 'many', interval: '10ms' },
        },
      });
      const err = ports.lastState().lastError!;
      assert.ok(err, 'an error');
      assert.match(err.message, /5 settings need fixing/);
      for (const re of [
        /batch_size.*0 is too small/,
        /delayed_durability.*not one of the choices/,
        /Unknown parameter colour/,
        /Threads/,
        /Sampling interval/,
      ]) {
        assert.match(err.message, re);
      }
      assert.equal(ports.confirms.length, 0, 'nothing to confirm: nothing runs');
      assert.equal(ports.ofType('runStart').length, 0);

      const before = await knobsNow(sim);
      const running = c.receive({
        type: 'presetRun',
        payload: { presetId: 'isolate-core0', settings: { seed_rows: '0' }, load: { ...SHORT, duration: '30s' }, repeat: 1 },
      });
      await waitFor('a tick', () => ports.ofType('runTick').length >= 2);
      const during = await knobsNow(sim);
      assert.equal(during.delayedDurability, 'FORCED');
      await c.receive({ type: 'experimentStop', payload: {} });
      await running;
      const s = ports.lastState();
      assert.equal(s.active?.status, 'cancelled');
      assert.equal(ports.ofType('runStart').length, 1, 'the second arm never started');
      assert.equal(ports.ofType('runStart')[0].payload.arm?.id, 'with-core0');
      const after = await knobsNow(sim);
      assert.deepEqual(after.affinity, before.affinity, 'stopped: the affinity is as before');
      assert.equal(after.delayedDurability, before.delayedDurability ?? 'DISABLED', 'stopped: delayed durability is as before');
      assert.equal(s.journal, null);
      assert.deepEqual(listJournals(stateDir), []);
      assert.equal(s.history[0]?.status, 'cancelled');
    } finally {
      await c.dispose();
    }
  }));

it('a one-node server: the presets that need two nodes adapt, with notes in the state instead of a failure', () =>
  withSim({ topology: '1x4x2' }, async (sim) => {
    const ports = fakePorts();
    const c = await connected(sim, ports, tmpDir('state'));
    try {
      const s = ports.lastState();
      assert.equal(s.lastError, null);
      const numa = s.presetPlans.find((p) => p.presetId === 'numa-logwriter')!;
      assert.deepEqual(numa.problems, []);
      assert.ok(
        numa.notes.some((n) => /one NUMA node/.test(n)),
        numa.notes.join('\n'),
      );
      assert.deepEqual(
        numa.arms.slice(0, 2).map((a) => a.id),
        ['with-core0', 'without-core0'],
      );
      const xdes = s.presetPlans.find((p) => p.presetId === 'xdesmgr-batch')!;
      assert.ok(
        xdes.notes.some((n) => /one NUMA node: the one-socket-against-both comparison is left out/.test(n)),
        xdes.notes.join('\n'),
      );
      assert.ok(
        s.presetPlans.every((p) => p.problems.length === 0),
        JSON.stringify(s.presetPlans.map((p) => [p.presetId, p.problems])),
      );
    } finally {
      await c.dispose();
    }
  }));

it('all five presets run from the panel on a two-node server: every arm completes, the knobs come back, no journal is left', () =>
  withSim({ topology: '2x4x2' }, async (sim) => {
    const ports = fakePorts({ confirmServerChanges: false });
    const stateDir = tmpDir('state');
    const c = await connected(sim, ports, stateDir);
    try {
      const before = await knobsNow(sim);
      // Short and small: the point is that each preset's plan runs from the panel; the seeds' directions are
      // asserted through the same engine in test/integration/presets.test.ts.
      const settings: Record<string, Record<string, string | boolean>> = {
        'numa-logwriter': { seed_rows: '0', in_memory: false },
        'isolate-core0': { seed_rows: '0' },
        'xdesmgr-batch': { seed_rows: '0', sockets: false },
        writelog: { seed_rows: '0' },
        'ring-buffer': { slots: '4096' },
      };
      for (const p of ports.lastState().presets) {
        await c.receive({
          type: 'presetRun',
          payload: { presetId: p.id, settings: settings[p.id] ?? {}, load: { ...SHORT, threads: '1' }, repeat: 1 },
        });
        const s = ports.lastState();
        assert.equal(s.lastError, null, `${p.id}: ${JSON.stringify(s.lastError)}`);
        assert.equal(s.active?.status, 'completed', `${p.id}: ${s.active?.message}`);
        assert.equal(s.active?.preset?.id, p.id);
        assert.ok(new Set(s.active!.runs.map((r) => r.arm?.id)).size >= 2, `${p.id} ran its arms: ${s.active!.runs.map((r) => r.arm?.id)}`);
        assert.ok(
          s.active!.runs.every((r) => r.status === 'completed'),
          p.id,
        );
        assert.deepEqual((await knobsNow(sim)).affinity, before.affinity, `${p.id}: affinity is back`);
        assert.deepEqual(listJournals(stateDir), [], `${p.id}: no journal left`);
      }
      assert.equal(ports.lastState().history.length, 5);
    } finally {
      await c.dispose();
    }
  })).timeout(300_000);
