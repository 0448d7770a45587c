// Preloaded into the `spinlab watch --servers` child by bench/fleet.ts (node --require): for every monitor Sampler in
// the process, when each tick started against its slot on the sampler's own fixed schedule (as bench/sampler.ts
// measures start jitter), and the event loop's delay; written as JSON to $SPINLAB_FLEET_PROBE when the process exits.
// SIGUSR2 starts the measured window (the loop histogram again from zero). Bench-only: the product is not changed.
import * as fs from 'node:fs';
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
  /** Each tick's start (epoch ms), the slot it was for (the sampler's nextAt then) and its round trip (ms; NaN: failed). */
  starts: number[];
  slots: number[];
  rtts: number[];
}

export interface ProbeReport {
  samplers: ProbeSampler[];
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
      s.slots.push(this.nextAt);
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

const file = process.env.SPINLAB_FLEET_PROBE;
if (file) {
  const samplers: ProbeSampler[] = [];
  instrument(samplers);
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  process.on('SIGUSR2', () => loop.reset());
  process.on('exit', () => {
    const ms = (ns: number) => ns / 1e6;
    const report: ProbeReport = {
      samplers,
      loopDelay: { p50Ms: ms(loop.percentile(50)), p99Ms: ms(loop.percentile(99)), maxMs: ms(loop.max) },
    };
    fs.writeFileSync(file, JSON.stringify(report));
  });
}
