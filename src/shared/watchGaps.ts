// A watch's gaps and time in words, the same for the CLI, the panel and the notebook: "watched 60.0 s; 18.5 s lost in
// 1 gap: connection lost 12:00:03-12:00:21 UTC, reconnected". Pure: no vscode, no DOM, no driver.
import type { WatchCoverage, WatchGap, WatchGapReason } from './watch';

const WHAT: Record<WatchGapReason, string> = {
  'connection-lost': 'connection lost',
  'failed-ticks': 'ticks failed',
  'server-restart': 'SQL Server restarted',
  'counter-reset': 'counters reset',
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** hh:mm:ss of an ISO time, in UTC (a notebook is read in other time zones). */
const clock = (iso: string) => (Number.isNaN(Date.parse(iso)) ? '?' : new Date(iso).toISOString().slice(11, 19));

/** One gap: "connection lost 12:00:03-12:00:21 UTC (18.5 s, 6 failed ticks), reconnected". */
export function describeGap(g: WatchGap): string {
  const extra = [
    seconds(g.toT - g.fromT),
    ...(g.failedTicks ? [`${g.failedTicks} failed tick${g.failedTicks === 1 ? '' : 's'}`] : []),
  ].join(', ');
  const after = !g.recovered
    ? 'not back when the watch ended'
    : g.reason === 'server-restart' || g.reason === 'counter-reset'
      ? 'counters taken again from the new values'
      : 'reconnected';
  return `${WHAT[g.reason]} ${clock(g.from)}-${clock(g.to)} UTC (${extra}), ${after}`;
}

/** The time lost in gaps (ms). */
export function lostMs(gaps: readonly WatchGap[]): number {
  return gaps.reduce((a, g) => a + Math.max(0, g.toT - g.fromT), 0);
}

/**
 * The watch's time in one line: "watched 60.0 s; 18.5 s lost in 1 gap: connection lost ..., reconnected; rates are
 * per second of the 41.2 s the ticks cover".
 */
export function describeCoverage(c: WatchCoverage, gaps: readonly WatchGap[]): string {
  const lost =
    gaps.length === 0
      ? 'no gap'
      : `${seconds(c.lostMs)} lost in ${gaps.length} gap${gaps.length === 1 ? '' : 's'}: ${gaps.map(describeGap).join('; ')}`;
  return `watched ${seconds(c.watchedMs)}; ${lost}; rates are per second of the ${seconds(c.coveredMs)} the ticks cover`;
}
