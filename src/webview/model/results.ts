// The results table: one row per run (totals and per-row figures), the columns chosen from the runs' own top
// spinlocks and waits, sorting by any column, and TSV for the clipboard (pastes into a spreadsheet as columns).
import { topNames, type ComparedFigure } from '../../shared/analysis';
import type { Experiment } from '../../shared/experiment';
import { runFigures } from '../../shared/analysis';
import { figureText } from '../../shared/numberText';
import { quantityKind, quantityText, splitUnit, timeLabel } from '../../shared/units';
import { customHeadline } from '../../shared/customHeadline';
import { customColumns } from './customColumns';

export type { ResultColumn, ResultRow } from './resultRows';
import { num, ownCpuColumn, type ResultColumn, type ResultRow } from './resultRows';

export type SortDir = 'ascending' | 'descending';
export interface SortState {
  key: string;
  dir: SortDir;
}

/**
 * The columns for these rows. `unit` is what the workload counts: rows written, or calls for a custom workload that
 * writes no lab table. Spinlock, wait and CPU figures are server-wide (every session on the server): their titles say
 * so, and the workload's own share of the server's CPU stands beside them.
 */
export function resultColumns(rows: readonly ResultRow[], topSpinlocks = 3, topWaits = 3, unit: 'row' | 'call' = 'row'): ResultColumn[] {
  const Unit = unit === 'row' ? 'Rows' : 'Calls';
  const spins = topNames(
    rows.map((r) => r.figures.spins),
    topSpinlocks,
  );
  const waits = topNames(
    rows.map((r) => r.figures.waitMs),
    topWaits,
  );
  const cols: ResultColumn[] = [num('run', 'Run', 'Run number', (r) => r.run + 1)];
  if (new Set(rows.map((r) => r.arm)).size > 1)
    cols.push({ key: 'arm', label: 'Arm', title: 'The arm the run belongs to', numeric: false, value: (r) => r.arm ?? null });
  if (rows.some((r) => (r.repetition ?? 1) > 1))
    cols.push(num('repetition', 'Rep.', 'Which repetition of its arm at its thread count', (r) => r.repetition ?? 1));
  if (unit === 'call') {
    cols.push(...customColumns(rows, topSpinlocks, topWaits));
    cols.push({ key: 'status', label: 'Status', title: 'Run status', numeric: false, value: (r) => r.figures.status });
    return cols;
  }
  cols.push(
    num('threads', 'Threads', 'Concurrent sessions', (r) => r.figures.threads),
    num('elapsed', 'Elapsed', 'Server-measured elapsed time', (r) => r.figures.elapsedSec, 's'),
    num('rows', Unit, unit === 'row' ? 'Rows written' : 'Calls completed', (r) => r.figures.rows),
    num('rowsPerSec', `${Unit}/s`, unit === 'row' ? 'Rows written per second' : 'Calls completed per second', (r) => r.figures.rowsPerSec),
  );
  if (rows.some((r) => r.share)) cols.push(ownCpuColumn());
  for (const s of spins) {
    cols.push(num(`spins:${s}`, `${s} spins/${unit}`, `${s}: spins per ${unit}, server-wide`, (r) => r.figures.spinsPerRow[s] ?? 0));
    cols.push(
      num(`backoffs:${s}`, `${s} backoffs/${unit}`, `${s}: backoffs per ${unit}, server-wide`, (r) => r.figures.backoffsPerRow[s] ?? 0),
    );
  }
  for (const w of waits)
    cols.push(
      num(`wait:${w}`, `${w} wait/${unit}`, `${w}: wait time per ${unit}, server-wide`, (r) => r.figures.waitMsPerRow[w] ?? 0, 'ms'),
    );
  cols.push(num('cpuMsPerRow', `CPU/${unit}`, `Scheduler CPU time per ${unit}, server-wide`, (r) => r.figures.cpuMsPerRow, 'ms'));
  cols.push(num('logBytesPerRow', `Log/${unit}`, `Log bytes flushed per ${unit}`, (r) => r.figures.logBytesPerRow, 'B'));
  if (rows.some((r) => r.figures.p50Us !== null)) {
    cols.push(num('p50', 'p50', 'Client latency, median', (r) => r.figures.p50Us, 'µs'));
    cols.push(num('p99', 'p99', 'Client latency, 99th percentile', (r) => r.figures.p99Us, 'µs'));
  }
  cols.push({ key: 'status', label: 'Status', title: 'Run status', numeric: false, value: (r) => r.figures.status });
  return cols;
}

/** Sorted copy; nulls last in either direction; ties keep run order. */
export function sortRows(rows: readonly ResultRow[], columns: readonly ResultColumn[], sort: SortState | null): ResultRow[] {
  const col = sort && columns.find((c) => c.key === sort.key);
  if (!sort || !col) return [...rows];
  const sign = sort.dir === 'ascending' ? 1 : -1;
  return rows
    .map((r, i) => ({ r, i, v: col.value(r) }))
    .sort((a, b) => {
      if (a.v === null && b.v === null) return a.i - b.i;
      if (a.v === null) return 1;
      if (b.v === null) return -1;
      const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v));
      return c !== 0 ? c * sign : a.i - b.i;
    })
    .map((x) => x.r);
}

/** Clicking a header: ascending first, then descending, on the same column. */
export function nextSort(current: SortState | null, key: string): SortState {
  if (current && current.key === key) return { key, dir: current.dir === 'ascending' ? 'descending' : 'ascending' };
  return { key, dir: 'ascending' };
}

/** The rows of a finished experiment: each run's figures as its record holds them (the terminal prints the same). */
export function experimentRows(e: Pick<Experiment, 'runs'> & Partial<Pick<Experiment, 'custom'>>): ResultRow[] {
  return e.runs.map((r) => ({
    run: r.index,
    figures: runFigures(r),
    arm: r.arm.label,
    ...(r.repetition !== undefined ? { repetition: r.repetition } : {}),
    share: r.share ?? null,
    ...(e.custom ? { own: customHeadline(r) } : {}),
  }));
}

/**
 * A cell as shown, '-' for missing (never a 0 it lacks): a count as every view prints it (figureText), a time or a
 * size in the unit that reads best (0.0000029 ms -> "2.9 ns", 1536 B -> "1.5 KB"; the header names the quantity).
 */
export function formatCell(v: number | string | null, unit = ''): string {
  if (v === null) return '-';
  if (typeof v === 'string') return v;
  return unit ? quantityText(v, unit, { inTable: true }) : figureText(v);
}

/** One side of a compared figure: its number, or 'n/a' when the figure does not apply to that run (f.note says why). */
export function comparedText(f: ComparedFigure, side: 'a' | 'b'): string {
  const v = f[side];
  if (v === null) return f.note ? 'n/a' : '';
  return quantityText(v, f.unit, { inTable: true });
}

/**
 * A compared figure's row header and the unit beside it, said once: a time or a size carries its unit in the cells
 * ("2.9 µs"), so "WRITELOG wait ms per row" reads "WRITELOG wait time per row"; a count's unit stays in the header.
 */
export function comparedLabel(f: Pick<ComparedFigure, 'label' | 'unit'>): { label: string; unit: string } {
  const label = timeLabel(f.label);
  if (!f.unit || label.includes('per row')) return { label, unit: '' };
  const kind = quantityKind(f.unit);
  const { base, per } = splitUnit(f.unit);
  // A time or a size says its unit in the cells; a count named by its label ("XDESMGR spins") keeps only its "/s".
  if (kind === 'duration' || kind === 'bytes' || (base && label.endsWith(` ${base}`))) return { label, unit: per ? `/${per}` : '' };
  return { label, unit: f.unit };
}

/** Raw numbers (no grouping) so a spreadsheet reads them as numbers. */
function tsvCell(v: number | string | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  return v.replace(/[\t\r\n]+/g, ' ');
}

export function toTsv(columns: readonly ResultColumn[], rows: readonly ResultRow[]): string {
  // Raw numbers in the column's own unit, which the header names.
  const lines = [columns.map((c) => tsvCell(c.unit ? `${c.label} (${c.unit})` : c.label)).join('\t')];
  for (const r of rows) lines.push(columns.map((c) => tsvCell(c.value(r))).join('\t'));
  return `${lines.join('\n')}\n`;
}
