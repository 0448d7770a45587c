import assert from 'node:assert/strict';
import { ClientStatsRecorder, type ClientStatsSources } from '../../src/engine/clientStats';

function fakeSources(): ClientStatsSources & { enabled: boolean } {
  let calls = 0;
  const s = {
    enabled: false,
    cpuUsage: (prev?: NodeJS.CpuUsage) => {
      calls++;
      const now = { user: 1_000_000 + calls * 250_000, system: 100_000 + calls * 50_000 };
      return prev ? { user: now.user - prev.user, system: now.system - prev.system } : now;
    },
    rss: () => 64 * 1048576,
    loopDelay: () => ({
      enable: () => ((s.enabled = true), true),
      disable: () => ((s.enabled = false), true),
      percentile: (p: number) => (p === 99 ? 12_000_000 : 0),
      max: 40_000_000,
      count: 100,
    }),
  };
  return s;
}

it('CPU deltas, per call, event-loop lag and RSS from the sources', () => {
  const src = fakeSources();
  const r = new ClientStatsRecorder(src);
  r.start();
  assert.equal(src.enabled, true);
  const s = r.stop(1000);
  assert.equal(src.enabled, false);
  assert.deepEqual(s, { cpuUserMs: 250, cpuSystemMs: 50, cpuUsPerCall: 300, eventLoopLagP99Ms: 12, eventLoopLagMaxMs: 40, rssMb: 64 });
  assert.equal(r.stop(5), s, 'stop is idempotent');
});

it('no calls: no per-call figure; misuse is an error', () => {
  const r = new ClientStatsRecorder(fakeSources());
  assert.throws(() => r.stop(), /before start/);
  r.start();
  assert.throws(() => r.start(), /twice/);
  assert.equal(r.stop().cpuUsPerCall, null);
});

it('real process: a busy loop shows CPU, a blocked loop shows lag', async () => {
  const r = new ClientStatsRecorder();
  r.start();
  await new Promise((res) => setTimeout(res, 30)); // let the delay monitor take a few samples
  // Burn 120 ms of this process's CPU (not of wall time: on a loaded machine 120 ms of wall time can be 30 of CPU),
  // blocking the loop all along; the wall-clock cap only stops a machine that gives this process no CPU at all.
  const cpu0 = process.cpuUsage();
  const cap = Date.now() + 10_000;
  let x = 0;
  const burnt = () => {
    const c = process.cpuUsage(cpu0);
    return (c.user + c.system) / 1000;
  };
  while (burnt() < 120 && Date.now() < cap) for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + 1);
  await new Promise((res) => setTimeout(res, 30));
  const s = r.stop(10);
  assert.ok(x > 0);
  assert.ok(s.cpuUserMs + s.cpuSystemMs >= 60, `cpu ${s.cpuUserMs}+${s.cpuSystemMs} ms`);
  assert.ok(s.eventLoopLagMaxMs >= 80, `max lag ${s.eventLoopLagMaxMs} ms`);
  assert.ok(s.cpuUsPerCall !== null && s.cpuUsPerCall > 0);
  assert.ok(s.rssMb > 1);
});
