// Preloaded into the `spinlab watch --servers` child by bench/fleet.ts (node --require): for every monitor Sampler in
// the process, when each tick started against its slot on the sampler's own fixed schedule (as bench/sampler.ts
// measures start jitter), and the event loop's delay; written as JSON to $SPINLAB_FLEET_PROBE when the process exits.
// SIGUSR2 starts the measured window (the loop histogram again from zero). With $SPINLAB_FLEET_MEMORY_EVERY_MS, where
// the resident memory is, every so often: V8's heap (used, and what each space holds), external and ArrayBuffer memory
// (sockets, TLS, Buffers), so a growing RSS can be told apart. With $SPINLAB_FLEET_ALLOC_PROFILE, a sampling profile of
// every allocation in the window, the ones collected since included (what the GC has to sweep, not only what is
// left): written to that file at exit, a .heapprofile DevTools opens. Bench-only: the product is not changed.
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as v8 from 'node:v8';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as path from 'node:path';
import type { Sampler as SamplerClass } from '../src/engine/sampler';

// The Sampler of the build being measured: this one's, or the one $SPINLAB_BENCH_FLEET_ROOT names (an older build
// compared side by side); it must be the module the CLI itself loads, or nothing is recorded.
const root = process.env.SPINLAB_BENCH_FLEET_ROOT ?? path.resolve(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Sampler } = require(path.join(root, 'out', 'src', 'engine', 'sampler')) as { Sampler: typeof SamplerClass };

export interface ProbeSampler {
  port: number;
  intervalMs: number;
  /** Each tick's start (epoch ms), the slot it was for (the sampler's nextAt then, as epoch ms) and its round trip (ms; NaN: failed). */
  starts: number[];
  slots: number[];
  rtts: number[];
}

/** One reading of the process's memory (MB): process.memoryUsage() and the heap spaces' used / committed sizes. */
export interface ProbeMemory {
  atMs: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  spaces: Record<string, { used: number; size: number }>;
}

export interface ProbeReport {
  samplers: ProbeSampler[];
  memory?: ProbeMemory[];
  loopDelay: { p50Ms: number; p99Ms: number; maxMs: number };
}

/** Wraps the Sampler so each tick's start is recorded beside its slot; the baseline sample (no schedule yet) is not. */
function instrument(list: ProbeSampler[]): void {
  type Internals = { nextAt: number; opts: { target: { port?: number }; intervalMs: number } };
  const proto = Sampler.prototype as unknown as { sampleNow: (this: Internals) => Promise<unknown> };
  const original = proto.sampleNow;
  const mine = new WeakMap<object, ProbeSampler>();
  proto.sampleNow = function (this: Internals) {
    if (this.nextAt > 0) {
      let s = mine.get(this);
      if (!s) {
        s = { port: this.opts.target.port ?? 1433, intervalMs: this.opts.intervalMs, starts: [], slots: [], rtts: [] };
        mine.set(this, s);
        list.push(s);
      }
      const t0 = performance.now();
      s.starts.push(performance.timeOrigin + t0);
      s.slots.push(performance.timeOrigin + this.nextAt); // the sampler's slots are on its monotonic clock (engine/clock.ts)
      const rtts = s.rtts;
      const k = rtts.push(NaN) - 1;
      const done = original.call(this);
      done.then(
        () => (rtts[k] = performance.now() - t0),
        () => undefined,
      );
      return done;
    }
    return original.call(this);
  };
}

function readMemory(): ProbeMemory {
  const mb = (b: number) => b / 2 ** 20;
  const u = process.memoryUsage();
  const spaces: ProbeMemory['spaces'] = {};
  for (const s of v8.getHeapSpaceStatistics()) spaces[s.space_name] = { used: mb(s.space_used_size), size: mb(s.space_size) };
  return {
    atMs: Date.now(),
    rss: mb(u.rss),
    heapTotal: mb(u.heapTotal),
    heapUsed: mb(u.heapUsed),
    external: mb(u.external),
    arrayBuffers: mb(u.arrayBuffers),
    spaces,
  };
}

const file = process.env.SPINLAB_FLEET_PROBE;
if (file) {
  const samplers: ProbeSampler[] = [];
  instrument(samplers);
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const allocFile = process.env.SPINLAB_FLEET_ALLOC_PROFILE;
  const session = allocFile ? new inspector.Session() : undefined;
  const startSampling = () =>
    session!.post('HeapProfiler.startSampling', {
      samplingInterval: 16_384,
      includeObjectsCollectedByMajorGC: true,
      // SPINLAB_FLEET_ALLOC_PROMOTED=1: only what outlived the young generation (promoted, or live at the end), the
      // objects that fill the old generation between full collections.
      includeObjectsCollectedByMinorGC: process.env.SPINLAB_FLEET_ALLOC_PROMOTED !== '1',
    } as inspector.HeapProfiler.StartSamplingParameterType);
  if (session) {
    session.connect();
    startSampling();
  }
  process.on('SIGUSR2', () => {
    loop.reset();
    if (session) session.post('HeapProfiler.stopSampling', () => startSampling());
  });
  // Same-thread inspector calls answer synchronously: the profile is in hand before the exit handler returns.
  if (session)
    process.on('exit', () =>
      session.post('HeapProfiler.stopSampling', (e, r) => {
        if (!e) fs.writeFileSync(allocFile!, JSON.stringify(r.profile));
      }),
    );
  const memory: ProbeMemory[] = [];
  const everyMs = Number(process.env.SPINLAB_FLEET_MEMORY_EVERY_MS ?? 0);
  if (everyMs > 0) setInterval(() => memory.push(readMemory()), everyMs).unref();
  process.on('exit', () => {
    const ms = (ns: number) => ns / 1e6;
    const report: ProbeReport = {
      samplers,
      ...(everyMs > 0 ? { memory } : {}),
      loopDelay: { p50Ms: ms(loop.percentile(50)), p99Ms: ms(loop.percentile(99)), maxMs: ms(loop.max) },
    };
    fs.writeFileSync(file, JSON.stringify(report));
  });
}
