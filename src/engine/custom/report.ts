// The custom workload's part of a report: its headline is its own sessions' work (calls, rate and latency per run,
// their CPU, logical reads and waits per call: shared/customHeadline.ts), the errors by number; and the waits of the
// run's own sessions beside the server-wide ones, printed with the server-wide sections.
import * as path from 'node:path';
import type { Experiment, RunRecord, WaitDelta } from '../../shared/experiment';
import { isBenignWait } from '../../shared/benign';
import { table } from '../textTable';
import { estimate, estimateText, isRepeated, type Cell } from '../../shared/repeats';
import { repeatSection } from '../repeatReport';
import { describeError } from './tally';
import { runFigures } from '../../shared/analysis';
import { figureText } from '../../shared/numberText';
import { plural } from '../../shared/plural';
import { serverWaitsOverOwnSpan } from '../../shared/ownWaits';
import { customHeadline, ownWaitsText, shareCell } from '../../shared/customHeadline';

const f = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined || !Number.isFinite(v)
    ? '-'
    : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (us: number | null | undefined) => (us === null || us === undefined ? '-' : f(us / 1000, 3));

/** A custom run's calls per second: its rows/s (a call is its unit), as every other view shows it. */
export function callsPerSec(r: RunRecord): number {
  return runFigures(r).rowsPerSec;
}

/** Seconds per call in microseconds, the unit a call's cost reads in ('-' when unknown). */
const us = (sec: number | null | undefined): string => (sec === null || sec === undefined ? '-' : f(sec * 1e6, 1));

/** The headline of a custom experiment (what its own sessions did); '' for other experiments. */
export function customReport(e: Experiment): string {
  const w = e.custom;
  if (!w) return '';
  const out: string[] = [];
  out.push(
    `Custom workload in [${w.database}]: ${w.statements.length} statement${w.statements.length === 1 ? '' : 's'}${w.perIteration === 'all' && w.statements.length > 1 ? ', all of them in order each iteration' : ''}; ${w.writes ? `WRITES to [${w.database}] (${w.writes})` : 'reads only'}`,
  );
  if (w.params)
    out.push(
      `parameters: ${w.params.rows} rows from ${w.params.kind === 'csv' ? path.basename(w.params.from) : 'the parameter query'} (${w.params.columns.map((c) => `@${c.name} ${c.type}`).join(', ')}), ${w.params.order}, ${w.params.scope}`,
    );
  out.push(
    "\nThe workload's own sessions (calls and latency from the client; CPU, logical reads and waits from sys.dm_exec_sessions and sys.dm_exec_session_wait_stats for its session ids)",
  );
  const repeated = isRepeated(e.runs);
  out.push(
    table(
      [
        'threads',
        ...(repeated ? ['repetition'] : []),
        'calls',
        'calls/s',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'max ms',
        'failed',
        'client µs/call',
        'CPU µs/call',
        'logical reads/call',
        'own waits (ms/s)',
        'own share of server CPU, waits',
      ],
      e.runs.map((r) => [
        String(r.threads),
        ...(repeated ? [String(r.repetition ?? 1)] : []),
        f(r.custom?.calls),
        figureText(callsPerSec(r)),
        ms(r.latency?.p50Us),
        ms(r.latency?.p90Us),
        ms(r.latency?.p99Us),
        ms(r.latency?.maxUs),
        f(r.custom?.failedCalls),
        us(r.custom?.perCall.clientSec),
        us(r.custom?.perCall.serverCpuSec),
        f(r.custom?.perCall.logicalReads, 1),
        ownWaitsText(customHeadline(r).waits, 2, (v) => figureText(v)),
        shareCell(r.share),
      ]),
    ),
  );
  if (repeated) out.push(customRepeatSection(e.runs));
  for (const r of e.runs) {
    if (!r.custom?.errors.length) continue;
    out.push(`\nFailed calls, ${plural(r.threads, 'thread')}${repeated ? `, repetition ${r.repetition ?? 1}` : ''}`);
    for (const c of r.custom.errors) out.push(`  ${describeError(c)} (first ${c.first}, last ${c.last})`);
  }
  return out.join('\n');
}

/** A custom workload's figures over repetitions: calls/s, latency in ms and the server's cost per call. */
function customRepeatSection(runs: RunRecord[]): string {
  const over = (pick: (r: RunRecord) => number | null | undefined) => (c: Cell<RunRecord>) =>
    estimate(c.runs.map(pick).filter((v): v is number => v !== null && v !== undefined));
  const msText = (us: number) => f(us / 1000, 3);
  const section = repeatSection(
    runs,
    'Calls over repetitions: each thread count, geometric mean [95% interval]',
    [
      { header: 'calls/s', value: over(callsPerSec) },
      { header: 'p50 ms', value: over((r) => r.latency?.p50Us), optional: true, text: (e) => estimateText(e, msText) },
      { header: 'p99 ms', value: over((r) => r.latency?.p99Us), optional: true, text: (e) => estimateText(e, msText) },
      {
        header: 'CPU µs/call',
        value: over((r) => r.custom?.perCall.serverCpuSec),
        optional: true,
        text: (e) => estimateText(e, (sec) => f(sec * 1e6, 1)),
      },
      { header: 'logical reads/call', value: over((r) => r.custom?.perCall.logicalReads), optional: true },
    ],
    false,
  );
  return section;
}

/**
 * The waits of the run's own sessions beside the server-wide ones, both in ms per second over the same span (the
 * measured phase the own waits were read around, serverWaitsOverOwnSpan): the server-wide figure is every session's
 * and the server's own tasks' (the log writer, checkpoints, other users); the run's share is what its workload
 * sessions waited themselves (sys.dm_exec_session_wait_stats). An own figure above its server-wide one is marked and
 * said why, never shown as if both held. '' when no run read its own.
 */
export function sessionWaitsSection(runs: RunRecord[]): string {
  const have = runs.filter((r) => r.sessionWaits);
  if (!have.length) return '';
  const span = new Map(have.map((r) => [r, serverWaitsOverOwnSpan(r)]));
  const perSec = (r: RunRecord, ms: number) => figureText(ms / Math.max(span.get(r)!.elapsedMs / 1000, 1e-9));
  const own = new Map<string, number>();
  const server = new Map<string, number>();
  for (const r of have) {
    for (const [k, v] of Object.entries(r.sessionWaits as Record<string, WaitDelta>))
      if (!isBenignWait(k)) own.set(k, (own.get(k) ?? 0) + v.waitMs);
    for (const [k, v] of Object.entries(span.get(r)!.waits)) if (!isBenignWait(k)) server.set(k, (server.get(k) ?? 0) + v.waitMs);
  }
  const ranked = (m: Map<string, number>) =>
    [...m.entries()]
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([k]) => k);
  // The run's own top waits first, then the server-wide ones it did not share, so a large server-wide wait is never
  // shown without the run's (possibly zero) part of it.
  const top = [...new Set([...ranked(own).slice(0, 4), ...ranked(server).slice(0, 3)])].slice(0, 5);
  const title =
    "\nWaits of the workload's own sessions (sys.dm_exec_session_wait_stats) beside the server-wide waits (every session and the server's own tasks): ms per second of the measured phase, own / server-wide";
  if (!top.length) return `${title}\n  none, on the workload's sessions or server-wide`;
  let above = false;
  const cell = (r: RunRecord, k: string) => {
    const o = r.sessionWaits?.[k]?.waitMs ?? 0;
    const s = span.get(r)!.waits[k]?.waitMs ?? 0;
    above ||= o > s;
    return `${perSec(r, o)}${o > s ? '*' : ''} / ${perSec(r, s)}`;
  };
  const repeated = isRepeated(have);
  const armed = repeated && have.some((r) => r.arm.id !== 'main');
  const lines = [
    title,
    table(
      [...(armed ? ['arm'] : []), 'threads', ...(repeated ? ['repetition'] : []), ...top],
      have.map((r) => [
        ...(armed ? [r.arm.label] : []),
        String(r.threads),
        ...(repeated ? [String(r.repetition ?? 1)] : []),
        ...top.map((k) => cell(r, k)),
      ]),
    ),
  ];
  if (above)
    lines.push(
      '  * own above server-wide: the own waits are read on a connection of their own just before and after the measured phase, the server-wide ones at its first and last sample, and both count whole milliseconds; a few ms apart is that, not waits the server missed.',
    );
  if (!ranked(own).length)
    lines.push(
      "  The workload's own sessions recorded no wait (benign excluded): the server-wide waits were other sessions' or the server's own tasks'.",
    );
  return lines.join('\n');
}
