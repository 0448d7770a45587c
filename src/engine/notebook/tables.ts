// The notebook's tables: a table as an output (HTML for notebook viewers, plain text beside it) and the rows of an
// experiment's results table, in the unit its scenario counts. Apart from write.ts, which orders the cells; the watch
// notebook (engine/watch/notebook.ts) uses tableOutput too.
import type { Experiment } from '../../shared/experiment';
import { runFigures, topNames, formatNumber } from '../../shared/analysis';
import { figureText } from '../../shared/numberText';
import { isRepeated } from '../../shared/repeats';
import { getScenario } from '../scenarios';
import { table } from '../textTable';
import { displayData, type DisplayDataOutput } from './nbformat';
import { escapeXml } from './svgChart';
import { othersBusy, type OwnShare } from '../../shared/ownShare';
import { customResultsRows } from './customTables';

function htmlTable(headers: string[], rows: string[][]): string {
  const th = headers.map((h) => `<th>${escapeXml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeXml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

export function tableOutput(headers: string[], rows: string[][]): DisplayDataOutput {
  return displayData({ 'text/html': htmlTable(headers, rows), 'text/plain': table(headers, rows) });
}

export function resultsRows(e: Experiment): { headers: string[]; rows: string[][] } {
  if (e.custom) return customResultsRows(e, ownCpuText);
  const figs = e.runs.map(runFigures);
  const spin = topNames(
    figs.map((f) => f.spins),
    3,
  );
  const wait = topNames(
    figs.map((f) => f.waitMs),
    2,
  );
  const unit = getScenarioUnit(e);
  const one = unit.replace(/s$/, '');
  const shared = e.runs.some((r) => r.share);
  const armed = e.runs.some((r) => r.arm && r.arm.id !== 'main');
  const repeated = isRepeated(e.runs);
  const headers = [
    'run',
    ...(armed ? ['arm'] : []),
    'threads',
    ...(repeated ? ['repetition'] : []),
    'status',
    'elapsed s',
    unit,
    `${unit}/s`,
    ...(shared ? ['own CPU %'] : []),
    `CPU ms/${one} (server-wide)`,
    ...spin.map((n) => `${n} spins/${one} (server-wide)`),
    ...wait.map((n) => `${n} ms/${one} (server-wide)`),
    'p99 µs',
  ];
  const rows = e.runs.map((r, i) => {
    const f = figs[i];
    return [
      String(r.index + 1),
      ...(armed ? [r.arm.label] : []),
      String(r.threads),
      ...(repeated ? [String(r.repetition ?? 1)] : []),
      r.status,
      f.elapsedSec.toFixed(1),
      figureText(f.rows),
      figureText(f.rowsPerSec),
      ...(shared ? [ownCpuText(r.share)] : []),
      f.cpuMsPerRow === null ? '-' : formatNumber(f.cpuMsPerRow),
      ...spin.map((n) => formatNumber(f.spinsPerRow[n] ?? 0)),
      ...wait.map((n) => formatNumber(f.waitMsPerRow[n] ?? 0)),
      f.p99Us === null ? '-' : formatNumber(f.p99Us),
    ];
  });
  return { headers, rows };
}

/** The workload's own share of the server's CPU, as the results tables print it ("13% (others busy)"). */
function ownCpuText(s: OwnShare | null | undefined): string {
  if (!s || s.cpu === null) return '-';
  return `${Math.round(s.cpu * 100)}%${othersBusy(s) ? ' (others busy)' : ''}`;
}

/** The unit a scenario counts (rows, or its own); rows when the scenario is not known here. */
export function getScenarioUnit(e: Experiment): string {
  try {
    return getScenario(e.scenario.id).unit ?? 'rows';
  } catch {
    return 'rows';
  }
}
