// The simulator's contention model as a tune sees it, without the wire or the wait: what a configuration at a session
// count gives (noise-free, the model's own definition of best), and a whole tune driven through the real search with
// seeded lognormal noise, for the search's tests.
import { formatCpuRanges, parseAffinity } from '../../src/shared/affinity';
import type { RunRecord } from '../../src/shared/experiment';
import type { TuneConfig } from '../../src/shared/tune';
import type { Topology } from '../../src/shared/types';
import { TuneSearch } from '../../src/engine/tune/search';
import { disk, ratesFor, rows } from './simModel';
import { rng } from './builders';

/** The simulator's affinity statement body for a configuration's affinity (null: AUTO). */
export function simAffinity(c: Pick<TuneConfig, 'affinity'>, t: Topology): string | null {
  if (!c.affinity) return null;
  const a = parseAffinity(c.affinity, t);
  return a.cpus === 'AUTO' ? null : `CPU = ${formatCpuRanges(a.cpus)}`;
}

/** Rows per second the model gives a disk-insert configuration at `threads` sessions, without noise. */
export function modelRowsPerSec(c: TuneConfig, threads: number, t: Topology): number {
  return rows(ratesFor(disk(c.batchSize ?? 1), threads, simAffinity(c, t), c.delayedDurability ?? 'DISABLED'));
}

/** The model's best: the configuration and session count with the most rows/s over the whole space. */
export function modelBest(configs: TuneConfig[], t: Topology): { config: string; threads: number; rowsPerSec: number } {
  let best = { config: '', threads: 0, rowsPerSec: -1 };
  for (const c of configs)
    for (const s of c.sessions) {
      const v = modelRowsPerSec(c, s, t);
      if (v > best.rowsPerSec) best = { config: c.id, threads: s, rowsPerSec: v };
    }
  return best;
}

/** A trial record with only what the search reads. */
export function trialRecord(index: number, armId: string, threads: number, rowsPerSec: number): RunRecord {
  const elapsedMs = 4000;
  const n = Math.round((rowsPerSec * elapsedMs) / 1000);
  return {
    index,
    threads,
    arm: { id: armId, label: armId, scenarioId: 'disk-insert', parameters: {}, knobs: {}, mode: 'server-loop' },
    status: 'completed',
    rows: n,
    derived: { rowsPerSec, spinsPerRow: {}, backoffsPerRow: {}, waitMsPerRow: {} },
    totals: { elapsedMs, rows: n, transactions: n, spinlocks: {}, waits: {}, latches: {}, logFlushes: 0, logBytesFlushed: 0, cpuMs: 0 },
    latency: null,
    events: [],
  } as unknown as RunRecord;
}

/** One tune through the real search: trials of `trialMs` (all in), lognormal noise of `cv`, within `budgetMs`. */
export function simulateTune(
  configs: TuneConfig[],
  t: Topology,
  o: { seed: number; cv: number; budgetMs: number; trialMs: number },
): { search: TuneSearch; runs: RunRecord[] } {
  const search = new TuneSearch({ configs, objective: { kind: 'throughput' }, constraints: [], sharedServer: false });
  const rand = rng(o.seed);
  const sigma = Math.sqrt(Math.log(1 + o.cv * o.cv));
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const truth = new Map<string, number>();
  const runs: RunRecord[] = [];
  let elapsed = 3000;
  for (;;) {
    const affordable = Math.floor((o.budgetMs - elapsed - 3000) / o.trialMs);
    const r = search.next(runs, affordable);
    if (!r) break;
    const c = configs[r.arm];
    const k = `${c.id}@${r.threads}`;
    if (!truth.has(k)) truth.set(k, modelRowsPerSec(c, r.threads, t));
    const v = truth.get(k)! * Math.exp(sigma * normal() - (sigma * sigma) / 2);
    runs.push(trialRecord(runs.length, c.id, r.threads, v));
    elapsed += o.trialMs;
  }
  search.finish(runs);
  return { search, runs };
}
