// The Watch mode's "Compare two windows" form: window A and window B, each from the start, a mark or a time (seconds
// from the watch's start, as typed) to a mark, a time or now; a drag on the timeline fills one window's times. Checked
// as typed; the host computes the comparison from samples.jsonl and answers the watchCompare request.
import type { WatchMark } from '../../shared/watch';
import type { WatchCompareRequest, WatchWindow, WatchWindowComparison, WindowFrom, WindowTo } from '../../shared/watchWindows';
import { resolveWindow } from '../../shared/watchWindows';
import { ParamError, parseDuration } from '../../shared/params';

export interface WindowDraft {
  fromKind: 'start' | 'mark' | 'time';
  fromMark: string;
  /** Seconds from the watch's start as typed ('12.5', or with a unit: '90s', '2m'). */
  fromTime: string;
  toKind: 'now' | 'mark' | 'time';
  toMark: string;
  toTime: string;
}

export type WindowKey = 'a' | 'b';

/** The host's answer for a watch: the comparison, or why the windows cannot be compared. */
export interface WatchCompareAnswer {
  watchId: string;
  result: WatchWindowComparison | null;
  error: string | null;
}

const blank = (): WindowDraft => ({ fromKind: 'start', fromMark: '', fromTime: '', toKind: 'now', toMark: '', toTime: '' });

/** Seconds as typed -> ms, or the problem in words. */
export function parseSeconds(text: string): number | string {
  const t = text.trim();
  if (t === '') return "Type a time in seconds from the watch's start, e.g. 12.5 or 2m.";
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  try {
    return parseDuration(t, { allowZero: true });
  } catch (e) {
    return `Seconds from the start, or a duration: ${e instanceof ParamError ? e.problems.join('; ') : (e as Error).message}`;
  }
}

const fmt = (ms: number) => (ms / 1000).toFixed(1);

export class WatchCompareModel {
  watchId: string | null = null;
  a: WindowDraft = blank();
  b: WindowDraft = blank();
  /** Which window a drag on the timeline sets. */
  brushTarget: WindowKey = 'a';
  /** The last answer for this watch, and whether a question is out. */
  answer: WatchCompareAnswer | null = null;
  pending = false;
  /** A drag on the timeline in progress (ms from the start). */
  drag: { x0: number; x1: number } | null = null;
  private touched = false;

  /** A new watch resets the form; until the user edits it, the first mark splits the watch into before and after. */
  sync(watchId: string, marks: readonly WatchMark[]): void {
    if (watchId !== this.watchId) {
      this.watchId = watchId;
      this.a = blank();
      this.b = blank();
      this.answer = null;
      this.pending = false;
      this.touched = false;
    }
    if (!this.touched && marks.length && this.a.toKind === 'now') {
      const m = [...marks].sort((x, y) => x.t - y.t)[0];
      this.a = { ...blank(), toKind: 'mark', toMark: m.id };
      this.b = { ...blank(), fromKind: 'mark', fromMark: m.id };
    }
  }

  edit(which: WindowKey, patch: Partial<WindowDraft>): void {
    this.touched = true;
    this[which] = { ...this[which], ...patch };
  }

  /** A range picked on the timeline (ms from the start, either order) becomes the target window's times. */
  setRange(which: WindowKey, x: number, y: number): void {
    const [lo, hi] = x <= y ? [x, y] : [y, x];
    this.edit(which, { fromKind: 'time', fromTime: fmt(Math.max(0, lo)), toKind: 'time', toTime: fmt(hi) });
  }

  /** The window as sent, or the problem of each end (keyed 'from' / 'to'), or of the whole ('range'). */
  window(which: WindowKey, marks: readonly WatchMark[]): { window: WatchWindow | null; errors: Record<string, string> } {
    const d = this[which];
    const errors: Record<string, string> = {};
    const hasMark = (id: string) => marks.some((m) => m.id === id);
    let from: WindowFrom | null = { kind: 'start' };
    if (d.fromKind === 'mark') {
      from = hasMark(d.fromMark) ? { kind: 'mark', id: d.fromMark } : null;
      if (!from)
        errors.from = marks.length ? 'Pick the mark the window starts at.' : 'This watch has no mark yet: drop one, or start at a time.';
    } else if (d.fromKind === 'time') {
      const t = parseSeconds(d.fromTime);
      from = typeof t === 'number' ? { kind: 'time', t } : null;
      if (typeof t === 'string') errors.from = t;
    }
    let to: WindowTo | null = { kind: 'now' };
    if (d.toKind === 'mark') {
      to = hasMark(d.toMark) ? { kind: 'mark', id: d.toMark } : null;
      if (!to)
        errors.to = marks.length ? 'Pick the mark the window ends at.' : 'This watch has no mark yet: drop one, or end at a time or now.';
    } else if (d.toKind === 'time') {
      const t = parseSeconds(d.toTime);
      to = typeof t === 'number' ? { kind: 'time', t } : null;
      if (typeof t === 'string') errors.to = t;
    }
    if (!from || !to) return { window: null, errors };
    const w: WatchWindow = { from, to };
    const r = resolveWindow(which === 'a' ? 'Window A' : 'Window B', w, marks);
    if ('error' in r) return { window: null, errors: { range: r.error } };
    return { window: w, errors };
  }

  /** The request for both windows, or null with every problem. */
  request(marks: readonly WatchMark[]): { request: WatchCompareRequest | null; errors: Record<WindowKey, Record<string, string>> } {
    const a = this.window('a', marks);
    const b = this.window('b', marks);
    const request = this.watchId && a.window && b.window ? { watchId: this.watchId, a: a.window, b: b.window } : null;
    return { request, errors: { a: a.errors, b: b.errors } };
  }

  /** The answer to the newest question (older ones never arrive here); false when it is for another watch. */
  received(p: WatchCompareAnswer): boolean {
    if (p.watchId !== this.watchId) return false;
    this.answer = p;
    this.pending = false;
    return true;
  }
}
