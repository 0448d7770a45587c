// The figure a comparison's verdict rests on, as a user names it (`spinlab compare --primary p99`): throughput unless
// told otherwise. Named once, before any comparison, so a typo is an error with the names that exist, not a verdict
// on the wrong figure.

/** Names the user may give, and the figure key each means. */
const FIXED: Record<string, string> = {
  throughput: 'rowsPerSec',
  rows_per_sec: 'rowsPerSec',
  transactions: 'transactionsPerSec',
  cpu_per_row: 'cpuMsPerRow',
  log_bytes_per_row: 'logBytesPerRow',
  log_flushes: 'logFlushesPerSec',
  p50: 'p50Us',
  p99: 'p99Us',
};
const NAMED: Record<string, string> = {
  spins_per_row: 'spinsPerRow',
  backoffs_per_row: 'backoffsPerRow',
  wait_ms_per_row: 'waitMsPerRow',
  latch_ms_per_row: 'latchMsPerRow',
};

/** What a user may write, for an error message. */
export const PRIMARY_NAMES = `${Object.keys(FIXED).join(', ')}, or NAME.${Object.keys(NAMED).join(' / NAME.')} (e.g. LOGCACHE_ACCESS.spins_per_row)`;

/** The figure key for a user's name, or null when it names no figure. */
export function primaryKey(text: string): string | null {
  const t = text.trim();
  const fixed = FIXED[t.toLowerCase()];
  if (fixed) return fixed;
  const dot = t.lastIndexOf('.');
  if (dot <= 0) return null;
  const map = NAMED[t.slice(dot + 1).toLowerCase()];
  const name = t.slice(0, dot).toUpperCase();
  return map && /^[A-Z0-9_$#]+$/.test(name) ? `${map}:${name}` : null;
}
