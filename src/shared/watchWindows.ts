// Two windows of a watch, compared in the panel: the question the webview asks (panelRequests.ts watchCompare) (each window from the start, a mark or
// a time, to a mark, a time or now), the answer the host computes from samples.jsonl at full resolution (the same
// figures and sentences as `spinlab watch --compare`, shared/watchCompare.ts), and the rules that turn a window into
// the ticks it holds. Pure: no vscode, no DOM, no driver.
import { z } from 'zod';
import type { ComparedFigure } from './analysis';
import type { WatchMark } from './watch';

/** ms from the watch's start; a year bounds it. */
const ms = z
  .number()
  .finite()
  .min(0)
  .max(366 * 24 * 3600 * 1000);
const markId = z.string().min(1).max(64);

export const windowFromSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start') }),
  z.object({ kind: z.literal('mark'), id: markId }),
  z.object({ kind: z.literal('time'), t: ms }),
]);
export const windowToSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('now') }),
  z.object({ kind: z.literal('mark'), id: markId }),
  z.object({ kind: z.literal('time'), t: ms }),
]);
export const watchWindowSchema = z.object({ from: windowFromSchema, to: windowToSchema });
/** compare window A with window B of the watch `watchId` (the panel's current or last watch). */
export const watchCompareSchema = z.object({ watchId: z.string().min(1).max(200), a: watchWindowSchema, b: watchWindowSchema });

export type WindowFrom = z.infer<typeof windowFromSchema>;
export type WindowTo = z.infer<typeof windowToSchema>;
export type WatchWindow = z.infer<typeof watchWindowSchema>;
export type WatchCompareRequest = z.infer<typeof watchCompareSchema>;

/** A window as compared: what it was asked as, in words, and the ticks it held. */
export interface WindowSpan {
  label: string;
  /** 'from the start to "index rebuilt"' */
  described: string;
  /** The first tick's start and the last tick's end (ms from the watch's start). */
  fromT: number;
  toT: number;
  ticks: number;
  seconds: number;
}

export interface WatchWindowComparison {
  a: WindowSpan;
  b: WindowSpan;
  figures: ComparedFigure[];
  summary: string[];
}

/**
 * The ticks a window holds, by each tick's end time t: after `lo` and before `hi` (or at it when hiInclusive). The
 * tick a mark falls in holds some of each side, so it belongs to neither window that a mark bounds (as
 * windowsAroundMark does for the CLI).
 */
export interface TickRange {
  lo: number;
  hi: number;
  hiInclusive: boolean;
}

export function inRange(r: TickRange, t: number): boolean {
  return t > r.lo && (r.hiInclusive ? t <= r.hi : t < r.hi);
}

const secs = (t: number) => `${(t / 1000).toFixed(1)} s`;

function markOf(marks: readonly WatchMark[], id: string): WatchMark | null {
  return marks.find((m) => m.id === id) ?? null;
}

/** A window in words: 'from the start to "index rebuilt"', 'from 12.0 s to now'. */
export function describeWindow(w: WatchWindow, marks: readonly WatchMark[]): string {
  const end = (x: WindowFrom | WindowTo): string => {
    if (x.kind === 'start') return 'the start';
    if (x.kind === 'now') return 'now';
    if (x.kind === 'time') return secs(x.t);
    const m = markOf(marks, x.id);
    return m ? `"${m.name}" (${secs(m.t)})` : 'a mark';
  };
  return `from ${end(w.from)} to ${end(w.to)}`;
}

/** The range of ticks a window holds, or what is wrong with it (an unknown mark, an end before its start). */
export function resolveWindow(name: string, w: WatchWindow, marks: readonly WatchMark[]): { range: TickRange } | { error: string } {
  let lo = -Infinity;
  if (w.from.kind !== 'start') {
    const m = w.from.kind === 'mark' ? markOf(marks, w.from.id) : null;
    if (w.from.kind === 'mark' && !m) return { error: `${name} starts at a mark this watch does not have; pick one of its marks.` };
    // From a time: ticks that end after it (the tick under the time is the first one kept).
    lo = m ? m.t : (w.from as { t: number }).t;
  }
  let hi = Infinity;
  let hiInclusive = true;
  if (w.to.kind !== 'now') {
    const m = w.to.kind === 'mark' ? markOf(marks, w.to.id) : null;
    if (w.to.kind === 'mark' && !m) return { error: `${name} ends at a mark this watch does not have; pick one of its marks.` };
    hi = m ? m.t : (w.to as { t: number }).t;
    hiInclusive = !m;
  }
  if (hi <= lo)
    return {
      error: `${name} ends (${Number.isFinite(hi) ? secs(hi) : 'now'}) before it starts (${secs(lo)}): pick an end after its start.`,
    };
  return { range: { lo, hi, hiInclusive } };
}
