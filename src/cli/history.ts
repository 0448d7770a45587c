// spinlab history DIR...: saved experiments of one workload lined up over time, per cell (an arm at a thread count),
// each experiment's throughput with its 95% interval and the change points marked with the shift and its interval
// (src/shared/regressionHistory.ts, the figures the panel's History view shows).
import type { Command } from 'commander';
import { loadExperiments, type Skipped } from '../engine/history/load';
import {
  changePointText,
  findCell,
  groupByWorkload,
  workloadHistory,
  type CellHistory,
  type HistoryChange,
  type WorkloadGroup,
  type WorkloadHistory,
} from '../shared/regressionHistory';
import { estimateText } from '../shared/repeats';
import type { Experiment } from '../shared/experiment';
import { SpinlabError } from '../shared/spinlabError';
import { UsageError } from './commands';

/** "2026-03-01 10:00" (UTC): the experiment's start as the table shows it. */
export const dateText = (iso: string) => iso.replace('T', ' ').slice(0, 16);

function table(rows: string[][]): string[] {
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `  ${r.map((x, i) => x.padEnd(w[i])).join('  ')}`.trimEnd());
}

const marker = (c: HistoryChange) => `${c.ratio < 1 ? '▼' : '▲'} ${changePointText(c)}`;

export function cellText(c: CellHistory): string {
  const changes = new Map(c.changes.map((x) => [x.index, x] as const));
  const rows = [
    ['date (UTC)', 'experiment', 'rows/s [95% interval]', 'runs', 'change point'],
    ...c.points.map((p, i) => [
      dateText(p.startedAt),
      p.experimentId,
      estimateText({ ...p.throughput, cv: null, values: [] }),
      String(p.throughput.n),
      changes.has(i) ? marker(changes.get(i)!) : '',
    ]),
  ];
  const summary = c.changes.length
    ? `${c.changes.length} change point${c.changes.length === 1 ? '' : 's'}: ${c.changes.map((x) => `${x.experimentId} ${x.ratio < 1 ? 'slower' : 'faster'}`).join('; ')}`
    : `No change point: the level held over ${c.points.length} experiment${c.points.length === 1 ? '' : 's'}`;
  return [`\nAt ${c.name}: ${summary}`, ...table(rows)].join('\n');
}

export function historyText(h: WorkloadHistory, only: CellHistory[] = h.cells): string {
  const lines = [`History of ${h.workload}: ${h.experiments} experiment${h.experiments === 1 ? '' : 's'}, oldest first`];
  if (h.servers.length > 1) lines.push(`  Ran on ${h.servers.length} servers (${h.servers.join(', ')}): a change may be the server's.`);
  if (h.note) lines.push(`  ${h.note}`);
  lines.push(
    "  Throughput is each experiment's geometric mean over its runs [95% interval]; a change point (E-divisive, permutation test at 1%) marks where the level moved, with the new level against the old [95% interval].",
  );
  for (const c of only) lines.push(cellText(c));
  return lines.join('\n') + '\n';
}

/** The refusal for experiments of several workloads: which, and how to see each. */
export function mixedWorkloads(groups: WorkloadGroup<Experiment>[]): string {
  const list = groups
    .map((g) => {
      const ids = g.experiments.map((e) => e.id);
      return `${g.workload}: ${ids.length} (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', ...' : ''})`;
    })
    .join('; ');
  return `These experiments ran ${groups.length} different workloads, and a history lines up one: ${list}. Give the folders of one workload, or add --by-workload for a history of each.`;
}

export interface HistoryOptions {
  cell?: string;
  json?: boolean;
  byWorkload?: boolean;
}

/** The command's output for these paths; skipped ones are reported through `skip`. */
export function historyCommand(paths: readonly string[], o: HistoryOptions, skip: (s: Skipped) => void): string {
  const loaded = loadExperiments(paths);
  loaded.skipped.forEach(skip);
  // Paths that are not there are a typo (usage); files that are there but unreadable are the files' fault.
  if (!loaded.experiments.length)
    throw new SpinlabError(
      loaded.skipped.every((s) => s.reason === 'does not exist') ? 'user-input' : 'files',
      `No experiment could be read from ${paths.join(', ')}: give the folders runs wrote (each holds experiment.json) or a folder of them, such as spinlab-results.`,
    );
  const groups = groupByWorkload(loaded.experiments);
  if (groups.length > 1 && !o.byWorkload) throw new UsageError(mixedWorkloads(groups));
  const histories = groups.map((g) => workloadHistory(g.experiments));
  const picked = histories.map((h) => {
    const c = o.cell ? findCell(h, o.cell) : null;
    return o.cell ? (c ? [c] : []) : h.cells;
  });
  if (o.cell && picked.every((p) => !p.length)) {
    const names = [...new Set(histories.flatMap((h) => h.cells.map((x) => `"${x.name}"`)))];
    throw new UsageError(`No cell "${o.cell}" in this history; it has ${names.join(', ')}.`);
  }
  if (o.json)
    return JSON.stringify({ histories: histories.map((h, i) => ({ ...h, cells: picked[i] })), skipped: loaded.skipped }, null, 2) + '\n';
  return histories.map((h, i) => historyText(h, picked[i])).join('\n');
}

export function addHistoryCommand(program: Command, out: (s: string) => void, err: (s: string) => void): void {
  program
    .command('history')
    .description(
      "saved experiments of one workload over time: each one's throughput [95% interval] per arm and thread count, with the change points marked (E-divisive)",
    )
    .argument(
      '<dir...>',
      'experiment folders (each holds experiment.json), their experiment.json, or a folder of them such as spinlab-results',
    )
    .option('--cell <name>', 'only this arm and thread count, e.g. "8 threads" ("8 threads, ARM" for a preset\'s arm, by its label or id)')
    .option('--by-workload', 'experiments of several workloads: a history of each (without it they are refused)')
    .option('--json', 'machine-readable output: { histories, skipped }')
    .action((dirs: string[], o: HistoryOptions) => {
      out(historyCommand(dirs, o, (s) => err(`spinlab history: skipped ${s.path}: ${s.reason}\n`)));
    });
}
