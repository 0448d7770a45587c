// Two windows of a saved (or running) watch compared from its samples.jsonl at full resolution: the file is streamed
// once and each window's figures are summed tick by tick, so an 8-hour watch is never held in memory. The figures and
// sentences are the CLI's (`spinlab watch --compare`, shared/watchCompare.ts).
import { compareWindows, WindowAccumulator, type WindowFigures } from '../../shared/watchCompare';
import type { WatchMark } from '../../shared/watch';
import {
  describeWindow,
  inRange,
  resolveWindow,
  type TickRange,
  type WatchWindow,
  type WatchWindowComparison,
  type WindowSpan,
} from '../../shared/watchWindows';
import { forEachTick, readWatchRecord } from './read';
import { SpinlabError } from '../../shared/spinlabError';

export class WatchWindowError extends SpinlabError {
  constructor(message: string) {
    super('user-input', message);
  }
}

function span(label: string, f: WindowFigures, described: string): WindowSpan {
  return { label, described, fromT: f.fromT, toT: f.toT, ticks: f.ticks, seconds: f.seconds };
}

/**
 * Window A against window B of the watch in `dir`. `marks` are the marks the windows may name (the panel's list,
 * which for a running watch is newer than experiment.json's).
 */
export async function compareWatchWindows(
  dir: string,
  windows: { a: WatchWindow; b: WatchWindow },
  marks: readonly WatchMark[],
): Promise<WatchWindowComparison> {
  const ranges: TickRange[] = [];
  for (const [name, w] of [
    ['Window A', windows.a],
    ['Window B', windows.b],
  ] as const) {
    const r = resolveWindow(name, w, marks);
    if ('error' in r) throw new WatchWindowError(r.error);
    ranges.push(r.range);
  }
  const { record } = readWatchRecord(dir);
  // The labels stand in for "in run A" / "in run B" in the experiments' sentences.
  const acc = [new WindowAccumulator('in window A'), new WindowAccumulator('in window B')];
  await forEachTick(dir, record, (t) => {
    for (let i = 0; i < 2; i++) if (inRange(ranges[i], t.t)) acc[i].add(t);
  });
  const described = [describeWindow(windows.a, marks), describeWindow(windows.b, marks)];
  acc.forEach((a, i) => {
    if (a.ticks === 0) {
      throw new WatchWindowError(
        `Window ${i ? 'B' : 'A'} (${described[i]}) holds no tick of this watch: widen it, or wait for the watch to tick past it.`,
      );
    }
  });
  const c = compareWindows(acc[0].figures(), acc[1].figures());
  return { a: span('Window A', c.a, described[0]), b: span('Window B', c.b, described[1]), figures: c.figures, summary: c.summary };
}
