// A run's totals (the ticks folded) and what is derived from them: per-row normalisation, so runs of different
// length compare, and "doing the math" (the NUMA post): cycles available = elapsed s x CPUs used x clock rate, per spin.
import { isBenignWait } from '../shared/benign';
import type { CpuCount, LatchDelta, MeasuredCpu, RunDerived, RunTotals, SpinDelta, Tick, WaitDelta } from '../shared/experiment';
import { coresFor } from '../shared/cycleMath';
import { perSecond } from '../shared/analysis';
import type { RawSample } from '../shared/types';

export function emptyTotals(): RunTotals {
  return {
    elapsedMs: 0,
    rows: 0,
    transactions: 0,
    spinlocks: {},
    waits: {},
    latches: {},
    logFlushes: 0,
    logBytesFlushed: 0,
    cpuMs: 0,
  };
}

function addInto<D extends object>(into: Record<string, D>, from: Record<string, D>): void {
  for (const [name, d] of Object.entries(from)) {
    const acc = (into[name] ??= Object.fromEntries(Object.keys(d).map((k) => [k, 0])) as D) as Record<string, number>;
    for (const [k, v] of Object.entries(d)) acc[k] = (acc[k] ?? 0) + (v as number);
  }
}

/** Adds one tick to an accumulator (mutates and returns it: the live view folds one tick a second). */
export function addTick(totals: RunTotals, tick: Tick): RunTotals {
  totals.elapsedMs += tick.intervalMs;
  totals.rows += tick.rows;
  totals.transactions += tick.transactions;
  addInto<SpinDelta>(totals.spinlocks, tick.spinlocks);
  addInto<WaitDelta>(totals.waits, tick.waits);
  addInto<LatchDelta>(totals.latches, tick.latches);
  totals.logFlushes += tick.log.flushes;
  totals.logBytesFlushed += tick.log.bytesFlushed;
  totals.cpuMs += tick.cpuMs;
  if (tick.hiddenCpuMs !== undefined) totals.hiddenCpuMs = (totals.hiddenCpuMs ?? 0) + tick.hiddenCpuMs;
  return totals;
}

export function foldTicks(ticks: readonly Tick[]): RunTotals {
  return ticks.reduce(addTick, emptyTotals());
}

/** The online schedulers the run had: the most seen in any tick (an affinity change mid-run is not expected). */
export function cpusUsedFromTicks(ticks: readonly Tick[]): number {
  return ticks.reduce((m, t) => Math.max(m, t.onlineSchedulers), 0);
}

export type ClockSample = Pick<RawSample, 'msTicks' | 'cpuTicks' | 'startTime'>;

/**
 * Clock rate from two sys.dm_os_sys_info samples: delta cpu_ticks (RDTSC) / delta ms_ticks = ticks per ms. Null when
 * the samples straddle a restart or did not move (the rate would be meaningless, not zero).
 */
export function measureClock(
  first: ClockSample,
  last: ClockSample,
): { clockHz: number; cpuTicksDelta: number; msTicksDelta: number } | null {
  const msTicksDelta = last.msTicks - first.msTicks;
  const cpuTicksDelta = last.cpuTicks - first.cpuTicks;
  if (first.startTime !== last.startTime || msTicksDelta <= 0 || cpuTicksDelta <= 0) return null;
  return { clockHz: (cpuTicksDelta / msTicksDelta) * 1000, cpuTicksDelta, msTicksDelta };
}

/**
 * The CPUs a run's sessions could run on, as the posts count them ("10 threads will use 5 physical CPU cores"): one
 * scheduler per session at most, so the threads, capped at the online schedulers the affinity leaves; with no
 * scheduler count (a run that never sampled) the threads.
 */
export function cpuCountFor(threads: number, onlineSchedulers: number, threadsPerCore: number): CpuCount {
  const cpus = onlineSchedulers > 0 ? Math.min(threads, onlineSchedulers) : threads;
  const tpc = Math.max(1, threadsPerCore);
  return { threads, onlineSchedulers, threadsPerCore: tpc, physicalCores: coresFor(cpus, tpc) };
}

/** The measured basis: CPU the schedulers report busy over the run (total_cpu_usage_ms), in cycles at the clock rate. */
export function measuredCpuFor(cpuMs: number, elapsedMs: number, clockHz: number | null, rows: number): MeasuredCpu {
  const cycles = clockHz === null ? null : (cpuMs * clockHz) / 1000;
  return {
    cpuMs,
    busyCpus: elapsedMs > 0 ? cpuMs / elapsedMs : 0,
    cycles,
    cyclesPerRow: cycles !== null && rows > 0 ? cycles / rows : null,
  };
}

export interface DerivedInputs {
  /** Online schedulers during the run (the CPUs its affinity leaves); see cpusUsedFromTicks. */
  cpusUsed: number;
  /** Sessions of the run; the CPUs used are these, at most the online schedulers. Absent: the online schedulers. */
  threads?: number;
  /** Logical CPUs per physical core (hyperthreads), for the physical-core count. */
  threadsPerCore?: number;
  /** Server-measured elapsed ms; defaults to totals.elapsedMs (the sum of tick intervals). */
  elapsedMs?: number;
  /** First and last raw samples of the run, for the clock rate. */
  first?: ClockSample | null;
  last?: ClockSample | null;
}

const perRow = (rows: number, v: number) => v / rows;

export function computeDerived(totals: RunTotals, inputs: DerivedInputs): RunDerived {
  const elapsedMs = inputs.elapsedMs ?? totals.elapsedMs;
  const elapsedSec = elapsedMs / 1000;
  const rows = totals.rows;
  const spinsPerRow: Record<string, number> = {};
  const backoffsPerRow: Record<string, number> = {};
  const waitMsPerRow: Record<string, number> = {};
  if (rows > 0) {
    for (const [name, s] of Object.entries(totals.spinlocks)) {
      spinsPerRow[name] = perRow(rows, s.spins);
      backoffsPerRow[name] = perRow(rows, s.backoffs);
    }
    for (const [name, w] of Object.entries(totals.waits)) {
      if (!isBenignWait(name) && w.waitMs > 0) waitMsPerRow[name] = perRow(rows, w.waitMs);
    }
  }
  const clock = inputs.first && inputs.last ? measureClock(inputs.first, inputs.last) : null;
  const clockHz = clock?.clockHz ?? null;
  // The CPUs the sessions could run on (logical CPUs, one scheduler each); the physical cores beside them.
  const cpuCount = cpuCountFor(inputs.threads ?? inputs.cpusUsed, inputs.cpusUsed, inputs.threadsPerCore ?? 1);
  const cpusUsed = Math.min(cpuCount.threads, cpuCount.onlineSchedulers > 0 ? cpuCount.onlineSchedulers : cpuCount.threads);
  // Multiplied in ms and divided once, so whole-number inputs give a whole-number result.
  const cyclesAvailable = clockHz === null ? null : (elapsedMs * cpusUsed * clockHz) / 1000;
  const cyclesPerSpin: Record<string, number> = {};
  if (cyclesAvailable !== null) {
    for (const [name, s] of Object.entries(totals.spinlocks)) if (s.spins > 0) cyclesPerSpin[name] = cyclesAvailable / s.spins;
  }
  return {
    rowsPerSec: perSecond(rows, elapsedMs),
    spinsPerRow,
    backoffsPerRow,
    waitMsPerRow,
    clockHz,
    clock: clock && { cpuTicksDelta: clock.cpuTicksDelta, msTicksDelta: clock.msTicksDelta },
    elapsedSec,
    cpusUsed,
    cpuCount,
    measuredCpu: measuredCpuFor(totals.cpuMs, elapsedMs, clockHz, rows),
    cyclesAvailable,
    cyclesPerSpin,
    cyclesPerRow: cyclesAvailable !== null && rows > 0 ? cyclesAvailable / rows : null,
  };
}
