// Sampler: bytes and milliseconds per tick, and how far tick starts stray from the schedule, at 1 s and 250 ms with
// 64 busy sessions in the server loop (disk-insert's loop procedure, one EXEC per session for the whole time), both
// ways: the product's delta ticks (sql/dmv/sample-delta.sql prepared once, then only moved rows) and, for comparison,
// the whole sql/dmv/sample.sql batch every tick.
// The simulator runs in its own process; the monitor connection goes through a counting proxy on loopback, so its
// bytes are counted on the wire (TDS packets, both directions); the workload sessions connect directly.
import * as path from 'node:path';
import type { SampleEvent } from '../src/engine/sampler';
import { readFullSample, Sampler } from '../src/engine/sampler';
import { monotonicMs } from '../src/engine/clock';
import { WorkloadSessions } from '../src/engine/load';
import type { PhaseFailure } from '../src/engine/loadDriver';
import { defaultParameters, getScenario } from '../src/engine/scenarios';
import { benchTarget, deployDiskInsert, LAB_DB, SCENARIO } from './driver';
import { forkRole, next, stopChild, type Msg } from './ipc';
import { median, percentile, tickJitter, type Jitter } from './stats';
import { startCountingProxy } from './wire';

/** delta: the product's ticks (only moved rows); full: sql/dmv/sample.sql as one batch every tick. */
export type SampleWay = 'delta' | 'full';

export interface SamplerFigures {
  way: SampleWay;
  intervalMs: number;
  sessions: number;
  ticks: number;
  /** Per tick, request (client -> server) and response bytes on the wire: median. */
  bytesSent: number;
  bytesReceived: number;
  /** Round trip of one tick (request sent to result sets parsed), ms. */
  rttP50Ms: number;
  rttP99Ms: number;
  jitter: Jitter;
  problems: string[];
}

export interface SamplerOptions {
  sessions: number;
  /** [intervalMs, ticks] pairs. */
  plans: [number, number][];
  log: (s: string) => void;
}

// The sampler's own clock (its slots are due on it): tick starts and the first slot compare on one timeline.
const now = monotonicMs;

async function measureInterval(
  port: number,
  way: SampleWay,
  intervalMs: number,
  ticks: number,
  sessions: number,
  log: (s: string) => void,
): Promise<SamplerFigures> {
  const proxy = await startCountingProxy(port);
  const scenario = getScenario(SCENARIO);
  const params = { ...defaultParameters(scenario), seed_rows: 0 };
  const failures: PhaseFailure[] = [];
  const ws = await WorkloadSessions.open(benchTarget(port), LAB_DB, sessions, scenario, params, failures);
  const busy = new AbortController();
  const problems: string[] = [];
  const starts: number[] = [];
  const rtts: number[] = [];
  const sent: number[] = [];
  const received: number[] = [];
  let seen = 0;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((r) => {
    done = r;
  });
  const sampler = new Sampler({
    target: benchTarget(proxy.port),
    labDatabase: LAB_DB,
    intervalMs,
    ...(way === 'full' ? { read: readFullSample(LAB_DB) } : {}),
    onSample: (_e: SampleEvent) => {
      if (++seen === ticks) done();
    },
    onProblem: (m) => problems.push(m),
  });
  // Time each tick from the moment the sampler starts it: wrap this instance's sampleNow (the method every tick calls).
  const original = sampler.sampleNow.bind(sampler);
  let measuring = false;
  sampler.sampleNow = async () => {
    const t0 = now();
    const s0 = proxy.sent;
    const r0 = proxy.received;
    const e = await original();
    if (measuring) {
      starts.push(t0);
      rtts.push(now() - t0);
      sent.push(proxy.sent - s0);
      received.push(proxy.received - r0);
    }
    return e;
  };
  try {
    const phase = ws.runPhase({ phase: 'measure', mode: 'server-loop', durationMs: 3_600_000, rows: null }, busy.signal);
    // Let every session start its EXEC, take the baseline sample (connects the monitor), then tick.
    await new Promise((r) => setTimeout(r, 1000));
    await sampler.sampleNow();
    measuring = true;
    sampler.start();
    const firstAt = (sampler as unknown as { nextAt: number }).nextAt; // the schedule's first slot, as the sampler set it
    await finished;
    await sampler.close();
    busy.abort();
    const r = await phase;
    if (r.failures.length) problems.push(`${r.failures.length} workload sessions failed: ${r.failures[0].message}`);
    const jitter = tickJitter(starts, firstAt, intervalMs);
    const fig: SamplerFigures = {
      way,
      intervalMs,
      sessions: ws.count,
      ticks: starts.length,
      bytesSent: median(sent),
      bytesReceived: median(received),
      rttP50Ms: median(rtts),
      rttP99Ms: percentile(rtts, 99),
      jitter,
      problems,
    };
    log(
      `sampler (${way}): ${intervalMs} ms x ${fig.ticks} ticks, ${fig.sessions} busy sessions: ${Math.round(fig.bytesSent)} B out + ${Math.round(fig.bytesReceived)} B in per tick, ` +
        `round trip p50 ${fig.rttP50Ms.toFixed(1)} ms p99 ${fig.rttP99Ms.toFixed(1)} ms, start jitter p50 ${jitter.p50Ms.toFixed(2)} p99 ${jitter.p99Ms.toFixed(2)} max ${jitter.maxMs.toFixed(2)} ms` +
        (jitter.skipped ? `, ${jitter.skipped} slots skipped` : '') +
        (problems.length ? `; problems: ${problems.join('; ')}` : ''),
    );
    return fig;
  } finally {
    busy.abort();
    await sampler.close().catch(() => undefined);
    await ws.close();
    await proxy.close();
  }
}

export async function benchSampler(o: SamplerOptions): Promise<SamplerFigures[]> {
  const sim = forkRole(path.join(__dirname, 'simProcess.js'), []);
  try {
    const { port } = await next<Msg & { port: number }>(sim, 'listening');
    await deployDiskInsert(port);
    const out: SamplerFigures[] = [];
    for (const [intervalMs, ticks] of o.plans) {
      for (const way of ['delta', 'full'] as const) out.push(await measureInterval(port, way, intervalMs, ticks, o.sessions, o.log));
    }
    return out;
  } finally {
    await stopChild(sim);
  }
}

if (require.main === module) {
  // Standalone: node out/bench/sampler.js [--ticks 10]
  const i = process.argv.indexOf('--ticks');
  const n = i > 0 ? Number(process.argv[i + 1]) : 10;
  benchSampler({
    sessions: 64,
    plans: [
      [1000, n],
      [250, n * 4],
    ],
    log: console.log,
  })
    .then(() => process.exit(0))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
