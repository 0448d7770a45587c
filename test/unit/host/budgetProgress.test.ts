// A search bounded by time (a tune) as the host says its progress: trials counted against the budget used, never
// "run 4 of 30" (the search decides how many trials the budget holds, and stops when it is spent).
import assert from 'node:assert/strict';
import { applyProgress, startingView } from '../../../src/host/activeExperimentView';
import type { ExperimentProgress } from '../../../src/engine/experiment';

describe('a budgeted search in the host progress', () => {
  it('says "trial N · used of budget" at each trial start, and the progress bar moves with the time used', () => {
    const view = startingView('tune-1', 'Find the best settings', 'disk-insert', true);
    const reports: { message?: string; increment?: number }[] = [];
    let now = 1_000_000;
    const counting = { budgetMs: 600_000, startedMs: now, now: () => now };
    const sinks = {
      post: () => undefined,
      changed: () => undefined,
      report: (r: { message?: string; increment?: number }) => reports.push(r),
    };
    now += 190_000;
    const start = { kind: 'run-start', run: 3, threads: 8, arm: { id: 'c1', label: "log writer's node" } } as ExperimentProgress;
    applyProgress(view, start, counting, sinks);
    assert.equal(view.message, "trial 4: log writer's node, 8 threads · 3m 10s of 10m budget used");
    assert.doesNotMatch(view.message, /\bof \d+\b(?! *m)/, 'no run count');
    const bar = reports.reduce((n, r) => n + (r.increment ?? 0), 0);
    assert.ok(Math.abs(bar - (100 * 190) / 600) < 1e-9, `the bar at the share of the budget used (${bar})`);
  });

  it('a counted experiment still says "run N of M"', () => {
    const view = startingView('exp-1', 'sweep', 'disk-insert', true);
    const sinks = { post: () => undefined, changed: () => undefined, report: () => undefined };
    applyProgress(view, { kind: 'run-start', run: 1, threads: 4 } as ExperimentProgress, 9, sinks);
    assert.equal(view.message, 'run 2 of 9: 4 threads');
  });
});
