// The monitor's own cost: per-tick deltas of its session's row, the summary beside the server's totals, and the
// budget a watch keeps to (lengthening its interval when over, said once).
import assert from 'node:assert/strict';
import {
  BUDGET_WINDOW_TICKS,
  CostBudget,
  describeMonitorCost,
  monitorDelta,
  MonitorCostSums,
  summariseMonitorCost,
  type MonitorCost,
  type MonitorReading,
} from '../../src/shared/monitorCost';

const reading = (cpuMs: number, extra: Partial<MonitorReading> = {}): MonitorReading => ({
  cpuMs,
  logicalReads: cpuMs * 10,
  reads: 0,
  writes: cpuMs,
  scheduledMs: cpuMs * 1.1,
  compilations: 100,
  recompilations: 40,
  ...extra,
});
const cost = (cpuMs: number): MonitorCost => ({ cpuMs, logicalReads: 0, writes: 0, scheduledMs: cpuMs, recompiles: 0, compilations: 0 });

describe('monitor cost', () => {
  it('takes the deltas of two readings, and none across a new session or without both', () => {
    assert.deepEqual(monitorDelta(reading(10), reading(13, { recompilations: 46, compilations: 106 })), {
      cpuMs: 3,
      logicalReads: 30,
      writes: 3,
      scheduledMs: 13 * 1.1 - 11,
      recompiles: 6,
      compilations: 6,
    });
    assert.equal(monitorDelta(null, reading(3)), null);
    assert.equal(monitorDelta(reading(3), undefined), null);
    assert.equal(monitorDelta(reading(30), reading(2)), null, 'cpu_time went back: a new session, not a negative cost');
    assert.equal(monitorDelta(reading(1, { recompilations: null }), reading(2))!.recompiles, null);
  });

  it('sums per tick beside the server totals, over the ticks that carry a cost', () => {
    const s = summariseMonitorCost([
      { intervalMs: 1000, cpuMs: 200, hiddenCpuMs: 0, batchRequestsPerSec: 50, monitor: { ...cost(4), recompiles: 2 } },
      { intervalMs: 1000, cpuMs: 200, batchRequestsPerSec: 30, monitor: cost(2) },
      { intervalMs: 1000, cpuMs: 999, batchRequestsPerSec: 999 },
    ])!;
    assert.equal(s.ticks, 2);
    assert.equal(s.cpuMsPerTick, 3);
    assert.equal(s.cpuMsPerSec, 3);
    assert.equal(s.serverCpuMsPerTick, 200);
    assert.equal(s.batchRequestsPerTick, 40);
    assert.equal(s.recompilesPerTick, 1);
    assert.equal(s.shareOfServerCpu, 3 / 200);
    assert.equal(summariseMonitorCost([{ intervalMs: 1000, cpuMs: 1, batchRequestsPerSec: 1 }]), null, 'no costed tick: nothing to say');
    assert.match(describeMonitorCost(s), /3\.00 ms CPU.*beside the server's 200 ms CPU \(1\.50% of it\)/);
  });

  it('the running sums a watch keeps give the same summary as the ticks themselves', () => {
    const ticks = Array.from({ length: 500 }, (_, i) => ({
      intervalMs: 1000 + (i % 7),
      cpuMs: 100 + i / 3,
      hiddenCpuMs: i % 2 ? 1.5 : undefined,
      batchRequestsPerSec: 10 + i / 7,
      monitor: i % 5 === 0 ? null : { ...cost(1 + i / 11), logicalReads: i, writes: i % 3, recompiles: i % 4 ? null : i },
    }));
    const sums = new MonitorCostSums();
    assert.equal(sums.summary(), null);
    for (const t of ticks) sums.add(t);
    assert.equal(sums.ticks, 400);
    // Computed here from the ticks kept whole, as the summary was before it kept sums.
    const costed = ticks.filter((t) => t.monitor);
    const sum = (f: (t: (typeof ticks)[number]) => number) => costed.reduce((a, t) => a + f(t), 0);
    const cpu = sum((t) => t.monitor!.cpuMs);
    const serverCpu = sum((t) => t.cpuMs + (t.hiddenCpuMs ?? 0));
    const withRecompiles = costed.filter((t) => t.monitor!.recompiles !== null);
    const expected = {
      ticks: 400,
      cpuMsPerTick: cpu / 400,
      logicalReadsPerTick: sum((t) => t.monitor!.logicalReads) / 400,
      writesPerTick: sum((t) => t.monitor!.writes) / 400,
      scheduledMsPerTick: sum((t) => t.monitor!.scheduledMs) / 400,
      recompilesPerTick: withRecompiles.reduce((a, t) => a + t.monitor!.recompiles!, 0) / withRecompiles.length,
      cpuMsPerSec: cpu / (sum((t) => t.intervalMs) / 1000),
      serverCpuMsPerTick: serverCpu / 400,
      batchRequestsPerTick: sum((t) => (t.batchRequestsPerSec * t.intervalMs) / 1000) / 400,
      shareOfServerCpu: cpu / serverCpu,
    };
    assert.deepEqual(sums.summary(), expected);
    assert.deepEqual(summariseMonitorCost(ticks), expected);
  });

  it('keeps the interval while under budget, and a budget of 0 never lengthens', () => {
    const b = new CostBudget(10, 1000);
    for (let i = 0; i < 20; i++) assert.deepEqual(b.observe(cost(9), 1000), { kind: 'keep' });
    const off = new CostBudget(0, 1000);
    for (let i = 0; i < 20; i++) assert.deepEqual(off.observe(cost(500), 1000), { kind: 'keep' });
  });

  it('over budget for a window of ticks, doubles the interval up to the cap, saying so only the first time', () => {
    const b = new CostBudget(10, 1000, 4000);
    for (let i = 0; i < 2; i++) b.observe(cost(30), 1000); // a connection's first two costed ticks: left out
    const decisions = Array.from({ length: 40 }, () => b.observe(cost(30), b.currentIntervalMs));
    const lengthened = decisions.filter((d) => d.kind === 'lengthen');
    assert.deepEqual(
      lengthened.map((d) => d.kind === 'lengthen' && d.intervalMs),
      [2000, 4000],
      'doubles while over, stops at the cap',
    );
    assert.equal(decisions.indexOf(lengthened[0]), BUDGET_WINDOW_TICKS - 1, 'not before a whole window of ticks');
    const said = lengthened.filter((d) => d.kind === 'lengthen' && d.message);
    assert.equal(said.length, 1);
    assert.match((said[0] as { message: string }).message, /30\.0 ms of CPU per second.*budget of 10 ms\/s.*every 2 s/);
    assert.equal(b.currentIntervalMs, 4000);
  });

  it('judges CPU per second, so a longer interval that brings the same tick cost under budget stays', () => {
    const b = new CostBudget(10, 1000);
    for (let i = 0; i < 2; i++) b.observe(cost(15), 1000);
    const first = Array.from({ length: BUDGET_WINDOW_TICKS }, () => b.observe(cost(15), 1000)).at(-1);
    assert.equal(first?.kind, 'lengthen');
    for (let i = 0; i < 20; i++) assert.deepEqual(b.observe(cost(15), 2000), { kind: 'keep' }, '7.5 ms/s at 2 s is under 10');
  });

  it('ignores ticks without a cost (full ticks, the first after a reconnect)', () => {
    const b = new CostBudget(10, 1000);
    for (let i = 0; i < 20; i++) assert.deepEqual(b.observe(null, 1000), { kind: 'keep' });
  });

  it("leaves out the first two costed ticks of each connection, which carry its statements' first compiles", () => {
    // A batch's CPU shows in sys.dm_exec_sessions when it completes: the first two tick batches' compiles land in the
    // first two costed ticks.
    const b = new CostBudget(10, 1000);
    assert.deepEqual(b.observe(cost(200), 1000), { kind: 'keep' });
    assert.deepEqual(b.observe(cost(150), 1000), { kind: 'keep' });
    for (let i = 0; i < BUDGET_WINDOW_TICKS; i++)
      assert.deepEqual(b.observe(cost(5), 1000), { kind: 'keep' }, 'the 200 and 150 ms ticks do not count');
    b.reconnected();
    assert.deepEqual(b.observe(cost(200), 1000), { kind: 'keep' }, 'nor the first two after a reconnect');
    assert.deepEqual(b.observe(cost(150), 1000), { kind: 'keep' });
    for (let i = 0; i < BUDGET_WINDOW_TICKS; i++) assert.deepEqual(b.observe(cost(5), 1000), { kind: 'keep' });
  });
});
