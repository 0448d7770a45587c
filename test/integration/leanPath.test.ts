// The client loop's lean path (src/db/lean/) against the simulator, beside the ordinary driver: the same calls and
// rows, latencies of the same order, the same error for a failing call, cancel by ATTENTION with no call counted twice,
// a dropped connection reported as the driver reports it, and the driver taking over where the lean path cannot go.
import assert from 'node:assert/strict';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import type { ClientPath, PhaseFailure, PhaseResult } from '../../src/engine/loadDriver';
import { withAdmin } from '../../src/cli/commands';
import { deployScenario } from '../../src/engine/lab';
import { defaultParameters, getScenario, type ScenarioManifest } from '../../src/engine/scenarios';
import { LatencyRecorder } from '../../src/engine/histogram';
import { WorkloadSessions } from '../../src/engine/load';
import { DbSession } from '../../src/db/client';
import type { ParamValue } from '../../src/shared/experiment';
import { targetFor } from '../helpers/simTarget';

const LAB = 'SpinlockLab';
const PROC = 'dbo.spinlab_disk_insert_batch';

async function deploy(sim: Simulator): Promise<{ scenario: ScenarioManifest; params: Record<string, ParamValue> }> {
  const scenario = getScenario('disk-insert');
  const params = { ...defaultParameters(scenario), seed_rows: 0, batch_size: 1 };
  await withAdmin(targetFor(sim, { database: 'master' }), (admin, identity) =>
    deployScenario(targetFor(sim, { database: 'master' }), admin, identity, LAB, scenario, params, () => undefined),
  );
  return { scenario, params };
}

async function sessions(sim: Simulator, d: Awaited<ReturnType<typeof deploy>>, n: number, path: ClientPath) {
  const failures: PhaseFailure[] = [];
  const ws = await WorkloadSessions.open(targetFor(sim), LAB, n, d.scenario, d.params, failures, undefined, path);
  assert.deepEqual(failures, []);
  return ws;
}

async function phase(ws: WorkloadSessions, rows: number | null, signal = new AbortController().signal, durationMs: number | null = null) {
  const latency = new LatencyRecorder();
  const r = await ws.runPhase({ phase: 'measure', mode: 'client-loop', durationMs, rows, latency }, signal);
  return { r, latency: latency.summary() };
}

async function noSessionsLeft(sim: Simulator): Promise<number> {
  for (let i = 0; i < 40 && sim.server.sessions().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return sim.server.sessions().length;
}

/** The failure a phase reports, without its session number (the paths number sessions alike, but not the point). */
const failureOf = (r: PhaseResult) => r.failures.map(({ message, number, phase: p }) => ({ message, number, phase: p }));

describe('client loop: the lean path beside the ordinary driver', function () {
  this.timeout(120_000);

  it('makes the same calls and rows, with latencies of the same order, and says which path ran', () =>
    withSim({}, async (sim) => {
      const d = await deploy(sim);
      const seen: Record<string, { r: PhaseResult; p50: number }> = {};
      for (const path of ['driver', 'lean'] as const) {
        const ws = await sessions(sim, d, 4, path);
        try {
          await phase(ws, 40); // warm-up: the lean path takes the connections over here and keeps them
          const { r, latency } = await phase(ws, 400);
          assert.equal(r.calls, 400, `${path}: calls`);
          assert.equal(r.rows, 400, `${path}: rows`);
          assert.deepEqual(r.failures, []);
          assert.equal(latency.count, 400);
          seen[path] = { r, p50: latency.p50Us! };
        } finally {
          await ws.close();
        }
      }
      assert.deepEqual(seen.lean.r.clientPath, { lean: 4, driver: 0 });
      assert.deepEqual(seen.driver.r.clientPath, { lean: 0, driver: 4 });
      // Within noise: the same order of magnitude (the bench measures the difference; a test asserts no speed).
      const ratio = seen.lean.p50 / seen.driver.p50;
      assert.ok(ratio > 0.05 && ratio < 20, `p50 lean ${seen.lean.p50} µs, driver ${seen.driver.p50} µs`);
      // Every insert the simulator counted came from a call counted by the client: 40 + 400 per path.
      assert.equal(await noSessionsLeft(sim), 0, 'every connection closed');
    }));

  it('reports a failing call with the error the driver reports', () =>
    withSim({}, async (sim) => {
      const d = await deploy(sim);
      const got: Record<string, ReturnType<typeof failureOf>> = {};
      for (const path of ['driver', 'lean'] as const) {
        const ws = await sessions(sim, d, 1, path);
        try {
          await phase(ws, 5);
          sim.faults.failStatement(PROC, {
            number: 1205,
            message: 'Transaction (Process ID 55) was deadlocked.',
            class: 13,
            state: 51,
            times: 1,
          });
          const { r } = await phase(ws, 10);
          got[path] = failureOf(r);
          assert.equal(r.failures.length, 1, `${path}: one failure`);
        } finally {
          await ws.close();
        }
      }
      assert.deepEqual(got.lean, got.driver);
      assert.equal(got.lean[0].number, 1205);
    }));

  it('cancels the call in flight with ATTENTION at the end of a timed phase, then goes on calling', () =>
    withSim({}, async (sim) => {
      const d = await deploy(sim);
      const ws = await sessions(sim, d, 2, 'lean');
      try {
        const { r } = await phase(ws, null, undefined, 300);
        assert.deepEqual(r.failures, []);
        assert.ok(r.calls > 0);
        // The connections survived the attention: the next phase calls on them.
        const next = await phase(ws, 20);
        assert.equal(next.r.calls, 20);
        assert.deepEqual(next.r.clientPath, { lean: 2, driver: 0 });
        // Every reply held back: both calls are in flight when the cancel comes, and only ATTENTION ends them.
        sim.faults.setResponseDelay(60_000);
        const cancelled = new AbortController();
        const slow = phase(ws, null, cancelled.signal);
        setTimeout(() => cancelled.abort(), 300);
        const c = await slow;
        assert.ok(c.r.cancelled);
        assert.equal(c.r.cancelledCalls, 2, 'each session cancelled its call in flight');
        assert.equal(c.r.calls, 0);
        assert.deepEqual(c.r.failures, []);
        sim.faults.setResponseDelay(0);
        // The acknowledgements were read: the replies that follow belong to the calls that follow.
        const after = await phase(ws, 20);
        assert.equal(after.r.calls, 20);
        assert.deepEqual(after.r.failures, []);
      } finally {
        await ws.close();
      }
      assert.equal(await noSessionsLeft(sim), 0);
    }));

  it('times a call out as the driver does (ATTENTION, then the same ETIMEOUT error), and the session goes on', () =>
    withSim({}, async (sim) => {
      const d = await deploy(sim);
      const got: Record<string, ReturnType<typeof failureOf>> = {};
      for (const path of ['driver', 'lean'] as const) {
        const failures: PhaseFailure[] = [];
        const target = { ...targetFor(sim), requestTimeoutMs: 300 };
        const ws = await WorkloadSessions.open(target, LAB, 1, d.scenario, d.params, failures, undefined, path);
        try {
          await phase(ws, 5);
          sim.faults.setResponseDelay(60_000);
          const { r } = await phase(ws, 10);
          sim.faults.setResponseDelay(0);
          got[path] = failureOf(r);
          const next = await phase(ws, 5);
          assert.equal(next.r.calls, 5, `${path}: the session calls on after the timeout`);
        } finally {
          await ws.close();
        }
      }
      assert.deepEqual(got.lean, got.driver);
      assert.match(got.lean[0].message, /Timeout: Request failed to complete in 300ms/);
    }));

  it('reports a dropped connection as the driver does and keeps the calls made before it', () =>
    withSim({}, async (sim) => {
      const d = await deploy(sim);
      const got: Record<string, { message: string; calls: number }> = {};
      for (const path of ['driver', 'lean'] as const) {
        const ws = await sessions(sim, d, 1, path);
        try {
          await phase(ws, 5);
          const id = ws.ids[0];
          const pending = phase(ws, null, undefined, 5_000);
          await new Promise((r) => setTimeout(r, 300));
          assert.ok(sim.faults.dropSession(id));
          const { r } = await pending;
          assert.equal(r.failures.length, 1, `${path}: ${JSON.stringify(r.failures)}`);
          assert.ok(r.calls > 0, `${path}: the calls before the drop are kept`);
          got[path] = { message: r.failures[0].message, calls: r.calls };
        } finally {
          await ws.close();
        }
      }
      assert.match(got.lean.message, /connection to the server was lost/);
      assert.match(got.driver.message, /connection to the server was lost/);
    }));

  it('falls back to the driver where the lean path cannot go: an encrypted session', () =>
    withSim({}, async (sim) => {
      // The simulator negotiates TLS as SQL Server does (tools/sim/tds/tls.ts).
      const s = await DbSession.open({ ...targetFor(sim), encrypt: true, trustServerCertificate: true }, { database: 'master' });
      try {
        const r = await s.leanChannel();
        assert.ok('refused' in r, 'an encrypted session is not taken over');
        assert.match(r.refused, /encrypt/);
        // The connection went back to the pool untouched: the ordinary driver still works on it.
        await s.runFile('lab/key-block').catch(() => undefined);
        assert.ok(s.connected);
      } finally {
        await s.close();
      }
    }));
});
