// Failing calls as a load tool counts them: by error number and message, with first and last occurrence and a count
// per session. Deadlocks (1205) and timeouts are named so a reader sees them at once.
import type { CallErrorCount } from '../../shared/experiment';

export function errorKind(number: number | undefined, code: string | undefined): CallErrorCount['kind'] {
  if (number === 1205) return 'deadlock';
  if (code === 'ETIMEOUT' || number === -2) return 'timeout';
  return 'error';
}

export class ErrorTally {
  private readonly byKey = new Map<string, CallErrorCount>();
  failed = 0;

  add(session: number, err: unknown, now = new Date()): CallErrorCount {
    const e = err as { number?: number; code?: string; message?: string };
    const kind = errorKind(e.number, e.code);
    // Timeouts carry the client's own words (with the milliseconds); one entry covers them all.
    const message = kind === 'timeout' ? 'the call ran past --query-timeout and was cancelled' : String(e.message ?? err);
    const number = typeof e.number === 'number' ? e.number : null;
    const key = `${number}|${message}`;
    const at = now.toISOString();
    let c = this.byKey.get(key);
    if (!c) {
      c = { number, kind, message, count: 0, first: at, last: at, sessions: {} };
      this.byKey.set(key, c);
    }
    c.count++;
    c.last = at;
    c.sessions[String(session)] = (c.sessions[String(session)] ?? 0) + 1;
    this.failed++;
    return c;
  }

  list(): CallErrorCount[] {
    return [...this.byKey.values()].sort((a, b) => b.count - a.count);
  }
}

/** Counts from several tallies (client workers) as one tally would have kept them: by number and message. */
export function mergeErrorCounts(lists: readonly CallErrorCount[][]): CallErrorCount[] {
  const byKey = new Map<string, CallErrorCount>();
  for (const c of lists.flat()) {
    const key = `${c.number}|${c.message}`;
    const m = byKey.get(key);
    if (!m) {
      byKey.set(key, { ...c, sessions: { ...c.sessions } });
      continue;
    }
    m.count += c.count;
    if (c.first < m.first) m.first = c.first;
    if (c.last > m.last) m.last = c.last;
    for (const [s, n] of Object.entries(c.sessions)) m.sessions[s] = (m.sessions[s] ?? 0) + n;
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count);
}

/** One line naming an error count: "deadlock (1205) x3 in sessions 2, 4: Transaction ... was deadlocked ...". */
export function describeError(c: CallErrorCount): string {
  const what =
    c.kind === 'error' ? `error${c.number !== null ? ` ${c.number}` : ''}` : `${c.kind}${c.number !== null ? ` (${c.number})` : ''}`;
  const sessions = Object.keys(c.sessions)
    .map(Number)
    .sort((a, b) => a - b);
  return `${what} x${c.count} in session${sessions.length > 1 ? 's' : ''} ${sessions.join(', ')}: ${c.message}`;
}
