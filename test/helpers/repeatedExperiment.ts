// A preset's experiment of repeated runs built from the panel's builders: two arms (A and B) at the thread counts
// asked, each repeated, in the engine's alternating order (A B, B A, ...), B's throughput a given multiple of A's and
// every run's throughput scaled by a seeded lognormal factor (the noise the intervals assume). Deterministic.
import type { Experiment, RunRecord } from '../../src/shared/experiment';
import { experiment, runRecord } from './builders';
import { lognormalFactors } from './repeatedRuns';

export interface RepeatedOptions {
  threads?: number[];
  repeat?: number;
  /** B's throughput over A's (1: equal arms). */
  ratio?: number;
  /** Run-to-run coefficient of variation. */
  cv?: number;
  seed?: number;
  /** Ticks per run (5 or more let the noise checks read a trend). */
  ticks?: number;
  /** Client-side latency on every run (the client loop and custom workloads measure it). */
  latency?: boolean;
}

/** Scales a run's throughput (and its rows) by `k`, leaving its per-second counters as they were. */
function scaled(r: RunRecord, k: number): RunRecord {
  const rows = Math.round(r.rows * k);
  return { ...r, rows, totals: { ...r.totals, rows }, derived: { ...r.derived, rowsPerSec: r.derived.rowsPerSec * k } };
}

export function repeatedPresetExperiment(o: RepeatedOptions = {}): Experiment {
  const threads = o.threads ?? [2, 8];
  const repeat = o.repeat ?? 3;
  const factor = lognormalFactors(o.seed ?? 7, o.cv ?? 0.05);
  const base = experiment('2026-11-25T10-00-00-000Z-preset', threads);
  const arms = [
    { id: 'arm-a', label: 'A side', ratio: 1 },
    { id: 'arm-b', label: 'B side', ratio: o.ratio ?? 1.3 },
  ];
  const runs: RunRecord[] = [];
  const sequence: string[] = [];
  for (let rep = 1; rep <= repeat; rep++)
    for (const t of threads)
      for (const arm of rep % 2 === 1 ? arms : [...arms].reverse()) {
        const r = runRecord(runs.length, t, { seed: runs.length + 1, ticks: o.ticks ?? 6, latency: o.latency });
        runs.push({ ...scaled(r, arm.ratio * factor()), repetition: rep, arm: { ...r.arm, id: arm.id, label: arm.label } });
        sequence.push(`${arm.id}@${t}#${rep}`);
      }
  return {
    ...base,
    title: 'A against B, repeated',
    runs,
    design: { repeat, order: 'alternating', sequence },
    preset: {
      id: 'numa-logwriter',
      post: 'numa-logcache-access',
      question: 'Is B faster than A?',
      notes: [],
      comparisons: [{ a: 'arm-a', b: 'arm-b', label: 'A side (A) against B side (B)' }],
      views: ['ab', 'scaling'],
      watch: ['LOGCACHE_ACCESS', 'WRITELOG'],
    },
  };
}

/** The same experiment with one run per arm and thread count, as every record before repetitions. */
export function singlePresetExperiment(o: RepeatedOptions = {}): Experiment {
  const e = repeatedPresetExperiment({ ...o, repeat: 1 });
  return { ...e, runs: e.runs.map(({ repetition: _r, ...r }) => r), design: undefined };
}

/** A plain scenario's experiment (one arm, 'main') at the thread counts asked, each repeated. */
export function repeatedScenarioExperiment(o: RepeatedOptions = {}): Experiment {
  const e = repeatedPresetExperiment(o);
  const runs = e.runs
    .filter((r) => r.arm.id === 'arm-a')
    .map((r, i) => ({ ...r, index: i, arm: { ...r.arm, id: 'main', label: 'disk-insert' } }));
  return {
    ...e,
    title: 'disk-insert, repeated',
    preset: null,
    runs,
    design: { ...e.design!, sequence: runs.map((r) => `main@${r.threads}#${r.repetition}`) },
  };
}
