// Time for the simulated instance. Real by default; tests drive a ManualClock so the lazily advanced counters and
// workload completions can be checked without waiting.

export interface Clock {
  /** Wall-clock milliseconds since the epoch (fractional allowed). */
  now(): number;
  setTimer(fn: () => void, ms: number): { cancel(): void };
}

export const realClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

export class ManualClock implements Clock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private seq = 0;
  constructor(private t = Date.UTC(2025, 0, 6, 9, 0, 0)) {}
  now(): number {
    return this.t;
  }
  setTimer(fn: () => void, ms: number) {
    const id = ++this.seq;
    this.timers.push({ at: this.t + Math.max(0, ms), fn, id });
    return { cancel: () => (this.timers = this.timers.filter((x) => x.id !== id)) };
  }
  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
  }
}

/** Small deterministic PRNG (mulberry32) so runs with the same seed give the same noise. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
