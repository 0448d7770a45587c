// Whether a run's work succeeded: a run whose calls all failed, all timed out, or never completed measured nothing, and
// is failed with the reason, never "completed" with empty figures. The rule, for scenarios and custom workloads alike:
//   - more than half of the sessions failed (could not connect, or their call loop broke): failed;
//   - no call completed in the measured time: failed, saying why (every call failed with its error, every call timed
//     out after the query timeout, or the calls were still running when the time was up);
//   - a custom workload whose failed calls are more than a tenth of the calls it tried (MAX_FAILED_SHARE): failed (the
//     figures would describe the calls that got through, which are no longer the workload asked for);
//   - otherwise completed; failed calls or sessions below those limits are a warning with their count and the first
//     error, and `--assert errors=0` or `--assert "error_rate<0.01"` makes any of them fail a CI run.
import type { CallErrorCount, SessionFailure } from '../shared/experiment';
import { plural } from '../shared/plural';

export interface RunOutcome {
  threads: number;
  /** Calls that completed in the measured phase (EXECs of the loop in the server loop). */
  calls: number;
  /** Rows the run counted (server loop: the scenario's rows written). */
  rows: number;
  /** Sessions that could not connect or failed in the measured phase: warm-up failures are not the measurement's. */
  sessionFailures: readonly SessionFailure[];
  cancelledCalls: number;
  /** A custom workload's failed calls, its errors by count, and its query timeout; null for a scenario. */
  custom: { failedCalls: number; errors: readonly CallErrorCount[]; queryTimeoutMs: number | null } | null;
}

export interface RunVerdict {
  status: 'completed' | 'failed';
  /** Why it failed (null when it completed). */
  reason: string | null;
  /** What a completed run's reader must know: some calls or sessions failed. */
  warning: string | null;
}

/** 200 -> "200 ms", 2000 -> "2 s", 1500 -> "1.5 s". */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${+(ms / 1000).toFixed(3)} s`;
}

/** An error as SQL Server prints it: "Msg 102 Incorrect syntax near 'FROM'."; a timeout or a client error as itself. */
export function errorText(c: Pick<CallErrorCount, 'number' | 'kind' | 'message'>): string {
  return c.number !== null && c.number > 0 ? `Msg ${c.number} ${c.message}` : c.message;
}

const earliest = (errors: readonly CallErrorCount[]) => [...errors].sort((a, b) => a.first.localeCompare(b.first))[0];

function cancelledNote(n: number): string {
  return n > 0 ? `; ${plural(n, 'call')} in flight at the end ${n === 1 ? 'was' : 'were'} cancelled and not counted` : '';
}

/** The share of failed calls a run may have and still stand as a measurement (with a warning). */
export const MAX_FAILED_SHARE = 0.1;

export function runVerdict(o: RunOutcome): RunVerdict {
  const failedSessions = new Set(o.sessionFailures.map((f) => f.session)).size;
  const firstSession = o.sessionFailures[0]?.message ?? '';
  if (failedSessions * 2 > o.threads) {
    const which = failedSessions >= o.threads ? 'every session failed' : `${failedSessions} of ${o.threads} sessions failed`;
    return { status: 'failed', reason: `${which}: ${firstSession} (${plural(failedSessions, 'session')} of ${o.threads})`, warning: null };
  }
  const c = o.custom;
  if (c && c.failedCalls > 0) {
    const tried = o.calls + c.failedCalls;
    const top = c.errors[0];
    if (o.calls === 0) {
      if (c.errors.every((e) => e.kind === 'timeout')) {
        const after = c.queryTimeoutMs !== null ? ` after ${formatMs(c.queryTimeoutMs)}` : '';
        return {
          status: 'failed',
          reason: `every call timed out${after} (${c.failedCalls.toLocaleString('en-US')} of ${plural(tried, 'call')})${cancelledNote(o.cancelledCalls)}`,
          warning: null,
        };
      }
      const others = c.errors.length - 1;
      const rest = others > 0 ? `, and ${plural(others, 'other error')} in the rest` : '';
      return {
        status: 'failed',
        reason: `every call failed: ${errorText(top)} (${top.count.toLocaleString('en-US')} of ${plural(tried, 'call')}${rest})`,
        warning: null,
      };
    }
    if (c.failedCalls > MAX_FAILED_SHARE * tried) {
      return {
        status: 'failed',
        reason: `${c.failedCalls.toLocaleString('en-US')} of ${plural(tried, 'call')} failed (${((100 * c.failedCalls) / tried).toFixed(1)}%, more than the ${100 * MAX_FAILED_SHARE}% a run may lose and still be measured), only ${o.calls.toLocaleString('en-US')} completed; most: ${errorText(top)}`,
        warning: null,
      };
    }
  }
  if (o.calls === 0 || o.rows === 0) {
    const what = o.calls === 0 ? 'no call completed' : 'no row was written';
    return { status: 'failed', reason: `${what} in the measured time${cancelledNote(o.cancelledCalls)}`, warning: null };
  }
  const warnings: string[] = [];
  if (c && c.failedCalls > 0) {
    const tried = o.calls + c.failedCalls;
    warnings.push(
      `${c.failedCalls.toLocaleString('en-US')} of ${plural(tried, 'call')} failed (${((100 * c.failedCalls) / tried).toFixed(1)}%); ` +
        `the figures are the ${o.calls.toLocaleString('en-US')} that completed; first: ${errorText(earliest(c.errors))}`,
    );
  }
  if (failedSessions > 0) warnings.push(`${failedSessions} of ${o.threads} sessions failed and stopped early: ${firstSession}`);
  return { status: 'completed', reason: null, warning: warnings.length ? warnings.join('; ') : null };
}
