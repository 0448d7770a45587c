// Synthetic repeated runs for the statistics tests: each arm's true throughput and spins per row, and every run's
// figures that times a lognormal factor with the coefficient of variation asked (the run-to-run noise model the
// intervals assume, and the one `spinlab sim --noise` draws bursts from). Seeded: the same seed gives the same runs.
import normalFactory from '@stdlib/random-base-normal';
import type { CellRun } from '../../src/shared/repeats';
import type { RunTotals } from '../../src/shared/experiment';

export interface TrueArm {
  id: string;
  rowsPerSec: number;
  /** LOGCACHE_ACCESS spins per row (0: the spinlock does not spin in this arm). */
  spinsPerRow?: number;
}

/** A seeded source of lognormal factors with coefficient of variation `cv` (median 1). */
export function lognormalFactors(seed: number, cv: number): () => number {
  const normal = normalFactory.factory({ seed });
  const sigma = Math.sqrt(Math.log(1 + cv * cv));
  return () => Math.exp(normal(0, sigma));
}

/** `n` repetitions of each arm, alternating A B, B A as the engine runs them; each run 10 s. */
export function repeatedRuns(factor: () => number, arms: readonly TrueArm[], n: number, threads = 8): CellRun[] {
  const out: CellRun[] = [];
  for (let rep = 1; rep <= n; rep++) {
    for (const arm of rep % 2 === 1 ? arms : [...arms].reverse()) {
      const rowsPerSec = arm.rowsPerSec * factor();
      const rows = Math.round(rowsPerSec * 10);
      const spins = Math.round((arm.spinsPerRow ?? 0) * rows * factor());
      out.push(
        syntheticRun({ index: out.length, repetition: rep, threads, armId: arm.id }, rowsPerSec, rows, {
          spinlocks: spins ? { LOGCACHE_ACCESS: { spins, collisions: 0, backoffs: 0, sleepTime: 0 } } : {},
        }),
      );
    }
  }
  return out;
}

/** One completed 10-second run of a synthetic experiment: its place, its arm, its rate, and the totals asked (0 else). */
export function syntheticRun(
  at: { index: number; repetition: number; threads: number; armId: string },
  rowsPerSec: number,
  rows: number,
  totals: Partial<Pick<RunTotals, 'spinlocks' | 'waits' | 'latches' | 'logFlushes' | 'logBytesFlushed' | 'cpuMs'>>,
): CellRun {
  return {
    index: at.index,
    repetition: at.repetition,
    threads: at.threads,
    status: 'completed',
    arm: { id: at.armId, label: `arm ${at.armId}` },
    rows,
    derived: { rowsPerSec },
    latency: null,
    totals: {
      elapsedMs: 10_000,
      rows,
      transactions: rows,
      spinlocks: {},
      waits: {},
      latches: {},
      logFlushes: 0,
      logBytesFlushed: 0,
      cpuMs: 0,
      ...totals,
    },
  };
}
