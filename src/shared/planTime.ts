// How long an experiment will take, said before it starts: runs = arms x thread counts x repetitions, each its
// warm-up plus its measured time. A run that ends on a row count has no time until the server's throughput is known.
import { formatNumber } from './numberText';

export interface PlanTime {
  runs: number;
  /** Seconds of warm-up and measured time over every run; null when runs end on a row count. */
  seconds: number | null;
  text: string;
}

const duration = (s: number) => (s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function planTime(
  arms: readonly { threads: readonly number[] }[],
  load: { durationMs: number | null; rows: number | null; warmupMs: number },
  repeat: number,
): PlanTime {
  const perRep = arms.reduce((s, a) => s + a.threads.length, 0);
  const runs = perRep * repeat;
  const counts = [...new Set(arms.map((a) => a.threads.length))];
  const shape = [
    ...(arms.length > 1 ? [plural(arms.length, 'arm')] : []),
    ...(counts.length === 1 ? [plural(counts[0], 'thread count')] : []),
    plural(repeat, 'repetition'),
  ].join(' x ');
  const head = `${plural(runs, 'run')} (${shape})`;
  if (load.durationMs === null) {
    const rows = load.rows !== null ? `${formatNumber(load.rows)} rows each` : 'each to its end';
    return { runs, seconds: null, text: `${head}, ${rows}: the time depends on the server's throughput.` };
  }
  const seconds = (runs * (load.durationMs + load.warmupMs)) / 1000;
  const each = `${duration(load.durationMs / 1000)} measured${load.warmupMs ? ` + ${duration(load.warmupMs / 1000)} warm-up` : ''} each`;
  return { runs, seconds, text: `${head}: about ${duration(seconds)} (${each}, plus deploys).` };
}
