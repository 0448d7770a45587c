// Which two runs to compare by default, and whether two runs did the same work. A comparison is the experiment's own
// (A against B of its preset at the same sessions, a run against its repetition, a sweep's ends), never across
// experiments by default; a pair the user picks across workloads gets no "faster" verdict, only its figures. Pure,
// so the panel and `spinlab compare` say the same.
import type { ParamValue } from './experiment';

/** What a run ran, as far as it is known: enough to tell a different workload from the same one under other knobs. */
export interface RunWorkload {
  scenarioId: string;
  parameters: Record<string, ParamValue>;
  mode: string;
  /** A custom workload's statements and database, when known. */
  custom?: { database: string; statements: readonly string[] } | null;
}

/** A run as the pairing reads it. */
export interface PairRun {
  key: string;
  experimentKey: string;
  index: number;
  armId: string;
  threads: number;
  status: string;
  repetition?: number;
}

/** The arms an experiment's preset compares, first comparison first (absent: its arms in order). */
export type ComparisonsOf = (experimentKey: string) => readonly { a: string; b: string }[];

export interface RunPair {
  a: string;
  b: string;
  /** How the pair was chosen, in words ("A against B at 8 sessions"). */
  why: string;
}

const sessions = (n: number) => `${n} session${n === 1 ? '' : 's'}`;

/** The experiment's own comparison among its runs (in their order), or null when it has fewer than two runs. */
function pairWithin(runs: readonly PairRun[], comparisons: readonly { a: string; b: string }[]): RunPair | null {
  if (runs.length < 2) return null;
  const done = runs.filter((r) => r.status === 'completed');
  const pool = done.length >= 2 ? done : runs;
  const arms = [...new Set(runs.map((r) => r.armId))];
  if (arms.length > 1) {
    const pairs = comparisons.length ? comparisons : arms.slice(1).map((b, i) => ({ a: arms[i], b }));
    for (const p of pairs) {
      const last = (arm: string, threads: number) => [...pool].reverse().find((r) => r.armId === arm && r.threads === threads);
      const common = [...new Set(pool.filter((r) => r.armId === p.a).map((r) => r.threads))]
        .filter((t) => last(p.b, t))
        .sort((x, y) => y - x);
      if (common.length) {
        const a = last(p.a, common[0])!;
        const b = last(p.b, common[0])!;
        return { a: a.key, b: b.key, why: `arm A against arm B of the same experiment at ${sessions(common[0])}` };
      }
    }
  }
  // A cell run more than once: its first repetition against its last, at the most sessions.
  const cells = new Map<string, PairRun[]>();
  for (const r of pool) cells.set(`${r.armId}\u0000${r.threads}`, [...(cells.get(`${r.armId}\u0000${r.threads}`) ?? []), r]);
  const repeated = [...cells.values()].filter((c) => c.length > 1).sort((x, y) => y[0].threads - x[0].threads);
  if (repeated.length) {
    const c = repeated[0];
    return { a: c[0].key, b: c[c.length - 1].key, why: `a run against its repetition at ${sessions(c[0].threads)}` };
  }
  // A sweep of one arm: its ends, the fewest sessions against the most.
  const arm = pool.filter((r) => r.armId === pool[0].armId);
  const fewest = arm.reduce((m, r) => (r.threads < m.threads ? r : m), arm[0]);
  const most = arm.reduce((m, r) => (r.threads > m.threads ? r : m), arm[0]);
  if (fewest !== most) return { a: fewest.key, b: most.key, why: 'the fewest sessions against the most, in the same experiment' };
  return null;
}

/**
 * The default pair: the first experiment (in the runs' order: the live one first) that has two runs to compare,
 * compared within itself. Null when no experiment has two: the user picks.
 */
export function defaultPair(runs: readonly PairRun[], comparisonsOf: ComparisonsOf = () => []): RunPair | null {
  const order = [...new Set(runs.map((r) => r.experimentKey))];
  for (const key of order) {
    const pair = pairWithin(
      runs.filter((r) => r.experimentKey === key),
      comparisonsOf(key),
    );
    if (pair) return pair;
  }
  return null;
}

/** A workload in words: "scenario disk-insert (rows_per_tx=10)", "a custom workload in [Sales]". */
export function workloadText(w: RunWorkload): string {
  if (w.scenarioId === 'custom') return w.custom ? `a custom workload in [${w.custom.database}]` : 'a custom workload';
  const params = Object.entries(w.parameters)
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([k, v]) => `${k}=${String(v)}`);
  return `scenario ${w.scenarioId}${params.length ? ` (${params.join(', ')})` : ''}`;
}

/** The first way two workloads differ, in words, or null when they do the same work (knobs aside). */
function difference(a: RunWorkload, b: RunWorkload): string | null {
  if (a.scenarioId !== b.scenarioId) return `A ran ${workloadText(a)}, B ${workloadText(b)}`;
  const keys = [...new Set([...Object.keys(a.parameters), ...Object.keys(b.parameters)])].sort();
  const changed = keys.filter((k) => String(a.parameters[k]) !== String(b.parameters[k]));
  if (changed.length)
    return `A and B ran ${a.scenarioId} with different settings (${changed
      .map((k) => `${k} ${String(a.parameters[k] ?? 'unset')} in A, ${String(b.parameters[k] ?? 'unset')} in B`)
      .join('; ')})`;
  if (a.mode !== b.mode) return `A ran in ${a.mode}, B in ${b.mode}`;
  if (a.custom && b.custom) {
    if (a.custom.database !== b.custom.database) return `A ran in [${a.custom.database}], B in [${b.custom.database}]`;
    if (JSON.stringify(a.custom.statements) !== JSON.stringify(b.custom.statements)) return 'A and B ran different statements';
  }
  return null;
}

/**
 * Why two runs are not comparable as faster or slower, or null when they are: runs of one experiment compare as it
 * planned (its arms differ on purpose); across experiments the workload must be the same (knobs may differ). Unknown
 * workloads are not called different.
 */
export function runsDiffer(
  a: { experimentKey: string; workload: RunWorkload | null },
  b: { experimentKey: string; workload: RunWorkload | null },
): string | null {
  if (a.experimentKey === b.experimentKey || !a.workload || !b.workload) return null;
  const d = difference(a.workload, b.workload);
  return d ? `${d}: this compares different workloads.` : null;
}

/** What follows a different-workloads note wherever a comparison is shown (the panel and the CLI say the same). */
export const NO_VERDICT = 'The figures are side by side, with no verdict: a different workload is neither faster nor slower.';
