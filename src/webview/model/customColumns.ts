// The results table's columns for a custom workload: its own sessions' figures first (calls/s, latency, their CPU,
// reads and waits per call), then the server-wide spinlocks and waits per second. A server-wide figure per call is a
// column only when a run owned the server, and reads "n/a" in a run that did not (shared/customHeadline.ts).
import { topNames } from '../../shared/analysis';
import { ownWaitsText } from '../../shared/customHeadline';
import { countText } from '../../shared/units';
import { num, ownCpuColumn, type ResultColumn, type ResultRow } from './resultRows';

const SERVER_WIDE = 'server-wide (every session on the server)';

export function customColumns(rows: readonly ResultRow[], topSpinlocks: number, topWaits: number): ResultColumn[] {
  const spins = topNames(
    rows.map((r) => r.figures.spins),
    topSpinlocks,
  );
  const waits = topNames(
    rows.map((r) => r.figures.waitMs),
    topWaits,
  );
  const perSec = (v: number, r: ResultRow) => v / Math.max(r.figures.elapsedSec, 1e-9);
  const cols: ResultColumn[] = [
    num('threads', 'Threads', 'Concurrent sessions', (r) => r.figures.threads),
    num('elapsed', 'Elapsed', 'Server-measured elapsed time', (r) => r.figures.elapsedSec, 's'),
    num('rows', 'Calls', 'Calls completed', (r) => r.figures.rows),
    num('rowsPerSec', 'Calls/s', 'Calls completed per second', (r) => r.figures.rowsPerSec),
    num('p50', 'p50', 'Client latency per call, median', (r) => r.figures.p50Us, 'µs'),
    num('p99', 'p99', 'Client latency per call, 99th percentile', (r) => r.figures.p99Us, 'µs'),
    num(
      'ownCpuPerCall',
      'CPU/call (own)',
      "The workload's own sessions' CPU per call (sys.dm_exec_sessions)",
      (r) => r.own?.cpuUsPerCall ?? null,
      'µs',
    ),
    num(
      'ownReadsPerCall',
      'Reads/call (own)',
      "The workload's own sessions' logical reads per call (sys.dm_exec_sessions)",
      (r) => r.own?.logicalReadsPerCall ?? null,
    ),
    {
      key: 'ownWaits',
      label: 'Own waits',
      title: "The workload's own sessions' top waits, ms per second (sys.dm_exec_session_wait_stats, benign excluded)",
      numeric: false,
      value: (r) => (r.own ? ownWaitsText(r.own.waits, 2, countText) : null),
    },
  ];
  if (rows.some((r) => r.share)) cols.push(ownCpuColumn());
  for (const s of spins)
    cols.push(num(`spinsPerSec:${s}`, `${s} spins/s`, `${s}: spins per second, ${SERVER_WIDE}`, (r) => perSec(r.figures.spins[s] ?? 0, r)));
  for (const w of waits)
    cols.push(num(`waitPerSec:${w}`, `${w} ms/s`, `${w}: wait ms per second, ${SERVER_WIDE}`, (r) => perSec(r.figures.waitMs[w] ?? 0, r)));
  // Per call only where the workload owned the server: elsewhere those figures are mostly other sessions' work.
  if (rows.some((r) => r.own?.owned)) {
    const owned = (v: (r: ResultRow) => number | null) => (r: ResultRow) => (r.own?.owned ? v(r) : 'n/a');
    for (const s of spins)
      cols.push(
        num(
          `spins:${s}`,
          `${s} spins/call`,
          `${s}: spins per call, ${SERVER_WIDE}; n/a where the workload did not own the server`,
          owned((r) => r.figures.spinsPerRow[s] ?? 0),
        ),
      );
    cols.push(
      num(
        'cpuMsPerRow',
        'Server CPU/call',
        `Scheduler CPU time per call, ${SERVER_WIDE}; n/a where the workload did not own the server`,
        owned((r) => r.figures.cpuMsPerRow),
        'ms',
      ),
    );
  }
  return cols;
}
