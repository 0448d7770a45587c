// Which columns of a wide table are shown: at most 8 by default (the figures that answer "what did it do": run,
// arm, threads, throughput, the workload's own CPU share, the top spinlock and wait per row, CPU per row, latency or
// status), and the user's choices over those defaults, kept in the view state by column key (a spinlock's column
// keeps its choice across runs).

export const DEFAULT_COLUMNS_MAX = 8;

/** The default columns of the per-run results table, in order of preference (model/results.ts keys). */
function preference(keys: readonly string[]): string[] {
  const first = (prefix: string) => keys.find((k) => k.startsWith(prefix));
  // A repeated experiment's runs are told apart by their repetition; the workload's own CPU share, when read, tells
  // its figures from the server's.
  return [
    'run',
    'arm',
    'repetition',
    'threads',
    'rowsPerSec',
    'ownCpu',
    first('spins:'),
    first('wait:'),
    'cpuMsPerRow',
    'p99',
    'status',
  ].filter((k): k is string => k !== undefined && keys.includes(k));
}

/** The keys shown by default: the preferred ones present, at most `max`. */
export function defaultColumns(keys: readonly string[], max = DEFAULT_COLUMNS_MAX): Set<string> {
  return new Set(preference(keys).slice(0, max));
}

/** The columns shown: each one's choice, else whether it is a default; the table's order is kept. */
export function shownColumns<C extends { key: string }>(cols: readonly C[], choices: Readonly<Record<string, boolean>> | undefined): C[] {
  const defaults = defaultColumns(cols.map((c) => c.key));
  const shown = cols.filter((c) => choices?.[c.key] ?? defaults.has(c.key));
  // Never an empty table: the run column at least.
  return shown.length ? shown : cols.slice(0, 1);
}

/** The choices after the user ticks or unticks a column (a choice equal to the default is dropped). */
export function chooseColumn(
  choices: Readonly<Record<string, boolean>> | undefined,
  keys: readonly string[],
  key: string,
  show: boolean,
): Record<string, boolean> {
  const next = { ...(choices ?? {}) };
  if (defaultColumns(keys).has(key) === show) delete next[key];
  else next[key] = show;
  return next;
}
