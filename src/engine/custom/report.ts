// The custom workload's part of a report: calls, rate and latency per run, per-call client and server figures, the
// errors by number, and the waits of the run's own sessions beside the server-wide ones.
import * as path from 'node:path';
import type { Experiment, RunRecord, WaitDelta } from '../../shared/experiment';
import { isBenignWait } from '../../shared/benign';
import { table } from '../report';
import { describeError } from './tally';

const f = (v: number | null | undefined, digits = 0) => (v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const ms = (us: number | null | undefined) => (us === null || us === undefined ? '-' : f(us / 1000, 3));

export function callsPerSec(r: RunRecord): number {
  return r.custom && r.elapsedMs > 0 ? r.custom.calls / (r.elapsedMs / 1000) : r.derived.rowsPerSec;
}

/** The lines a custom experiment adds to the report; '' for other experiments. */
export function customReport(e: Experiment): string {
  const w = e.custom;
  if (!w) return '';
  const out: string[] = [];
  out.push(`Custom workload in [${w.database}]: ${w.statements.length} statement${w.statements.length === 1 ? '' : 's'}; ${w.writes ? `WRITES to [${w.database}] (${w.writes})` : 'reads only'}`);
  if (w.params) out.push(`parameters: ${w.params.rows} rows from ${w.params.kind === 'csv' ? path.basename(w.params.from) : 'the parameter query'} (${w.params.columns.map((c) => `@${c.name} ${c.type}`).join(', ')}), ${w.params.order}, ${w.params.scope}`);
  out.push('');
  out.push(table(['threads', 'calls', 'calls/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'failed', 'client s/call', 'server CPU s/call', 'logical reads/call'],
    e.runs.map((r) => [String(r.threads), f(r.custom?.calls), f(callsPerSec(r), 1), ms(r.latency?.p50Us), ms(r.latency?.p90Us), ms(r.latency?.p99Us), ms(r.latency?.maxUs),
      f(r.custom?.failedCalls), f(r.custom?.perCall.clientSec, 6), f(r.custom?.perCall.serverCpuSec, 6), f(r.custom?.perCall.logicalReads, 1)])));
  for (const r of e.runs) {
    if (!r.custom?.errors.length) continue;
    out.push(`\nFailed calls, ${r.threads} threads`);
    for (const c of r.custom.errors) out.push(`  ${describeError(c)} (first ${c.first}, last ${c.last})`);
  }
  const waits = sessionWaitsSection(e.runs);
  if (waits) out.push(waits);
  return out.join('\n');
}

/** Top waits of the run's own sessions (benign excluded), ms per call or per row; '' when none were read. */
export function sessionWaitsSection(runs: RunRecord[]): string {
  const have = runs.filter((r) => r.sessionWaits);
  if (!have.length) return '';
  const merged = new Map<string, number>();
  for (const r of have) for (const [k, v] of Object.entries(r.sessionWaits as Record<string, WaitDelta>)) if (!isBenignWait(k)) merged.set(k, (merged.get(k) ?? 0) + v.waitMs);
  const top = [...merged.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k]) => k);
  if (!top.length) return '\nWaits of the workload\'s own sessions: none (sys.dm_exec_session_wait_stats)';
  return `\nWaits of the workload's own sessions (sys.dm_exec_session_wait_stats): wait ms\n`
    + table(['threads', ...top], have.map((r) => [String(r.threads), ...top.map((k) => f(r.sessionWaits?.[k]?.waitMs ?? 0, 1))]));
}
