// The rule that decides whether a run's work succeeded (src/engine/runVerdict.ts), and the drivers' count of the calls
// still in flight when the measured time ends (load.ts, custom/sessions.ts), with sessions that never answer.
import assert from 'node:assert/strict';
import type { CallErrorCount, CustomWorkload } from '../../src/shared/experiment';
import { runVerdict, type RunOutcome } from '../../src/engine/runVerdict';
import { CustomSessions } from '../../src/engine/custom/sessions';
import { WorkloadSessions } from '../../src/engine/load';
import { getScenario } from '../../src/engine/scenarios';
import { resolveParams } from '../../src/shared/params';
import { LatencyRecorder } from '../../src/engine/histogram';

const error = (over: Partial<CallErrorCount>): CallErrorCount => ({
  number: 102,
  kind: 'error',
  message: "Incorrect syntax near 'FROM'.",
  count: 1,
  first: '2026-01-01T00:00:00.000Z',
  last: '2026-01-01T00:00:01.000Z',
  sessions: { 1: 1 },
  ...over,
});
const outcome = (over: Partial<RunOutcome>): RunOutcome => ({
  threads: 4,
  calls: 100,
  rows: 100,
  sessionFailures: [],
  cancelledCalls: 0,
  custom: null,
  ...over,
});
const custom = (failedCalls: number, errors: CallErrorCount[], queryTimeoutMs: number | null = null) => ({
  failedCalls,
  errors,
  queryTimeoutMs,
});

describe('run verdict: failed work is not a success', () => {
  it('every call failing with a syntax error fails the run, naming the error as SQL Server prints it and the count', () => {
    const v = runVerdict(outcome({ calls: 0, rows: 0, custom: custom(300, [error({ count: 300 })]) }));
    assert.equal(v.status, 'failed');
    assert.equal(v.reason, "every call failed: Msg 102 Incorrect syntax near 'FROM'. (300 of 300 calls)");
  });

  it('every call timing out fails the run with the timeout', () => {
    const v = runVerdict(
      outcome({
        calls: 0,
        rows: 0,
        custom: custom(
          8,
          [error({ number: null, kind: 'timeout', message: 'the call ran past --query-timeout and was cancelled', count: 8 })],
          2000,
        ),
      }),
    );
    assert.equal(v.status, 'failed');
    assert.equal(v.reason, 'every call timed out after 2 s (8 of 8 calls)');
  });

  it('no call completed (all still running when the time was up) fails the run and counts the cancelled calls', () => {
    const v = runVerdict(outcome({ calls: 0, rows: 0, cancelledCalls: 4, custom: custom(0, []) }));
    assert.equal(v.status, 'failed');
    assert.equal(v.reason, 'no call completed in the measured time; 4 calls in flight at the end were cancelled and not counted');
    assert.equal(runVerdict(outcome({ calls: 0, rows: 0, cancelledCalls: 2 })).status, 'failed', "a scenario's client loop as well");
    assert.match(runVerdict(outcome({ calls: 4, rows: 0 })).reason ?? '', /no row was written/, 'a server loop whose EXECs wrote nothing');
  });

  it('more than a tenth of the calls failing fails the run; fewer is completed with a warning naming the count and the first error', () => {
    const half = runVerdict(outcome({ calls: 50, rows: 50, custom: custom(50, [error({ count: 50 })]) }));
    assert.equal(half.status, 'failed');
    assert.match(
      half.reason!,
      /^50 of 100 calls failed \(50\.0%, more than the 10% a run may lose and still be measured\), only 50 completed; most: Msg 102/,
    );
    const eleven = runVerdict(outcome({ calls: 89, rows: 89, custom: custom(11, [error({ count: 11 })]) }));
    assert.equal(eleven.status, 'failed', '11% is over the limit');
    const ten = runVerdict(outcome({ calls: 90, rows: 90, custom: custom(10, [error({ count: 10 })]) }));
    assert.equal(ten.status, 'completed', '10% is at the limit, not over it');
    const some = runVerdict(
      outcome({
        calls: 97,
        rows: 97,
        custom: custom(3, [
          error({ number: 1205, kind: 'deadlock', message: 'deadlocked', count: 2, first: '2026-01-01T00:00:05.000Z' }),
          error({ count: 1, first: '2026-01-01T00:00:02.000Z' }),
        ]),
      }),
    );
    assert.equal(some.status, 'completed');
    assert.equal(some.reason, null);
    assert.equal(
      some.warning,
      "3 of 100 calls failed (3.0%); the figures are the 97 that completed; first: Msg 102 Incorrect syntax near 'FROM'.",
    );
  });

  it('sessions: more than half failing fails the run; fewer is a warning; every session names the first error', () => {
    const all = runVerdict(
      outcome({
        calls: 0,
        rows: 0,
        sessionFailures: [1, 2, 3, 4].map((session) => ({ session, message: 'could not find stored procedure', number: 2812 })),
      }),
    );
    assert.equal(all.status, 'failed');
    assert.equal(all.reason, 'every session failed: could not find stored procedure (4 sessions of 4)');
    const one = runVerdict(outcome({ sessionFailures: [{ session: 2, message: 'broken' }] }));
    assert.equal(one.status, 'completed');
    assert.match(one.warning!, /1 of 4 sessions failed and stopped early: broken/);
  });

  it('a clean run completes with neither reason nor warning', () => {
    assert.deepEqual(runVerdict(outcome({})), { status: 'completed', reason: null, warning: null });
  });
});

/** A session whose every call runs until the phase's signal cancels it (ATTENTION), as a long WAITFOR does. */
function neverAnswers() {
  return {
    rpcChannel: async (signal: AbortSignal) => {
      const pending = () =>
        new Promise<never>((_, reject) => {
          const cancel = () => reject(Object.assign(new Error('cancelled'), { code: 'ECANCEL' }));
          if (signal.aborted) cancel();
          else signal.addEventListener('abort', cancel, { once: true });
        });
      return { exec: pending, call: pending, release: () => undefined };
    },
    // The client loop asks for the lean path first; this session keeps the driver (its rpcChannel above).
    leanChannel: async () => ({ refused: 'a test session without a socket' }),
    close: async () => undefined,
  };
}

describe('calls in flight at the end of the measured time are counted', () => {
  it("a custom workload: each session's call still running when the duration ends is one cancelled call", async () => {
    const workload: CustomWorkload = {
      statements: [{ source: '--sql 1', text: "WAITFOR DELAY '00:01:00'" }],
      database: 'master',
      params: null,
      iterations: null,
      thinkTimeMs: 0,
      queryTimeoutMs: null,
      stopOnError: false,
      writes: null,
    };
    const Ctor = CustomSessions as unknown as new (...a: unknown[]) => CustomSessions;
    const s = new Ctor([neverAnswers(), neverAnswers(), neverAnswers()], [0, 0, 0], {}, workload, null);
    const loop = await s.runLoop(
      { phase: 'measure', mode: 'client-loop', durationMs: 30, rows: null, latency: new LatencyRecorder() },
      new AbortController().signal,
    );
    assert.equal(loop.result.calls, 0);
    assert.equal(loop.failed, 0, 'a call cancelled by the clock is not a failed call');
    assert.equal(loop.result.cancelledCalls, 3);
  });

  it("a scenario's client loop: the same, per session", async () => {
    const scenario = getScenario('disk-insert');
    const params = resolveParams(scenario.parameters, { set: [] });
    const Ctor = WorkloadSessions as unknown as new (...a: unknown[]) => WorkloadSessions;
    const s = new Ctor([neverAnswers(), neverAnswers()], [0, 0], scenario, params, 0, null);
    const r = await s.runPhase(
      { phase: 'measure', mode: 'client-loop', durationMs: 30, rows: null, latency: new LatencyRecorder() },
      new AbortController().signal,
    );
    assert.equal(r.calls, 0);
    assert.deepEqual(r.failures, []);
    assert.equal(r.cancelledCalls, 2);
  });
});
