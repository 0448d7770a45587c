// The engine end to end through the real driver against the simulator: each scenario deployed, swept and cleaned up;
// server-wide knobs put back after success, failure and cancel; permission errors that name the GRANT; a restart
// mid-run reported with the samples before it kept; a leftover journal refusing a new run until `spinlab restore`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { runExperiment, type ExperimentOptions } from '../../src/engine/experiment';
import { DbSession } from '../../src/db/client';
import { readKnobState } from '../../src/engine/knobs';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { cleanupCommand, restoreCommand } from '../../src/cli/commands';
import { writeJournal, serverKey, readJournal } from '../../src/engine/journal';
import { tmp } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';

function options(sim: Simulator, over: Partial<ExperimentOptions> & { scenarioId: string }): ExperimentOptions {
  const scenario = getScenario(over.scenarioId);
  return {
    target: targetFor(sim),
    parameters: defaultParameters(scenario),
    labDatabase: 'SpinlockLab',
    load: { mode: 'server-loop', threads: [1, 2], durationMs: 1000, rows: null, warmupMs: 0, intervalMs: 250 },
    knobs: {},
    outDir: tmp('out'),
    stateDir: tmp('state'),
    ...over,
  };
}

async function knobState(sim: Simulator) {
  const admin = await DbSession.open(targetFor(sim), { database: 'master' });
  try {
    return await readKnobState(admin, 'SpinlockLab');
  } finally {
    await admin.close();
  }
}

const smallParams: Record<string, Record<string, string | number>> = {
  'disk-insert': { seed_rows: 1000 },
  'inmem-insert': { bucket_count: 65536 },
  'ring-buffer': { slots: 4096 },
};

for (const scenarioId of ['disk-insert', 'inmem-insert', 'ring-buffer']) {
  for (const mode of ['server-loop', 'client-loop'] as const) {
    it(`${scenarioId} (${mode}): deploy, a two-point sweep with live ticks, cleanup`, () =>
      withSim({}, async (sim) => {
        const o = options(sim, { scenarioId });
        o.parameters = { ...o.parameters, ...smallParams[scenarioId] };
        o.load = { ...o.load, mode };
        let ticks = 0;
        const { experiment, file } = await runExperiment(o, new AbortController().signal, (p) => {
          if (p.kind === 'tick') ticks++;
        });
        assert.equal(experiment.status, 'completed', JSON.stringify(experiment.events));
        assert.equal(experiment.simulated, true);
        assert.deepEqual(
          experiment.runs.map((r) => r.threads),
          [1, 2],
        );
        for (const r of experiment.runs) {
          assert.ok(r.rows > 0, `rows in run ${r.threads}`);
          assert.ok(r.timeline.length >= 2, `ticks in run ${r.threads}`);
          assert.ok(
            Object.values(r.totals.spinlocks).some((s) => s.spins > 0),
            'spinlock deltas',
          );
          if (mode === 'client-loop') assert.ok(r.latency && r.latency.count > 0 && r.latency.p99Us! >= r.latency.p50Us!);
        }
        assert.ok(ticks >= 4);
        assert.equal(fs.readFileSync(path.join(o.outDir, 'samples.jsonl'), 'utf8').trim().split('\n').length >= ticks, true);
        assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).status, 'completed');
        const msg = await cleanupCommand(targetFor(sim), scenarioId, [], 'SpinlockLab');
        assert.match(msg, new RegExp(`Removed ${scenarioId}`));
      }));
  }
}

it('a run ends on its last full or partial interval rated over its real length, never on a drop to zero', () =>
  withSim({}, async (sim) => {
    const o = options(sim, { scenarioId: 'disk-insert' });
    o.parameters = { ...o.parameters, ...smallParams['disk-insert'] };
    o.load = { ...o.load, threads: [1], durationMs: 1000, intervalMs: 250 };
    const live: number[] = [];
    const { experiment } = await runExperiment(o, new AbortController().signal, (p) => {
      if (p.kind === 'tick') live.push(p.tick.rowsPerSec);
    });
    const steady = [...live].sort((a, b) => a - b)[Math.floor(live.length / 2)];
    assert.ok(live.length >= 3, `ticks: ${live.join(', ')}`);
    for (const [i, r] of live.entries())
      assert.ok(
        r > steady / 4,
        `tick ${i + 1} of ${live.length} at ${Math.round(r)}/s against ${Math.round(steady)}/s: ${live.map(Math.round).join(', ')}`,
      );
    const timeline = experiment.runs[0].timeline;
    assert.ok(timeline[timeline.length - 1].rowsPerSec > steady / 4, 'the saved timeline ends the same way');
  }));

it('a run over within a quarter of its sampling interval keeps its one interval, rated over the time it had load', () =>
  withSim({}, async (sim) => {
    const o = options(sim, { scenarioId: 'disk-insert' });
    o.parameters = { ...o.parameters, ...smallParams['disk-insert'] };
    // 50 rows in one session take milliseconds; the sampling interval is 5 s.
    o.load = { ...o.load, threads: [1], durationMs: null, rows: 50, intervalMs: 5000, warmupMs: 0 };
    const { experiment } = await runExperiment(o, new AbortController().signal, () => {});
    const run = experiment.runs[0];
    assert.equal(run.status, 'completed');
    assert.equal(run.timeline.length, 1, 'its one interval is its measurement');
    assert.ok(run.timeline[0].intervalMs < 5000 / 4, `rated over the loaded part, not the interval: ${run.timeline[0].intervalMs} ms`);
    assert.ok(run.timeline[0].rowsPerSec > 0);
  }));

const KNOBS = { delayedDurability: 'FORCED' as const, affinity: 'exclude-core0' };

it('knobs are applied during the run and restored after success', () =>
  withSim({}, async (sim) => {
    const o = options(sim, { scenarioId: 'disk-insert', knobs: KNOBS });
    o.parameters.seed_rows = 0;
    const before = await knobState(sim).catch(() => null); // lab db may not exist yet
    let during: Awaited<ReturnType<typeof knobState>> | null = null;
    const { experiment } = await runExperiment(o, new AbortController().signal, (p) => {
      if (p.kind === 'run-start' && !during)
        void knobState(sim).then((s) => {
          during = s;
        });
    });
    assert.equal(experiment.status, 'completed');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(during!.delayedDurability, 'FORCED');
    assert.equal(during!.affinity.type, 'MANUAL');
    assert.ok(!during!.affinity.cpus.includes(0) && !during!.affinity.cpus.includes(1), 'both hyperthreads of core 0 left out');
    const after = await knobState(sim);
    assert.deepEqual(after, { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: Array.from({ length: 40 }, (_, i) => i) } });
    if (before) assert.deepEqual(after.affinity, before.affinity);
    assert.deepEqual(experiment.knobs.before?.affinity.type, 'AUTO');
    assert.equal(readJournal(o.stateDir!, serverKey(`127.0.0.1,${sim.port}`, experiment.server.serverName)), null, 'journal removed');
  }));

it('a statement failing in every session fails the run and the knobs are still restored', () =>
  withSim({}, async (sim) => {
    const o = options(sim, { scenarioId: 'disk-insert', knobs: KNOBS });
    o.parameters.seed_rows = 0;
    sim.faults.failStatement('dbo.spinlab_disk_insert_loop', { number: 1205, message: 'Transaction was deadlocked (injected).' });
    const { experiment } = await runExperiment(o, new AbortController().signal);
    assert.equal(experiment.status, 'failed');
    assert.match(experiment.runs[0].sessionFailures[0].message, /deadlocked \(injected\)/);
    assert.equal(experiment.runs.length, 1, 'a failed run stops the sweep');
    const after = await knobState(sim);
    assert.equal(after.delayedDurability, 'DISABLED');
    assert.equal(after.affinity.type, 'AUTO');
  }));

it('cancel stops the sessions with ATTENTION, keeps the ticks taken, and restores the knobs', () =>
  withSim({}, async (sim) => {
    const o = options(sim, { scenarioId: 'disk-insert', knobs: KNOBS });
    o.parameters.seed_rows = 0;
    o.load = { ...o.load, threads: [2, 4], durationMs: 20_000 };
    const ac = new AbortController();
    const started = Date.now();
    let ticks = 0;
    const { experiment } = await runExperiment(o, ac.signal, (p) => {
      if (p.kind === 'tick' && ++ticks === 3) ac.abort();
    });
    assert.ok(Date.now() - started < 10_000, 'cancel is prompt');
    assert.equal(experiment.status, 'cancelled');
    assert.equal(experiment.runs.length, 1);
    assert.equal(experiment.runs[0].status, 'cancelled');
    assert.ok(experiment.runs[0].timeline.length >= 3, 'ticks before the cancel are kept');
    assert.ok(experiment.runs[0].rows > 0);
    const after = await knobState(sim);
    assert.deepEqual([after.delayedDurability, after.affinity.type], ['DISABLED', 'AUTO']);
  }));

it('a login without ALTER SETTINGS gets the GRANT that fixes it, and nothing is left changed', () =>
  withSim(
    {
      logins: [{ name: 'tuner', password: 'Tuner-Pw1!', permissions: ['VIEW SERVER STATE', 'VIEW DATABASE STATE', 'CREATE ANY DATABASE'] }],
    },
    async (sim) => {
      // Deploy as sa; the restricted login only runs.
      const setup = options(sim, { scenarioId: 'disk-insert' });
      setup.parameters.seed_rows = 0;
      setup.load = { ...setup.load, threads: [1], durationMs: 300 };
      await runExperiment(setup, new AbortController().signal);
      const o = options(sim, {
        scenarioId: 'disk-insert',
        knobs: { affinity: 'numa:0' },
        deploy: false,
        target: targetFor(sim, { user: 'tuner', password: 'Tuner-Pw1!' }),
      });
      await assert.rejects(
        runExperiment(o, new AbortController().signal),
        (e: Error) => /Changing process affinity failed/.test(e.message) && /GRANT ALTER SETTINGS TO \[tuner\]/.test(e.message),
      );
      assert.equal((await knobState(sim)).affinity.type, 'AUTO');
    },
  ));

it('a login without VIEW SERVER STATE is told which GRANT to ask for before anything runs', () =>
  withSim({ logins: [{ name: 'reader', password: 'Reader-Pw1!', permissions: [] }] }, async (sim) => {
    const o = options(sim, { scenarioId: 'disk-insert', target: targetFor(sim, { user: 'reader', password: 'Reader-Pw1!' }) });
    await assert.rejects(
      runExperiment(o, new AbortController().signal),
      /lacks VIEW SERVER STATE[\s\S]*GRANT VIEW SERVER PERFORMANCE STATE TO \[reader\]/,
    );
  }));

it('a restart mid-run is reported and the samples before it are kept', () =>
  withSim({}, async (sim) => {
    const o = options(sim, { scenarioId: 'disk-insert', knobs: { delayedDurability: 'FORCED' } });
    o.parameters.seed_rows = 0;
    o.load = { ...o.load, threads: [2], durationMs: 4000 };
    let ticks = 0;
    const { experiment } = await runExperiment(o, new AbortController().signal, (p) => {
      if (p.kind === 'tick' && ++ticks === 3) sim.faults.restart();
    });
    const run = experiment.runs[0];
    assert.ok(run.timeline.length >= 3, `ticks kept: ${run.timeline.length}`);
    const said = [...experiment.events, ...run.events].map((e) => e.message).join('\n');
    assert.match(said, /SQL Server restarted between two samples[\s\S]*The samples before it are kept/, said);
    assert.ok(run.sessionFailures.length > 0, 'the dropped sessions are reported');
    assert.ok(fs.readFileSync(path.join(o.outDir, 'samples.jsonl'), 'utf8').trim().split('\n').length >= 3);
    // Delayed durability is a database setting: it survives the restart and must still be put back.
    assert.equal((await knobState(sim)).delayedDurability, 'DISABLED');
  }));

it('a journal left by a crash blocks a new experiment until spinlab restore puts the server back', () =>
  withSim({}, async (sim) => {
    const o = options(sim, { scenarioId: 'disk-insert' });
    o.parameters.seed_rows = 0;
    o.load = { ...o.load, threads: [1], durationMs: 300 };
    const first = await runExperiment(o, new AbortController().signal);
    // What a killed process leaves: the settings changed and the journal of the originals.
    const admin = await DbSession.open(targetFor(sim), { database: 'master' });
    await admin.runFile('knobs/affinity-cpu', { cpu_ranges: '2 TO 9' });
    await admin.runFile('knobs/delayed-durability', { db: 'SpinlockLab', mode: 'FORCED' });
    await admin.close();
    const key = serverKey(`127.0.0.1,${sim.port}`, first.experiment.server.serverName);
    writeJournal(o.stateDir!, {
      version: 1,
      serverKey: key,
      serverAddress: `127.0.0.1,${sim.port}`,
      serverName: first.experiment.server.serverName,
      labDatabase: 'SpinlockLab',
      createdAt: new Date().toISOString(),
      pid: 99999,
      original: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [] } },
      changes: ['affinity', 'delayedDurability'],
    });
    await assert.rejects(
      runExperiment({ ...o, outDir: tmp('out') }, new AbortController().signal),
      /did not put it back[\s\S]*spinlab restore/,
    );
    const msg = await restoreCommand(targetFor(sim), o.stateDir!);
    assert.match(msg, /process affinity set back to AUTO/);
    assert.match(msg, /delayed durability on \[SpinlockLab\] set back to DISABLED/);
    const after = await knobState(sim);
    assert.deepEqual([after.delayedDurability, after.affinity.type, after.affinity.cpus.length], ['DISABLED', 'AUTO', 40]);
    assert.equal(readJournal(o.stateDir!, key), null);
    assert.match(await restoreCommand(targetFor(sim), o.stateDir!), /Nothing to restore/);
  }));
