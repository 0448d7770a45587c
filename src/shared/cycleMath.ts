// "Doing the math" (the NUMA post): the CPU cycles a run had, elapsed seconds x CPUs used x clock rate, divided by the
// spins of each spinlock and by the rows written. A spinlock that burns a large share of the cycles shows as few
// cycles per spin. Pure: every input comes back with the results, so a view can show how each number was reached.
import { thousands } from './numberText';
import { plural } from './plural';

export interface CycleMathInput {
  /** Server-measured elapsed seconds of the run. */
  elapsedSec: number;
  /** CPUs the run had (logical CPUs, i.e. online schedulers, unless cpuBasis says cores). */
  cpus: number;
  /** What `cpus` counts. The post counted physical cores: 10 hyperthreads = 5 cores. */
  cpuBasis: 'logical CPUs' | 'physical cores';
  /** Measured clock rate in Hz (delta cpu_ticks / delta ms_ticks x 1000), or null when it could not be measured. */
  clockHz: number | null;
  /** Where the clock rate came from, shown beside it. */
  clock?: { cpuTicksDelta: number; msTicksDelta: number } | null;
  /** Spins per spinlock over the run. */
  spins: Record<string, number>;
  rows: number;
  /** Where `cpus` came from (threads, at most the online schedulers), shown beside it. */
  cpuCount?: { threads: number; onlineSchedulers: number } | null;
  /** The measured basis: delta of the schedulers' total_cpu_usage_ms over the run. */
  cpuMs?: number | null;
}

export interface MeasuredMath {
  cycles: number | null;
  cyclesPerRow: number | null;
  /** "5,800 ms of scheduler CPU (total_cpu_usage_ms) x 2.40 GHz = 13,920,000,000 cycles". */
  formula: string;
}

export interface SpinCycles {
  name: string;
  spins: number;
  /** Cycles available per spin, or null without a clock rate. */
  cyclesPerSpin: number | null;
  /** Spins per row, or null without rows. */
  spinsPerRow: number | null;
}

export interface CycleMath {
  inputs: CycleMathInput;
  /** elapsedSec x cpus x clockHz, or null without a clock rate. */
  cycles: number | null;
  cyclesPerRow: number | null;
  /** Spinlocks that spun, most spins first. */
  perSpinlock: SpinCycles[];
  /** The sum written out: "10.4 s x 5 physical cores x 2.40 GHz = 124,800,000,000 cycles", or why it cannot be done. */
  formula: string;
  /** The second basis, from what the schedulers report busy; null when the run has no such figure. */
  measured: MeasuredMath | null;
}

function threadsText(c: { threads: number; onlineSchedulers: number }): string {
  const t = plural(c.threads, 'thread');
  return c.onlineSchedulers > 0 ? ` (${t}; ${plural(c.onlineSchedulers, 'online scheduler')})` : ` (${t})`;
}

function ghz(hz: number): string {
  return `${(hz / 1e9).toFixed(2)} GHz`;
}

function whole(n: number): string {
  return thousands(n);
}

export function cycleMath(input: CycleMathInput): CycleMath {
  const { elapsedSec, cpus, clockHz, rows } = input;
  const usable = clockHz !== null && Number.isFinite(clockHz) && clockHz > 0 && elapsedSec > 0 && cpus > 0;
  // Multiply before dividing so whole-number inputs stay exact.
  const cycles = usable ? elapsedSec * cpus * (clockHz as number) : null;
  const perSpinlock = Object.entries(input.spins)
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([name, spins]) => ({
      name,
      spins,
      cyclesPerSpin: cycles === null ? null : cycles / spins,
      spinsPerRow: rows > 0 ? spins / rows : null,
    }));
  const sec = `${Number(elapsedSec.toFixed(3))} s`;
  const basis = `${cpus} ${cpus === 1 ? input.cpuBasis.replace(/s$/, '') : input.cpuBasis}${input.cpuCount && input.cpuBasis === 'logical CPUs' ? threadsText(input.cpuCount) : ''}`;
  const formula =
    cycles !== null
      ? `${sec} x ${basis} x ${ghz(clockHz as number)} = ${whole(cycles)} cycles`
      : clockHz === null
        ? `${sec} x ${basis} x (clock rate not measured: the run's first and last samples did not give one) = unknown`
        : `${sec} x ${basis} x ${ghz(clockHz)}: nothing to divide (no elapsed time or no CPUs)`;
  let measured: MeasuredMath | null = null;
  if (typeof input.cpuMs === 'number') {
    const ms = input.cpuMs;
    const mCycles = clockHz !== null && Number.isFinite(clockHz) && clockHz > 0 ? (ms * clockHz) / 1000 : null;
    const busy = elapsedSec > 0 ? ` (${(ms / (elapsedSec * 1000)).toFixed(2)} CPUs busy on average)` : '';
    measured = {
      cycles: mCycles,
      cyclesPerRow: mCycles !== null && rows > 0 ? mCycles / rows : null,
      formula:
        mCycles !== null
          ? `${whole(ms)} ms of scheduler CPU (total_cpu_usage_ms)${busy} x ${ghz(clockHz as number)} = ${whole(mCycles)} cycles`
          : `${whole(ms)} ms of scheduler CPU (total_cpu_usage_ms)${busy} x (clock rate not measured) = unknown`,
    };
  }
  return {
    inputs: input,
    cycles,
    cyclesPerRow: cycles !== null && rows > 0 ? cycles / rows : null,
    perSpinlock,
    formula,
    measured,
  };
}

/**
 * Physical cores behind `logicalCpus` when each core runs `threadsPerCore` hyperthreads (the post's basis), rounded
 * up: 10 logical CPUs at 2 per core are 5 cores.
 */
export function coresFor(logicalCpus: number, threadsPerCore: number): number {
  return threadsPerCore > 1 ? Math.ceil(logicalCpus / threadsPerCore) : logicalCpus;
}

/** A run's math from its derived figures (any schema version after migration): the CPUs used with their inputs. */
export function runCycleMath(
  d: {
    elapsedSec: number;
    cpusUsed: number;
    clockHz: number | null;
    clock: CycleMathInput['clock'];
    cpuCount?: { threads: number; onlineSchedulers: number };
    measuredCpu?: { cpuMs: number };
  },
  spins: Record<string, number>,
  rows: number,
): CycleMath {
  return cycleMath({
    elapsedSec: d.elapsedSec,
    cpus: d.cpusUsed,
    cpuBasis: 'logical CPUs',
    clockHz: d.clockHz,
    clock: d.clock,
    spins,
    rows,
    cpuCount: d.cpuCount ?? null,
    cpuMs: d.measuredCpu?.cpuMs ?? null,
  });
}
