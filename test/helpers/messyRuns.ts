// Synthetic repeated runs that break the assumptions the intervals rest on, for the statistics tier: each run's
// figures carry heavy-tailed noise (Student's t with 3 degrees of freedom on the log scale, scaled to the asked
// spread), a drift over the experiment's order, an order effect (whichever arm runs second in a block is faster), and
// level shifts (from a random run on, everything moves by a step, as a checkpoint regime or a restarted service
// does). Twenty figures per run, as a real comparison has: throughput, CPU, log, and five spinlocks, waits and
// latches, some of which are 0 in some runs. Seeded: the same seed gives the same runs.
import normalFactory from '@stdlib/random-base-normal';
import randuFactory from '@stdlib/random-base-randu';
import type { CellRun } from '../../src/shared/repeats';
import { syntheticRun } from './repeatedRuns';

export interface Mess {
  /** Spread of each run's throughput, as a share (0.1: about 10%). */
  cv: number;
  /** Drift of every figure per run in the experiment's order, on the log scale (0.01: 1% a run). */
  drift: number;
  /** Speed-up of the second run of each block (0.036: 3.6%). */
  order: number;
  /** Chance that a level shift happens in an experiment, and its size on the log scale. */
  shiftChance: number;
  shift: number;
  /** Heavy tails: Student's t with 3 degrees of freedom instead of a normal. */
  heavy: boolean;
}

export const MESSY: Mess = { cv: 0.1, drift: 0.01, order: 0.036, shiftChance: 0.3, shift: -0.1, heavy: true };

const NAMES = ['LOGCACHE_ACCESS', 'XDESMGR', 'LOCK_HASH', 'SOS_CACHESTORE', 'BUF_HASH'];
const WAITS = ['WRITELOG', 'PAGELATCH_EX', 'SOS_SCHEDULER_YIELD', 'LCK_M_X', 'ASYNC_NETWORK_IO'];
const LATCHES = ['BUFFER', 'ACCESS_METHODS_HOBT_VIRTUAL_ROOT', 'LOG_MANAGER', 'FGCB_ADD_REMOVE', 'TRACE_CONTROLLER'];

/** A seeded source of unit-variance noise: normal, or Student's t(3) scaled to variance 1. */
export function noiseSource(seed: number, heavy: boolean): { draw: () => number; uniform: () => number } {
  const normal = normalFactory.factory({ seed });
  const uniform = randuFactory.factory({ name: 'mt19937', seed: seed + 1 });
  const chi3 = () => normal(0, 1) ** 2 + normal(0, 1) ** 2 + normal(0, 1) ** 2;
  // t(3) has variance 3: divided by sqrt(3) it has variance 1, with tails far heavier than the normal's.
  const t3 = () => normal(0, 1) / Math.sqrt(chi3() / 3) / Math.sqrt(3);
  return { draw: heavy ? t3 : () => normal(0, 1), uniform };
}

export interface ArmTruth {
  id: string;
  rowsPerSec: number;
}

/**
 * Throughput alone, for checks that need thousands of repetitions: arm A's and arm B's (B = ratio x A) values by
 * block, alternating A B, B A, with the same noise, drift, order effect and level shift as messyRuns.
 */
export function messyThroughput(src: ReturnType<typeof noiseSource>, ratio: number, n: number, mess: Mess): { a: number[]; b: number[] } {
  const sigma = Math.sqrt(Math.log(1 + mess.cv * mess.cv));
  const shiftAt = src.uniform() < mess.shiftChance ? Math.floor(src.uniform() * 2 * n) : Infinity;
  const a: number[] = [];
  const b: number[] = [];
  for (let rep = 1; rep <= n; rep++) {
    for (const place of [0, 1]) {
      const k = 2 * (rep - 1) + place;
      const isB = (rep % 2 === 1) === (place === 1);
      const level = mess.drift * k + (place === 1 ? mess.order : 0) + (k >= shiftAt ? mess.shift : 0);
      (isB ? b : a).push((isB ? ratio : 1) * Math.exp(level + sigma * src.draw()));
    }
  }
  return { a, b };
}

/**
 * `n` repetitions of each arm, alternating A B, B A as the engine runs them; `mess` spoils them. Throughput's noise
 * has spread `cv`; each secondary figure its own (10% to 30%), partly shared with throughput as real figures are.
 */
export function messyRuns(src: ReturnType<typeof noiseSource>, arms: readonly ArmTruth[], n: number, mess: Mess): CellRun[] {
  const sigma = Math.sqrt(Math.log(1 + mess.cv * mess.cv));
  const total = n * arms.length;
  const shiftAt = src.uniform() < mess.shiftChance ? Math.floor(src.uniform() * total) : Infinity;
  const out: CellRun[] = [];
  for (let rep = 1; rep <= n; rep++) {
    const turn = rep % 2 === 1 ? arms : [...arms].reverse();
    turn.forEach((arm, place) => {
      const k = out.length;
      const common = sigma * src.draw();
      const level = mess.drift * k + (place === 1 ? mess.order : 0) + (k >= shiftAt ? mess.shift : 0);
      const rowsPerSec = arm.rowsPerSec * Math.exp(level + common);
      const rows = Math.round(rowsPerSec * 10);
      // A per-row figure: its own noise plus part of the run's, drifting with the rest.
      const perRow = (base: number, spread: number) => base * Math.exp(0.5 * common + spread * src.draw() + 0.5 * level);
      // A rare spinlock spins in only some runs (0 otherwise): the figures no logarithm can take.
      const sometimes = (base: number, p: number) => (src.uniform() < p ? perRow(base, 0.3) : 0);
      const spinlocks: Record<string, { spins: number; collisions: number; backoffs: number; sleepTime: number }> = {};
      NAMES.forEach((name, i) => {
        const perRowSpins = i < 3 ? perRow(50 / (i + 1), 0.1 + 0.05 * i) : sometimes(0.5, 0.6);
        const spins = Math.round(perRowSpins * rows);
        spinlocks[name] = { spins, collisions: 0, backoffs: Math.round(spins / 100), sleepTime: 0 };
      });
      const waits = Object.fromEntries(
        WAITS.map((w, i) => [
          w,
          { waitMs: (i < 4 ? perRow(0.02 / (i + 1), 0.15 + 0.03 * i) : sometimes(0.001, 0.5)) * rows, count: rows, signalMs: 0 },
        ]),
      );
      const latches = Object.fromEntries(
        LATCHES.map((l, i) => [l, { waitMs: (i < 3 ? perRow(0.005 / (i + 1), 0.2) : sometimes(0.0005, 0.5)) * rows, count: rows }]),
      );
      out.push(
        syntheticRun({ index: k, repetition: rep, threads: 8, armId: arm.id }, rowsPerSec, rows, {
          spinlocks,
          waits,
          latches,
          logFlushes: Math.round(perRow(0.5, 0.1) * rows),
          logBytesFlushed: perRow(400, 0.05) * rows,
          cpuMs: perRow(0.04, 0.1) * rows,
        }),
      );
    });
  }
  return out;
}
