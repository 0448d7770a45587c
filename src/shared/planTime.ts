// How many runs an experiment makes and about how long it takes, said before it starts (the CLI prints it, the panel
// shows it): every arm at each of its thread counts, each cell repeated. A run that ends on a row count takes as long
// as the server needs, so only the count is said then.
import { thousands } from './numberText';
import { noun, plural } from './plural';

/** From this many sessions a run's plan says that opening them takes time of its own. */
const MANY_SESSIONS = 100;

/** The most repetitions an experiment takes (the CLI's --repeat and the panel's field check against it). */
export const MAX_REPEAT = 100;

/** Repetitions as typed ("3"): a whole number from 1 to MAX_REPEAT, or an Error saying what to write. */
export function parseRepeat(text: string): number {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > MAX_REPEAT)
    throw new Error(`'${t}' is not a whole number from 1 to ${MAX_REPEAT}: write e.g. 3 (runs of each arm at each thread count).`);
  return Number(t);
}

/** How often a saved experiment ran each cell: its design's count, or 1 for a record written before repetitions. */
export function repeatOf(e: { design?: { repeat: number } | null }): number {
  return e.design?.repeat ?? 1;
}

export interface PlanTime {
  runs: number;
  /** Measured time and warm-up of every run, in seconds; null when the runs end on a row count or a call count. */
  seconds: number | null;
  text: string;
}

/** 30000 -> "30 s", 1500 -> "1.5 s", 180000 -> "3 min". */
function spanText(ms: number): string {
  const s = ms / 1000;
  if (s < 120) return `${Number(s.toPrecision(3))} s`;
  return `${Number((s / 60).toPrecision(3))} min`;
}

/** The whole experiment, rounded as a person would say it: "about 40 s", "about 7 min", "about 2 h 10 min". */
function aboutText(seconds: number): string {
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s`;
  const min = Math.round(seconds / 60);
  if (min < 90) return `about ${min} min`;
  return `about ${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}

function rowsText(rows: number): string {
  return rows >= 1e6 ? `${Number((rows / 1e6).toPrecision(3))}M` : thousands(rows);
}

/**
 * The runs of a plan and their time. `deploys`: whether the arms deploy before their runs (false for a custom workload,
 * which deploys nothing), which adds time this cannot know. `upTo`: --repeat auto, where `repeat` is the most
 * repetitions and the runs and time are the worst case (it stops once every gate is decided).
 */
export function planTime(
  arms: readonly { threads: readonly number[] }[],
  load: { durationMs: number | null; rows: number | null; warmupMs: number },
  repeat: number,
  deploys = true,
  upTo = false,
): PlanTime {
  const cells = arms.reduce((n, a) => n + a.threads.length, 0);
  const runs = cells * repeat;
  const counts = new Set(arms.map((a) => a.threads.length));
  const factors =
    counts.size === 1
      ? [...(arms.length > 1 ? [plural(arms.length, 'arm')] : []), plural(cells / arms.length, 'thread count')]
      : [`${cells} arm and thread count pairs`];
  const reps = upTo ? `up to ${plural(repeat, 'repetition')}, until every gate is decided` : plural(repeat, 'repetition');
  const head = `${upTo ? 'up to ' : ''}${plural(runs, 'run')} (${[...factors, reps].join(' x ')})`;
  const warmup = load.warmupMs > 0 ? `${spanText(load.warmupMs)} warm-up` : null;
  if (load.durationMs === null) {
    const each = load.rows !== null ? `${rowsText(load.rows)} ${noun(load.rows, 'row')}` : 'a fixed number of calls per session';
    return {
      runs,
      seconds: null,
      text: `${head} of ${each}${warmup ? ` after ${warmup}` : ''} each: the time depends on the server's throughput`,
    };
  }
  const seconds = (runs * (load.durationMs + load.warmupMs)) / 1000;
  // Each session logs in on its own connection before its run: with many, that is time of its own (overrun.ts says
  // how much once a run has taken it).
  const most = Math.max(0, ...arms.flatMap((a) => a.threads));
  const opening = most >= MANY_SESSIONS ? `, plus opening up to ${thousands(most)} sessions per run` : '';
  return {
    runs,
    seconds,
    text: `${head}: ${upTo ? 'at most ' : ''}${aboutText(seconds)} (${spanText(load.durationMs)} measured${warmup ? ` + ${warmup}` : ''} each${deploys ? ', plus deploys' : ''}${opening})`,
  };
}
