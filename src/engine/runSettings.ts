// The load settings of a run from what a person typed (the CLI's flags or the panel's fields): thread list, duration
// or row count, warm-up and sampling interval. One function for both hosts, collecting every problem so one message
// lists them all; `names` says what each field is called where the user typed it (--duration, or Duration).
import type { LoadSettings } from '../shared/experiment';
import { ParamError, parseDuration, parseRowCount, parseThreadList } from '../shared/params';
import { parseRepeat } from '../shared/planTime';

export const MIN_INTERVAL_MS = 250;

export interface LoadInput {
  mode: 'server-loop' | 'client-loop';
  threads?: string;
  duration?: string;
  rows?: string;
  warmup?: string;
  interval?: string;
  /** Client worker threads ('0' = one event loop); blank: one per client core (clientPool.ts). */
  clientWorkers?: string;
  /** 'lean' (the default) or 'driver': how the client loop's calls go (src/engine/loadCaller.ts). */
  clientPath?: string;
}

export interface FieldNames {
  threads: string;
  duration: string;
  rows: string;
  warmup: string;
  interval: string;
  clientWorkers?: string;
  repeat?: string;
}

export const CLI_NAMES: FieldNames = {
  threads: '--threads',
  duration: '--duration',
  rows: '--rows',
  warmup: '--warmup',
  interval: '--interval',
  clientWorkers: '--client-workers',
  repeat: '--repeat',
};

/** More client threads than this helps nothing (and an extra zero is a typo). */
export const MAX_CLIENT_WORKERS = 256;

/** The defaults when a field is left empty (the CLI's option defaults). */
export const LOAD_DEFAULTS = { threads: '1,2,4', duration: '30s', warmup: '5s', interval: '1s' } as const;

const blank = (s: string | undefined): boolean => s === undefined || s.trim() === '';

/** Repetitions as typed, or (with the problem added to `problems`) 1. */
export function repeatFrom(text: string, name: string | undefined, problems: string[]): number {
  try {
    return parseRepeat(text);
  } catch (e) {
    problems.push(`${name ?? 'Repetitions'}: ${(e as Error).message}`);
    return 1;
  }
}

/** Throws ParamError listing every problem, each naming the field, what was given and what to write. */
export function loadSettingsFrom(input: LoadInput, names: FieldNames = CLI_NAMES): LoadSettings {
  const problems: string[] = [];
  const field = <T>(name: string, f: () => T, fallback: T): T => {
    try {
      return f();
    } catch (e) {
      problems.push(`${name}: ${(e as Error).message}`);
      return fallback;
    }
  };
  if (!blank(input.duration) && !blank(input.rows)) {
    problems.push(`Give ${names.duration} or ${names.rows}, not both: a run ends after a time or after a number of rows.`);
  }
  const threads = field(names.threads, () => parseThreadList(blank(input.threads) ? LOAD_DEFAULTS.threads : input.threads!), [1]);
  const byRows = !blank(input.rows);
  const durationMs = byRows
    ? null
    : field(names.duration, () => parseDuration(blank(input.duration) ? LOAD_DEFAULTS.duration : input.duration!), 0);
  const rows = byRows ? field(names.rows, () => parseRowCount(input.rows!), 0) : null;
  const warmupMs = field(
    names.warmup,
    () => parseDuration(blank(input.warmup) ? LOAD_DEFAULTS.warmup : input.warmup!, { allowZero: true }),
    0,
  );
  const intervalText = blank(input.interval) ? LOAD_DEFAULTS.interval : input.interval!;
  const intervalMs = field(names.interval, () => parseDuration(intervalText), MIN_INTERVAL_MS);
  if (intervalMs < MIN_INTERVAL_MS) {
    problems.push(
      `${names.interval} ${intervalText} is below the ${MIN_INTERVAL_MS}ms minimum: sampling faster would disturb what it measures. Write 250ms or more.`,
    );
  }
  let clientWorkers: number | undefined;
  if (!blank(input.clientWorkers)) {
    const t = input.clientWorkers!.trim();
    if (/^\d+$/.test(t) && Number(t) <= MAX_CLIENT_WORKERS) clientWorkers = Number(t);
    else
      problems.push(
        `${names.clientWorkers ?? 'Client workers'} '${t}' is not a whole number from 0 to ${MAX_CLIENT_WORKERS}: write e.g. 2 (0 runs every session on one event loop; leave it out for one per client core).`,
      );
  }
  const path = input.clientPath?.trim().toLowerCase();
  if (path !== undefined && path !== 'lean' && path !== 'driver')
    problems.push(`--client-path '${input.clientPath}' is neither lean nor driver: write driver to force the ordinary driver.`);
  if (problems.length) throw new ParamError(problems);
  return {
    mode: input.mode,
    threads,
    durationMs,
    rows,
    warmupMs,
    intervalMs,
    ...(clientWorkers === undefined ? {} : { clientWorkers }),
    ...(path === 'lean' || path === 'driver' ? { clientPath: path } : {}),
  };
}
