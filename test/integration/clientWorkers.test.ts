// The client loop on worker threads (src/engine/workers/clientPool.ts) against the simulator: 2 workers give the same
// totals and merged percentiles as 1, cancel reaches every worker's calls and leaves no connection open, a failing
// call in one worker is counted while the run goes on, and a worker that dies is reported rather than waited for.
import assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import type { CustomWorkload } from '../../src/shared/experiment';
import type { PhaseFailure } from '../../src/engine/loadDriver';
import { withAdmin } from '../../src/cli/commands';
import { deployScenario } from '../../src/engine/lab';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { LatencyRecorder } from '../../src/engine/histogram';
import { ClientWorkerPool } from '../../src/engine/workers/clientPool';
import type { WorkerPlan } from '../../src/engine/workers/messages';
import { targetFor } from '../helpers/simTarget';

const LAB = 'SpinlockLab';

async function builtinPlan(sim: Simulator): Promise<WorkerPlan> {
  const scenario = getScenario('disk-insert');
  const params = { ...defaultParameters(scenario), seed_rows: 0, batch_size: 1 };
  await withAdmin(targetFor(sim, { database: 'master' }), (admin, identity) =>
    deployScenario(targetFor(sim, { database: 'master' }), admin, identity, LAB, scenario, params, () => undefined),
  );
  return { kind: 'builtin', target: targetFor(sim), labDatabase: LAB, scenario, params };
}

function customPlan(sim: Simulator, iterations: number | null): WorkerPlan {
  const workload: CustomWorkload = {
    statements: [{ source: '--sql', text: 'SELECT 1' }],
    database: 'master',
    params: null,
    iterations,
    thinkTimeMs: 0,
    queryTimeoutMs: null,
    stopOnError: false,
    writes: null,
  };
  return { kind: 'custom', target: targetFor(sim), workload, table: null };
}

async function open(plan: WorkerPlan, threads: number, workers: number): Promise<ClientWorkerPool> {
  const failures: PhaseFailure[] = [];
  const pool = await ClientWorkerPool.open(plan, threads, workers, failures);
  assert.deepEqual(failures, []);
  return pool;
}

async function noSessionsLeft(sim: Simulator): Promise<number> {
  for (let i = 0; i < 40 && sim.server.sessions().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return sim.server.sessions().length;
}

describe('client loop on worker threads', function () {
  this.timeout(120_000);

  it('2 workers make the same calls as 1 and merge their histograms into the same percentile summary', () =>
    withSim({}, async (sim) => {
      const plan = await builtinPlan(sim);
      for (const workers of [1, 2]) {
        const pool = await open(plan, 4, workers);
        try {
          assert.equal(pool.count, 4);
          assert.equal(pool.ids.filter((x) => x > 0).length, 4, "every session's server id");
          const latency = new LatencyRecorder();
          const r = await pool.runPhase(
            { phase: 'measure', mode: 'client-loop', durationMs: null, rows: 400, latency },
            new AbortController().signal,
          );
          assert.equal(r.calls, 400, `${workers} worker(s): calls`);
          assert.equal(r.rows, 400);
          assert.deepEqual(r.failures, []);
          const s = latency.summary();
          assert.deepEqual(Object.keys(s), ['count', 'meanUs', 'p50Us', 'p90Us', 'p99Us', 'p999Us', 'maxUs']);
          assert.equal(s.count, 400, `${workers} worker(s): every call in the merged histogram`);
          assert.ok(s.p50Us! > 0 && s.p50Us! <= s.p90Us! && s.p90Us! <= s.p99Us! && s.p99Us! <= s.maxUs!, JSON.stringify(s));
        } finally {
          await pool.close();
        }
      }
      assert.equal(await noSessionsLeft(sim), 0, "close ends every worker's connections");
    }));

  it("cancel mid-run stops every worker's calls promptly and leaves no connection open", function () {
    return withSim({}, async (sim) => {
      const pool = await open(await builtinPlan(sim), 4, 2);
      const cancel = new AbortController();
      const started = Date.now();
      setTimeout(() => cancel.abort(), 500);
      // A phase of 60 s that only cancel can end early; the test's own limit fails it if cancel never arrives.
      this.timeout(30_000);
      try {
        const r = await pool.runPhase(
          { phase: 'measure', mode: 'client-loop', durationMs: 60_000, rows: null, latency: new LatencyRecorder() },
          cancel.signal,
        );
        assert.ok(Date.now() - started < 10_000, `cancel took ${Date.now() - started} ms`);
        assert.equal(r.cancelled, true);
        assert.ok(r.calls > 0);
        assert.deepEqual(r.failures, [], 'a cancelled call is not a failure');
      } finally {
        await pool.close();
      }
      assert.equal(await noSessionsLeft(sim), 0);
    });
  });

  it('a failing call in one worker is counted by number and session while every session goes on', () =>
    withSim({}, async (sim) => {
      sim.faults.failStatement('custom/SELECT 1', { number: 50123, message: 'injected failure', times: 1 });
      const pool = await open(customPlan(sim, 25), 4, 2);
      try {
        const r = await pool.runPhase(
          { phase: 'measure', mode: 'client-loop', durationMs: null, rows: null, latency: new LatencyRecorder() },
          new AbortController().signal,
        );
        assert.equal(r.calls, 99, 'the other 99 of 4 x 25 calls completed');
        const stats = pool.runStats()!;
        assert.equal(stats.calls, 99);
        assert.equal(stats.failedCalls, 1);
        assert.equal(stats.errors.length, 1);
        assert.equal(stats.errors[0].number, 50123);
        assert.equal(stats.errors[0].count, 1);
        const [session] = Object.keys(stats.errors[0].sessions).map(Number);
        assert.ok(session >= 1 && session <= 4, `session ${session} numbered in the run`);
        assert.equal(pool.liveCalls, 99, 'the live count over both workers');
      } finally {
        await pool.close();
      }
    }));

  it("a worker that dies mid-phase is reported as its sessions' failures; the other worker's calls stand", () =>
    withSim({}, async (sim) => {
      const pool = await open(await builtinPlan(sim), 4, 2);
      const first = (pool as unknown as { slots: { thread: Worker }[] }).slots[0].thread;
      setTimeout(() => void first.terminate(), 500);
      const started = Date.now();
      try {
        const r = await pool.runPhase(
          { phase: 'measure', mode: 'client-loop', durationMs: 2000, rows: null, latency: new LatencyRecorder() },
          new AbortController().signal,
        );
        assert.ok(Date.now() - started < 15_000, 'not hung');
        assert.deepEqual(
          r.failures.map((f) => f.session),
          [1, 2],
        );
        assert.match(r.failures[0].message, /client worker 1 stopped/);
        assert.ok(r.calls > 0, 'worker 2 went on');
      } finally {
        await pool.close();
      }
      assert.equal(await noSessionsLeft(sim), 0, "the dead worker's connections went with it");
    }));
});
