// A finished run's steady window (shared/repeats/steady.ts), as runOne takes its figures from it: the ticks after the
// fixed warm-up that were still settling stay in the timeline and leave the figures, and the run's events say so.
// Latency and client cost stay over the whole measured phase: one histogram, one pair of CPU readings.
import type { ExperimentEvent, RunSteady, Tick } from '../shared/experiment';
import { steadyText, steadyWindow } from '../shared/repeats/steady';

/** The steady window of a completed run (null and every tick for any other), with its note said. */
export function steadyRun(
  timeline: readonly Tick[],
  warmupMs: number,
  completed: boolean,
  note: (level: ExperimentEvent['level'], message: string) => void,
): { steady: RunSteady | null; window: readonly Tick[] } {
  if (!completed) return { steady: null, window: timeline };
  const steady = steadyWindow(timeline, warmupMs);
  if (steady.droppedTicks > 0)
    note(steady.capped ? 'warning' : 'info', `${steadyText(steady)}: its figures are over the ticks after them.`);
  return { steady, window: timeline.slice(steady.fromTick) };
}
