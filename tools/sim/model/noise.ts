// Noise on purpose (`spinlab sim --noise 10%`): what makes a real server's runs of the same thing differ, with a
// known size, so that repeated runs, intervals and gates can be tested against it. Synthetic, like every number the
// simulator serves. Three parts, each a factor on the throughput the contention model gives, all seeded:
//  1. Run-to-run spread. A burst of load starts when workload sessions become active while none was (each run's
//     sessions are new ones; a session idle for PAUSE_MS no longer counts). A real server meets each burst in another
//     state (cache, checkpoint position, log), so each burst draws one lognormal factor, mean 1, coefficient of
//     variation = the noise, held until the burst ends: a whole run shares it, so it is not averaged away in the run.
//  2. Slow drift: 1 + DRIFT_SHARE x noise x sin(2 pi t / P + phase), P 3 to 7 minutes of the server's time.
//  3. Steps: a dip of DIP_DEPTH x noise (30-50% at 10%, at most 80%) lasting 1 to 2 s, like a checkpoint, at random
//     times (Poisson), on average once per DIP_EVERY_S seconds.
// A factor f dilates the workload's time: rows, transactions, log records, flushes, spins and waits per second all
// scale by f, so per row they stay what the model says; what is time (CPU busy, wait ms per second) stays, so CPU
// per row and ms per wait grow by 1/f. A client loop's pace is the wire's: the server can only answer later, so
// there a factor above 1 counts as 1 (its calls are held for 1 - f of the time) and its spread is about half.
import { rng } from './clock';
import type { Rates, WaitRate } from './contentionTypes';

/** A session that has run no workload for this long no longer keeps a burst going. */
export const PAUSE_MS = 1000;
/** Drift amplitude, as a share of the noise. */
export const DRIFT_SHARE = 0.3;
/** Dip depth range, as multiples of the noise (capped at MAX_DIP). */
export const DIP_DEPTH: readonly [number, number] = [3, 5];
export const MAX_DIP = 0.8;
export const DIP_SECONDS: readonly [number, number] = [1, 2];
export const DIP_EVERY_S = 60;
const DRIFT_PERIOD_S: readonly [number, number] = [180, 420];
/** A client session's gap longer than this is not time it should have been held for. */
const MAX_PACE_GAP_MS = 100;

export interface Dip {
  at: number;
  end: number;
  /** Throughput during the dip, as a factor (0.5 = half). */
  factor: number;
}

/** '10%' or '0.1' -> 0.1; throws a message saying what is wrong. */
export function parseNoise(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  const v = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!(v >= 0 && v <= 0.5)) throw new Error(`--noise must be a percentage from 0% to 50% (e.g. 10%), not '${text}'`);
  return v;
}

export class LoadNoise {
  /** The factor of the burst in force (1 before the first). */
  burst = 1;
  bursts = 0;
  private readonly sigma: number;
  private readonly burstRand: () => number;
  private readonly dipRand: () => number;
  private readonly driftAmp: number;
  private readonly driftOmega: number;
  private readonly driftPhase: number;
  private dips: Dip[] = [];
  private nextDip: number;
  /** Workload sessions: whether one is running a workload call now, and when it was last seen running one. */
  private sessions = new Map<number, { busy: boolean; last: number }>();
  private pace = new Map<number, { last: number; debtMs: number }>();

  constructor(
    readonly cv: number,
    seed: number,
    private readonly origin: number,
  ) {
    this.sigma = Math.sqrt(Math.log(1 + cv * cv));
    // Streams of their own: the per-step jitter the model always had draws exactly as it did.
    this.burstRand = rng((seed ^ 0x6e6f6973) >>> 0);
    this.dipRand = rng((seed ^ 0x64697073) >>> 0);
    const driftRand = rng((seed ^ 0x64726674) >>> 0);
    this.driftAmp = DRIFT_SHARE * cv;
    this.driftOmega = (2 * Math.PI) / (1000 * between(driftRand(), DRIFT_PERIOD_S));
    this.driftPhase = 2 * Math.PI * driftRand();
    this.nextDip = origin + this.gapMs();
  }

  /** One burst's factor: lognormal with mean 1 and the noise as its coefficient of variation. */
  drawBurst(): number {
    const u = 1 - this.burstRand(); // (0, 1]
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.burstRand());
    return Math.exp(this.sigma * z - (this.sigma * this.sigma) / 2);
  }

  /** Workload calls running now (by spid): a burst starts when some run while no session was active. */
  observe(now: number, busy: Iterable<number>): void {
    const running = new Set(busy);
    for (const [spid, s] of this.sessions) if (s.busy && !running.has(spid)) this.sessions.set(spid, { busy: false, last: now });
    if (running.size > 0 && this.live(now) === 0) this.startBurst();
    for (const spid of running) this.sessions.set(spid, { busy: true, last: now });
  }

  /** A session ran a short piece of workload (a custom batch) just now. */
  touch(now: number, spid: number): void {
    if (this.live(now) === 0) this.startBurst();
    const s = this.sessions.get(spid);
    if (!s?.busy) this.sessions.set(spid, { busy: false, last: now });
  }

  /** A session ended: it no longer keeps a burst going. */
  forget(spid: number): void {
    this.sessions.delete(spid);
    this.pace.delete(spid);
  }

  private live(now: number): number {
    for (const [spid, s] of this.sessions) if (!s.busy && now - s.last >= PAUSE_MS) this.sessions.delete(spid);
    return this.sessions.size;
  }

  private startBurst(): void {
    this.burst = this.drawBurst();
    this.bursts++;
  }

  drift(now: number): number {
    return 1 + this.driftAmp * Math.sin(this.driftOmega * (now - this.origin) + this.driftPhase);
  }

  /** The dips that overlap [t0, t1], generated as far as t1; older ones are let go. */
  dipsIn(t0: number, t1: number): Dip[] {
    while (this.nextDip <= t1) {
      const depth = Math.min(MAX_DIP, this.cv * between(this.dipRand(), DIP_DEPTH));
      const end = this.nextDip + 1000 * between(this.dipRand(), DIP_SECONDS);
      this.dips.push({ at: this.nextDip, end, factor: 1 - depth });
      this.nextDip += this.gapMs();
    }
    this.dips = this.dips.filter((d) => d.end > t0 - 60_000);
    return this.dips.filter((d) => d.end > t0 && d.at < t1);
  }

  /** The throughput factor at an instant. */
  factor(now: number): number {
    let f = this.burst * this.drift(now);
    for (const d of this.dipsIn(now, now)) if (d.at <= now && now < d.end) f *= d.factor;
    return f;
  }

  /** The mean factor over [t0, t1] (ms): the burst in force, the drift's integral, the dips over their spans. */
  mean(t0: number, t1: number): number {
    if (t1 <= t0) return this.factor(t1);
    const dips = this.dipsIn(t0, t1);
    const cuts = [...new Set([t0, t1, ...dips.flatMap((d) => [d.at, d.end]).filter((t) => t > t0 && t < t1)])].sort((a, b) => a - b);
    let sum = 0;
    for (let i = 1; i < cuts.length; i++) {
      const [a, b] = [cuts[i - 1], cuts[i]];
      const inDip = dips.reduce((f, d) => (d.at <= a && b <= d.end ? f * d.factor : f), 1);
      sum += inDip * this.driftIntegral(a, b);
    }
    return (this.burst * sum) / (t1 - t0);
  }

  /** How much faster (or slower) the workload's clock ran over [t0, t1]: a client loop's at most 1 (see above). */
  dilation(t0: number, t1: number, clientPaced: boolean): number {
    const m = this.mean(t0, t1);
    return clientPaced ? Math.min(1, m) : m;
  }

  /**
   * How long to hold a client-paced call back (whole ms; 0 = answer as the model says): a session is held for 1 - f
   * of its time, so its calls per second are f of what they would be. Sub-millisecond holds add up until they reach
   * a timer's resolution; what a timer overshoots is paid back by `held`.
   */
  holdMs(now: number, spid: number): number {
    const p = this.pace.get(spid) ?? { last: now, debtMs: 0 };
    p.debtMs += Math.min(MAX_PACE_GAP_MS, now - p.last) * (1 - Math.min(1, this.factor(now)));
    p.last = now;
    this.pace.set(spid, p);
    return p.debtMs >= 1 ? Math.floor(p.debtMs) : 0;
  }

  /** A held call was answered `ms` later than the model said. */
  held(spid: number, ms: number): void {
    const p = this.pace.get(spid);
    if (p) p.debtMs = Math.max(-5, p.debtMs - ms);
  }

  private driftIntegral(a: number, b: number): number {
    const w = this.driftOmega;
    const x = (t: number) => w * (t - this.origin) + this.driftPhase;
    return b - a - (this.driftAmp / w) * (Math.cos(x(b)) - Math.cos(x(a)));
  }

  private gapMs(): number {
    return -Math.log(1 - this.dipRand()) * DIP_EVERY_S * 1000;
  }
}

function between(u: number, [lo, hi]: readonly [number, number]): number {
  return lo + (hi - lo) * u;
}

/** The rates with the workload's clock running at f: counts per second times f, time per second as it was. */
export function dilate(r: Rates, f: number): Rates {
  if (f === 1) return r;
  const scale = <K, V>(m: Map<K, V>, g: (v: V) => V) => new Map([...m].map(([k, v]) => [k, g(v)]));
  const waits = (w: WaitRate): WaitRate => ({ ...w, count: w.count * f });
  return {
    ...r,
    workers: scale(r.workers, (w) => ({ ...w, rowsPerSec: w.rowsPerSec * f, txnsPerSec: w.txnsPerSec * f })),
    spinlocks: scale(r.spinlocks, (s) => ({
      spins: s.spins * f,
      collisions: s.collisions * f,
      backoffs: s.backoffs * f,
      sleepMs: s.sleepMs * f,
    })),
    waits: scale(r.waits, waits),
    latches: scale(r.latches, waits),
    databases: scale(r.databases, (d) => ({
      ...d,
      transactions: d.transactions * f,
      writeTransactions: d.writeTransactions * f,
      logFlushes: d.logFlushes * f,
      logBytes: d.logBytes * f,
      flushWaits: d.flushWaits * f,
    })),
  };
}
