// What a sweep gains from its fewest to its most threads, in one sentence with the ratio's 95% interval: the
// terminal's scaling view, the notebook's summary and the panel's scaling curve all say it from here.
import { compareFigures } from './repeats/interval';
import { ratioText } from './numberText';
import { plural } from './plural';

/** Past this spread (high over low) an interval cannot back a claimed gain, though it may leave out 1. */
export const TOO_WIDE = 2;

/** Throughput of each repetition at one thread count. */
export interface ScalingEnd {
  threads: number;
  values: readonly number[];
}

/**
 * "1 → 4 threads gives 4.4x the rows/s (95% interval 4.2x to 4.6x) for 4.0x the threads"; with an interval that
 * takes in no gain or spans more than TOO_WIDE, the ratio is said with "but its 95% interval (...) is too wide to
 * claim it"; one run per thread count says it has no interval. Null when the fewest threads measured nothing.
 */
export function scalingGainText(first: ScalingEnd, last: ScalingEnd, unit: string): string | null {
  const r = compareFigures(first.values, last.values);
  if (r.ratio === null) return null;
  const head = `${first.threads} → ${plural(last.threads, 'thread')} gives ${ratioText(r.ratio)} the ${unit}/s`;
  const threads = `for ${ratioText(last.threads / first.threads)} the threads`;
  const i = r.interval;
  if (!i) return `${head} ${threads} (1 run per thread count: no interval)`;
  const range = `${ratioText(i.low)} to ${ratioText(i.high)}`;
  const wide = i.low <= 1 || !(i.high / i.low <= TOO_WIDE);
  return wide
    ? `${head} ${threads}, but its 95% interval (${range}) is too wide to claim it`
    : `${head} (95% interval ${range}) ${threads}`;
}
