// The span a run's own session waits cover (sys.dm_exec_session_wait_stats read just before and after the measured
// phase) against the span of its figures (the steady window: the ticks still settling after the warm-up left out).
// Compared over different spans, the own waits of a run that settled late read larger than the server-wide waits they
// are part of; so they are compared with the server-wide waits over their own span: the figures' plus the settling ticks'.
import type { RunRecord, WaitDelta } from './experiment';

export function serverWaitsOverOwnSpan(r: Pick<RunRecord, 'totals' | 'timeline' | 'steady'>): {
  waits: Record<string, WaitDelta>;
  elapsedMs: number;
} {
  const waits: Record<string, WaitDelta> = {};
  const add = (from: Record<string, WaitDelta>) => {
    for (const [type, w] of Object.entries(from)) {
      const t = (waits[type] ??= { waitMs: 0, count: 0, signalMs: 0 });
      t.waitMs += w.waitMs;
      t.count += w.count;
      t.signalMs += w.signalMs;
    }
  };
  add(r.totals.waits);
  let elapsedMs = r.totals.elapsedMs;
  for (const t of r.timeline.slice(0, r.steady?.fromTick ?? 0)) {
    add(t.waits);
    elapsedMs += t.intervalMs;
  }
  return { waits, elapsedMs };
}
