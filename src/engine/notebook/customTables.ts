// The notebook's results table for a custom workload: its own sessions' figures first (shared/customHeadline.ts),
// then the server-wide spinlocks and waits per second; a server-wide figure per call only where the workload owned
// the server, "n/a" in a run that did not. The same rule as the CLI's report and the panel's table.
import type { Experiment } from '../../shared/experiment';
import { runFigures, topNames, formatNumber } from '../../shared/analysis';
import { figureText } from '../../shared/numberText';
import { isRepeated } from '../../shared/repeats';
import { customHeadline, ownWaitsText } from '../../shared/customHeadline';
import type { OwnShare } from '../../shared/ownShare';

const dash = (v: number | null, text: (v: number) => string = formatNumber) => (v === null ? '-' : text(v));

export function customResultsRows(
  e: Experiment,
  ownCpuText: (s: OwnShare | null | undefined) => string,
): { headers: string[]; rows: string[][] } {
  const figs = e.runs.map(runFigures);
  const heads = e.runs.map(customHeadline);
  const spin = topNames(
    figs.map((f) => f.spins),
    3,
  );
  const wait = topNames(
    figs.map((f) => f.waitMs),
    2,
  );
  const shared = e.runs.some((r) => r.share);
  const owned = heads.some((h) => h.owned);
  const armed = e.runs.some((r) => r.arm && r.arm.id !== 'main');
  const repeated = isRepeated(e.runs);
  const headers = [
    'run',
    ...(armed ? ['arm'] : []),
    'threads',
    ...(repeated ? ['repetition'] : []),
    'status',
    'elapsed s',
    'calls',
    'calls/s',
    'p50 µs',
    'p99 µs',
    'CPU µs/call (own)',
    'logical reads/call (own)',
    'own waits',
    ...(shared ? ['own CPU %'] : []),
    ...spin.map((n) => `${n} spins/s (server-wide)`),
    ...wait.map((n) => `${n} ms/s (server-wide)`),
    ...(owned ? spin.map((n) => `${n} spins/call (server-wide)`) : []),
  ];
  const rows = e.runs.map((r, i) => {
    const f = figs[i];
    const h = heads[i];
    const perSec = (v: number) => formatNumber(v / Math.max(f.elapsedSec, 1e-9));
    return [
      String(r.index + 1),
      ...(armed ? [r.arm.label] : []),
      String(r.threads),
      ...(repeated ? [String(r.repetition ?? 1)] : []),
      r.status,
      f.elapsedSec.toFixed(1),
      figureText(h.calls),
      figureText(h.callsPerSec),
      dash(h.p50Us),
      dash(h.p99Us),
      dash(h.cpuUsPerCall),
      dash(h.logicalReadsPerCall),
      `${ownWaitsText(h.waits, 2, figureText)}${h.waits?.length ? ' (ms/s)' : ''}`,
      ...(shared ? [ownCpuText(r.share)] : []),
      ...spin.map((n) => perSec(f.spins[n] ?? 0)),
      ...wait.map((n) => perSec(f.waitMs[n] ?? 0)),
      ...(owned ? spin.map((n) => (h.owned ? formatNumber(f.spinsPerRow[n] ?? 0) : 'n/a')) : []),
    ];
  });
  return { headers, rows };
}
