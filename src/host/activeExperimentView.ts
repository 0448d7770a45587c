// The running experiment as the panel shows it: engine progress folded into ActiveExperimentView (every tick kept,
// so a reloaded webview redraws everything) and forwarded to the webview as runStart / runTick / runEnd messages.
import type { ExperimentProgress } from '../engine/experiment';
import type { ActiveExperimentView, ToWebviewMessage } from '../shared/protocol';
import { ToWebview, message } from '../shared/protocol';
import type { ProgressReport } from './ports';
import { budgetUsedText } from '../shared/tuneText';

export interface ActiveRunSinks {
  post(m: ToWebviewMessage): void;
  /** The snapshot changed in a way the webview shows (status line, events). */
  changed(): void;
  report: ProgressReport;
}

export function startingView(experimentId: string, title: string, scenarioId: string, simulated: boolean): ActiveExperimentView {
  return { experimentId, title, scenarioId, simulated, status: 'starting', message: 'starting', runs: [], events: [] };
}

/**
 * How an experiment counts its progress: the runs it plans, or (a tune) the time budget it stops within, whose trial
 * count the search decides as it goes and so is never said. `reportedMs`: the budget the progress bar shows so far.
 */
export type RunCounting = number | { budgetMs: number; startedMs: number; now?: () => number; reportedMs?: number };

/** The budget used so far, and the progress bar's step up to it. */
function budgetStep(c: Exclude<RunCounting, number>): { usedMs: number; increment: number } {
  const usedMs = Math.max(0, (c.now ?? Date.now)() - c.startedMs);
  const shown = Math.min(usedMs, c.budgetMs);
  const increment = (100 * (shown - (c.reportedMs ?? 0))) / c.budgetMs;
  c.reportedMs = shown;
  return { usedMs, increment };
}

/** Applies one progress event to `view` and tells the webview. */
export function applyProgress(view: ActiveExperimentView, p: ExperimentProgress, counting: RunCounting, sinks: ActiveRunSinks): void {
  const id = view.experimentId ?? '';
  const runCount = typeof counting === 'number' ? counting : null;
  const budget = typeof counting === 'number' ? null : counting;
  switch (p.kind) {
    case 'status':
      view.message = p.message;
      sinks.report({ message: p.message });
      sinks.changed();
      return;
    case 'run-start': {
      if (view.status === 'starting') view.status = 'running';
      view.runs = view.runs.filter((r) => r.index !== p.run);
      const repetition = p.repetition;
      const rep = repetition !== undefined ? { repetition } : {};
      view.runs.push({
        index: p.run,
        threads: p.threads,
        status: 'running',
        ticks: [],
        ...(p.arm ? { arm: { id: p.arm.id, label: p.arm.label } } : {}),
        ...rep,
      });
      const arm = p.arm && view.preset ? ` (${p.arm.label})` : '';
      const repWords = repetition !== undefined ? `, repetition ${repetition}` : '';
      const threads = `${p.threads} thread${p.threads === 1 ? '' : 's'}`;
      if (!budget) {
        view.message = `run ${p.run + 1} of ${runCount}: ${threads}${arm}${repWords}`;
        sinks.report({ message: view.message });
      } else {
        const step = budgetStep(budget);
        view.message = `trial ${p.run + 1}: ${p.arm ? `${p.arm.label}, ` : ''}${threads} · ${budgetUsedText(step.usedMs, budget.budgetMs)}`;
        sinks.report({ message: view.message, ...(step.increment > 0 ? { increment: step.increment } : {}) });
      }
      sinks.post(
        message(ToWebview.runStart, {
          experimentId: id,
          index: p.run,
          threads: p.threads,
          ...(p.arm ? { arm: { id: p.arm.id, label: p.arm.label } } : {}),
          ...rep,
        }),
      );
      sinks.changed(); // the status moved to running: the snapshot must say so (a one-point run has no later event)
      return;
    }
    case 'tick': {
      const run = view.runs.find((r) => r.index === p.run);
      if (run) run.ticks.push(p.tick);
      sinks.post(message(ToWebview.runTick, { experimentId: id, index: p.run, tick: p.tick }));
      return;
    }
    case 'run-end': {
      let run = view.runs.find((r) => r.index === p.record.index);
      if (!run) {
        run = { index: p.record.index, threads: p.record.threads, status: p.record.status, ticks: [] };
        view.runs.push(run);
      }
      run.status = p.record.status;
      run.ticks = [...p.record.timeline];
      run.arm = { id: p.record.arm.id, label: p.record.arm.label };
      if (p.record.repetition !== undefined) run.repetition = p.record.repetition;
      run.derived = p.record.derived;
      run.share = p.record.share ?? null;
      if (!budget) sinks.report({ increment: 100 / Math.max(1, runCount ?? 1) });
      else {
        const step = budgetStep(budget);
        if (step.increment > 0) sinks.report({ increment: step.increment });
      }
      sinks.post(message(ToWebview.runEnd, { experimentId: id, record: p.record }));
      return;
    }
    case 'event':
      view.events.push(p.event);
      sinks.changed();
      return;
  }
}
