// The notebook's summary, generated from the numbers: a preset's arm comparisons, the scaling of a sweep, the
// original against each re-run, the noise, how evenly sessions shared the work, and the experiments' warnings and
// errors. Repeated runs are read as cells (shared/repeats): every verdict quotes its 95% interval. Apart from
// write.ts, which orders the cells, because it is analysis rather than layout.
import type { Experiment } from '../../shared/experiment';
import { compareRuns, runFigures, scalingCurve, summarizeScaling, formatNumber } from '../../shared/analysis';
import { describeSpread } from '../../shared/sessionSpread';
import { compareArms } from '../../shared/armAnalysis';
import {
  armCells,
  cellsOf,
  compareArmCells,
  compareCells,
  estimateText,
  isRepeated,
  methodText,
  noiseWarnings,
  oneRunPerCell,
} from '../../shared/repeats';
import { getScenarioUnit } from './tables';
import { confirmVerdict, isConfirmation } from '../tuneConfirm';
import { plural } from '../../shared/plural';

/** A comparison's verdict and figures at the most threads both arms ran: from the cells when repeated, else the runs. */
function armSummary(e: Experiment, a: string, b: string): { threads: number; lines: string[] } | null {
  if (isRepeated(e.runs)) {
    const last = compareArmCells(e.runs, a, b).pop();
    return last ? { threads: last.threads, lines: last.summary } : null;
  }
  const last = compareArms(e.runs, a, b).pop();
  return last ? { threads: last.threads, lines: last.summary } : null;
}

/** A sweep of repeated runs: each thread count's throughput with its interval. */
function repeatedSweep(e: Experiment): string[] {
  const unit = getScenarioUnit(e);
  return armCells(e.runs).flatMap((a) =>
    a.points.map(
      (p) =>
        `${a.id !== 'main' ? `${a.label}, ` : ''}${plural(p.threads, 'thread')}: ${estimateText(p.rowsPerSec)} ${unit}/s (${methodText(p.rowsPerSec)}).`,
    ),
  );
}

/** The summary: what changed between runs (and between the original and each re-run), from the numbers. */
export function summaryLines(experiments: readonly Experiment[]): string[] {
  const out: string[] = [];
  const [first, ...reruns] = experiments;
  if (!first) return out;
  if (experiments.some((e) => e.simulated))
    out.push('These numbers come from the Spinlock Lab simulator: they show the direction of an effect, not a measurement.');
  if (first.tune?.result) out.push(first.tune.result.verdict, first.tune.result.certainty);
  const done = (e: Experiment) => e.runs.filter((r) => r.status === 'completed' && r.rows > 0);
  const runs = done(first);
  for (const e of experiments) {
    for (const c of e.preset?.comparisons ?? []) {
      const last = armSummary(e, c.a, c.b);
      if (last)
        out.push(
          ...last.lines
            .slice(0, 3)
            .map((x) => `${c.label}, ${plural(last.threads, 'thread')}${experiments.length > 1 ? ` (${e.server.serverName})` : ''}: ${x}`),
        );
    }
  }
  if (first.preset || first.tune) {
    // A preset's runs are arms, not a sweep of one setting: its comparisons above say what changed. A tune's
    // leaderboard and verdict (above, and in its Search section) say it for its configurations.
  } else if (isRepeated(first.runs)) {
    out.push(...repeatedSweep(first));
  } else if (runs.length >= 2) {
    const curve = scalingCurve(first);
    out.push(summarizeScaling(curve));
    const c = compareRuns(runFigures(runs[0]), runFigures(runs[runs.length - 1]), 3);
    out.push(...c.summary.map((s) => `Run ${runs[0].index + 1} (A) against run ${runs[runs.length - 1].index + 1} (B): ${s}`));
  } else if (runs.length === 1) {
    out.push(`One completed run: ${formatNumber(runFigures(runs[0]).rowsPerSec)} rows/s at ${runs[0].threads} threads.`);
  } else {
    out.push('No run completed with rows, so there is nothing to compare.');
  }
  for (const e of reruns) {
    if (isConfirmation(e)) {
      out.push(...confirmVerdict(e).map((l) => `${l.trim()}${experiments.length > 2 ? ` (${e.server.serverName})` : ''}`));
      continue;
    }
    if (isRepeated(first.runs) || isRepeated(e.runs)) {
      out.push(...rerunCells(first, e));
      continue;
    }
    for (const r of done(e)) {
      const original = runs.find((o) => o.threads === r.threads && o.arm?.id === r.arm?.id);
      if (!original) continue;
      const c = compareRuns(runFigures(original), runFigures(r), 3);
      const where = r.arm && r.arm.id !== 'main' ? `${r.arm.label}, ` : '';
      out.push(
        ...c.summary
          .slice(0, 3)
          .map((s) => `${where}${plural(r.threads, 'thread')}, original (A) against the re-run on ${e.server.serverName} (B): ${s}`),
      );
    }
  }
  for (const e of experiments) {
    if (isRepeated(e.runs))
      out.push(
        ...noiseWarnings(
          cellsOf(e.runs),
          e.runs.filter((r) => r.status === 'completed'),
        ).map((w) => `Noise${experiments.length > 1 ? ` (${e.server.serverName})` : ''}: ${w}`),
      );
    else if (done(e).length) out.push(oneRunPerCell(new Set(e.runs.map((r) => r.arm.id)).size > 1));
  }
  for (const e of experiments) {
    for (const r of e.runs)
      if (r.sessionSpread)
        out.push(
          `Run ${r.index + 1} (${plural(r.threads, 'thread')}): ${describeSpread(r.sessionSpread, runFigures(r).rowsPerSec, getScenarioUnit(e))}.`,
        );
  }
  for (const e of experiments) {
    for (const ev of e.events.filter((x) => x.level !== 'info'))
      out.push(`${ev.level === 'error' ? 'Error' : 'Note'} (${e.server.serverName}): ${ev.message}`);
  }
  return out;
}

/** The original's cells against a re-run's, arm by arm and thread count by thread count, in verdicts with intervals. */
function rerunCells(first: Experiment, e: Experiment): string[] {
  const out: string[] = [];
  const original = cellsOf(first.runs);
  for (const c of cellsOf(e.runs)) {
    const o = original.find((x) => x.armId === c.armId && x.threads === c.threads);
    if (!o) continue;
    const where = c.armId !== 'main' ? `${c.armLabel}, ` : '';
    const cmp = compareCells(o, c, 'the re-run', { separate: true });
    out.push(
      ...cmp.summary
        .slice(0, 3)
        .map((s) => `${where}${plural(c.threads, 'thread')}, original (A) against the re-run on ${e.server.serverName} (B): ${s}`),
    );
  }
  return out;
}
