// A run that ends on a row count ends when its slowest session has written its share: the others are idle by then,
// so the run's rate (rows over the whole measured time) is lower than the rate while every session was working. Both
// are reported, with the definition of each, so a tail of unevenly finishing sessions is never unremarked.
import type { SessionSpread } from './experiment';
import { figureText } from './numberText';

/**
 * From each session that finished its share (its rows, and when it finished after the phase began): when the first
 * and the last finished, and the rate while all of them ran, taken as each session's rows over its own time, summed
 * (at a steady pace, the rows per second written up to the first session's finish). Null for fewer than two sessions.
 */
export function sessionSpread(finished: readonly { rows: number; endedMs: number }[]): SessionSpread | null {
  const done = finished.filter((s) => s.endedMs > 0);
  if (done.length < 2) return null;
  const ends = done.map((s) => s.endedMs);
  return {
    sessions: done.length,
    firstEndedMs: Math.min(...ends),
    lastEndedMs: Math.max(...ends),
    allRunningRowsPerSec: done.reduce((sum, s) => sum + s.rows / (s.endedMs / 1000), 0),
  };
}

/** The time between the first and the last session's finish: milliseconds below a second (a 30 ms tail is not "0.0 s"). */
export function tailText(s: Pick<SessionSpread, 'firstEndedMs' | 'lastEndedMs'>): string {
  const ms = s.lastEndedMs - s.firstEndedMs;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The sentence under a run's figures: the tail, the rate over the full time and the rate while all sessions ran. */
export function describeSpread(s: SessionSpread, rowsPerSec: number, unit = 'rows'): string {
  return (
    `the last of ${s.sessions} sessions finished ${tailText(s)} after the first; ${unit}/s over the full time ${figureText(rowsPerSec)}, ` +
    `while all sessions ran ${figureText(s.allRunningRowsPerSec)} (each session's ${unit} over its own time, summed)`
  );
}
