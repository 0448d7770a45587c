// The analysis views of the experiment the panel shows (the live one, or one opened from the history), as data the
// views draw: A/B comparisons between arms at each thread count over their repetitions (shared/repeats: every figure
// with its interval, the verdict in words), the scaling curves of the arms overlaid, "doing the math" per run
// (shared/cycleMath) and the WRITELOG diagnosis (shared/writelogDiagnosis). Pure: no DOM.
import { armsInOrder, compareArms, overlayScaling, type ArmRun, type ScalingOverlay } from '../../shared/armAnalysis';
import { compareArmCells, type CellComparison, type CellRun } from '../../shared/repeats';
import { coresFor, cycleMath, runCycleMath, type CycleMath, type SpinCycles } from '../../shared/cycleMath';
import type { LatencySummary, RunDerived, RunSteady, RunTotals, Tick } from '../../shared/experiment';
import type { ArmRef, PresetAnalysisInfo } from '../../shared/protocol';
import { diagnoseWritelog, type WritelogDiagnosis } from '../../shared/writelogDiagnosis';
import type { OwnShare } from '../../shared/ownShare';
import { offersWritelogDiagnosis, ownedServer } from '../../shared/customHeadline';
import type { WaitDelta } from '../../shared/experiment';

export interface ShownRun {
  index: number;
  threads: number;
  status: string;
  arm: ArmRef;
  totals: RunTotals;
  timeline: readonly Tick[];
  /** Present once the run ended (the clock rate and CPUs used come with it). */
  derived: RunDerived | null;
  latency?: LatencySummary | null;
  /** From the record once the run ended: its exact rows, and whether tx/s applies (runFigures reads both). */
  rows?: number;
  nativeProcedures?: boolean;
  /** Which repetition of its arm at its thread count (absent: the only one, or not said yet). */
  repetition?: number;
  /** The workload's own share of the server's work, once the run ended (shared/ownShare.ts). */
  share?: OwnShare | null;
  /** The waits of the workload's own sessions over the measured phase, once the run ended (null: not read). */
  sessionWaits?: Record<string, WaitDelta> | null;
  /** Where its steady state began, once the run ended (absent in older records). */
  steady?: RunSteady;
  /** The A/B block it ran in (planOrder.ts), once the run ended: the pairs of a paired comparison share one. */
  block?: number;
}

export interface ShownExperiment {
  key: string;
  title: string;
  preset: PresetAnalysisInfo | null;
  /** A custom workload: its diagnoses are of its own sessions' work (shared/customHeadline.ts). */
  custom?: boolean;
  majorVersion: number | null;
  /** Hyperthreads per core of the server (the post counts physical cores); 1 when unknown. */
  threadsPerCore: number;
  runs: ShownRun[];
}

/**
 * The shown runs as the shared analysis reads them (an ArmRun, and a CellRun with its index and repetition), with
 * their ticks and steady window: the noise and outlier rules read them, as they do in the CLI and the notebook.
 */
export function armRuns(e: ShownExperiment): (ArmRun & CellRun & Pick<ShownRun, 'timeline' | 'steady' | 'block'>)[] {
  return e.runs.map((r) => ({
    // A getter: a live run's hours of ticks are decoded only if a rule reads them (runTicks.ts).
    get timeline() {
      return r.timeline;
    },
    ...(r.steady ? { steady: r.steady } : {}),
    ...(r.block !== undefined ? { block: r.block } : {}),
    index: r.index,
    ...(r.repetition !== undefined ? { repetition: r.repetition } : {}),
    threads: r.threads,
    status: r.status,
    totals: r.totals,
    latency: r.latency ?? null,
    arm: r.arm,
    ...(r.derived ? { derived: r.derived } : {}),
    rows: r.rows,
    nativeProcedures: r.nativeProcedures,
    share: r.share ?? null,
  }));
}

/** The arms in the order they ran (or as the preset planned them). */
export function armsOf(e: ShownExperiment): ArmRef[] {
  const out: ArmRef[] = armsInOrder(e.runs);
  for (const a of e.preset?.arms ?? []) if (!out.some((x) => x.id === a.id)) out.push(a);
  return out;
}

export interface AbAt {
  threads: number;
  /** Every figure of A and B over their repetitions, B/A with its interval, the verdict on throughput. */
  comparison: CellComparison;
  /**
   * The verdict first; then the figures whose interval leaves out no change or, for a pair of single runs, the point
   * comparison's sentences (no interval: the verdict says noise alone can do it).
   */
  summary: string[];
}

export interface AbView {
  label: string;
  a: ArmRef;
  b: ArmRef;
  /** Fewest threads first; empty until both arms completed a run at the same thread count. */
  at: AbAt[];
  /** The timelines of both arms at the largest thread count both ran (the throughput chart). */
  timelines: { a: readonly Tick[]; b: readonly Tick[]; threads: number } | null;
}

/** The preset's comparisons (or, for an experiment of several arms without one, each arm against the next). */
export function abViews(e: ShownExperiment): AbView[] {
  const arms = armsOf(e);
  const find = (id: string): ArmRef => arms.find((a) => a.id === id) ?? { id, label: id };
  let pairs = (e.preset?.comparisons ?? []).map((c) => ({ a: c.a, b: c.b, label: c.label }));
  if (!pairs.length)
    pairs = arms.slice(1).map((b, i) => ({ a: arms[i].id, b: b.id, label: `${arms[i].label} (A) against ${b.label} (B)` }));
  const runs = armRuns(e);
  return pairs.map((p) => {
    const point = new Map(compareArms(runs, p.a, p.b).map((x) => [x.threads, x.summary] as const));
    const at = compareArmCells(runs, p.a, p.b).map((c): AbAt => {
      const tp = c.figures[0];
      const single = tp.a.n <= 1 && tp.b.n <= 1;
      return { threads: c.threads, comparison: c, summary: single ? [c.verdict.text, ...(point.get(c.threads) ?? [])] : c.summary };
    });
    const last = at[at.length - 1];
    // The chart shows the last completed repetition of each arm at that thread count.
    const tl = (arm: string, threads: number) =>
      [...e.runs].reverse().find((r) => r.arm.id === arm && r.threads === threads && r.status === 'completed')?.timeline ?? [];
    return {
      label: p.label,
      a: find(p.a),
      b: find(p.b),
      at,
      timelines: last ? { a: tl(p.a, last.threads), b: tl(p.b, last.threads), threads: last.threads } : null,
    };
  });
}

/** One scaling curve per arm on a shared thread axis, with wait ms per row; null for a single arm. */
export function armScaling(e: ShownExperiment): ScalingOverlay | null {
  const arms = armsOf(e);
  if (arms.length < 2) return null;
  return overlayScaling(e.key, arms, armRuns(e));
}

export interface MathRow {
  run: ShownRun;
  math: CycleMath;
  /** The same on physical cores, as the post counts them (hyperthreaded servers only). */
  cores: CycleMath | null;
  /** The top spinlocks by spins, plus the watched ones that spun. */
  spinlocks: SpinCycles[];
}

/**
 * "Doing the math" for each completed run that has its derived figures; for a custom workload only the runs that
 * owned the server (the server's cycles divided by its calls would count the others' work), as the CLI does.
 */
export function mathRows(e: ShownExperiment, top = 3): MathRow[] {
  const watch = new Set(e.preset?.watch ?? []);
  return e.runs
    .filter((r) => r.status === 'completed' && r.derived && (!e.custom || ownedServer(r.share)))
    .map((r) => {
      const d = r.derived as RunDerived;
      const spins = Object.fromEntries(Object.entries(r.totals.spinlocks).map(([k, s]) => [k, s.spins]));
      const math = runCycleMath(d, spins, r.totals.rows);
      const cores =
        e.threadsPerCore > 1
          ? cycleMath({ ...math.inputs, cpus: coresFor(d.cpusUsed, e.threadsPerCore), cpuBasis: 'physical cores' })
          : null;
      const spinlocks = math.perSpinlock.filter((s, i) => i < top || watch.has(s.name));
      return { run: r, math, cores, spinlocks };
    });
}

/**
 * Shown for the writelog preset, or whenever a run waited on WRITELOG; for a custom workload only when its own sessions
 * waited on WRITELOG or it owned the server (a read-only query beside writers is not diagnosed for their commits).
 */
export function showsWritelog(e: ShownExperiment): boolean {
  if (e.custom) return e.runs.some((r) => offersWritelogDiagnosis(r));
  return e.preset?.id === 'writelog' || e.runs.some((r) => (r.totals.waits.WRITELOG?.waitMs ?? 0) > 0);
}

/** A custom workload whose server waited on WRITELOG that none of its runs is diagnosed for: said, not diagnosed. */
export function writelogOthers(e: ShownExperiment): boolean {
  return !!e.custom && !showsWritelog(e) && e.runs.some((r) => (r.totals.waits.WRITELOG?.waitMs ?? 0) > 0);
}

export interface WritelogRow {
  run: ShownRun;
  diagnosis: WritelogDiagnosis;
}

export function writelogRows(e: ShownExperiment): WritelogRow[] {
  return e.runs
    .filter((r) => r.status === 'completed' && r.totals.rows > 0 && (!e.custom || offersWritelogDiagnosis(r)))
    .map((r) => ({
      run: r,
      diagnosis: diagnoseWritelog({ totals: r.totals, timeline: r.timeline, majorVersion: e.majorVersion, share: r.share }),
    }));
}

/** A run as the views name it: 'arm label, 8 threads, repetition 2' (the repetition only when the experiment repeats). */
export function runLabel(r: ShownRun, e: ShownExperiment): string {
  const arm = armsOf(e).length > 1 || e.preset ? `${r.arm.label}, ` : '';
  const repeated = e.runs.some((x) => (x.repetition ?? 1) > 1);
  const rep = repeated && r.repetition !== undefined ? `, repetition ${r.repetition}` : '';
  return `${arm}${r.threads} thread${r.threads === 1 ? '' : 's'}${rep}`;
}

/** A change in percent as the tables print it. */
export function pctText(v: number | null): string {
  return v === null ? '–' : `${v > 0 ? '+' : ''}${v.toFixed(1)}%`;
}
