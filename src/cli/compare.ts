// spinlab compare A B: two saved experiments, B against A, cell by cell (an arm at a thread count over its
// repetitions): the throughput verdict from its interval, and each figure that moved with its B/A ratio and interval.
import type { Command } from 'commander';
import { readExperimentFile } from '../engine/notebook/export';
import { cellName, compareExperiments, type ExperimentComparison } from '../shared/experimentCompare';
import { comparisonMethodText, estimateText, PRIMARY_NAMES, primaryKey, type RepeatedFigure } from '../shared/repeats';
import { ratioCell } from '../engine/presetViews/table';
import { NO_VERDICT } from '../shared/runPairing';
import { UsageError } from './commands';
import { checkedPrimary } from './primaryName';

/**
 * The primary figure always; any other only when it is called different after Holm's adjustment. Backoffs move with
 * their spins and transactions with the rows, as in the A/B summary: they are left out.
 */
const shown = (f: RepeatedFigure) =>
  f.primary || (f.key !== 'transactionsPerSec' && !f.key.startsWith('backoffsPerRow:') && f.differs && f.ratio.ratio !== null);

export function comparisonText(c: ExperimentComparison, a: string, b: string): string {
  const lines = [`B against A\n  A: ${a}\n  B: ${b}`];
  // Different workloads: the figures side by side, every one, with no ratio and no verdict.
  const apart = c.note !== null;
  if (apart) lines.push(`  Note: ${c.note}`, `  ${NO_VERDICT}`);
  for (const cell of c.cells) {
    const rows = cell.comparison.figures
      .filter((f) => apart || shown(f))
      .map((f) => [`${f.label} (${f.unit})`, estimateText(f.a), estimateText(f.b), ...(apart ? [] : [ratioCell(f.ratio)])]);
    const head = ['figure', 'A', 'B', ...(apart ? [] : ['B/A [interval]'])];
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r: string[]) => `    ${r.map((x, i) => x.padEnd(w[i])).join('  ')}`.trimEnd();
    lines.push(
      `\nAt ${cellName(cell)} (${cell.a.runs.length} run${cell.a.runs.length === 1 ? '' : 's'} in A, ${cell.b.runs.length} in B)`,
      ...(apart ? [] : cell.comparison.summary.map((s) => `  ${s}`)),
      line(head),
      ...rows.map(line),
      ...(apart ? [] : [`  ${comparisonMethodText(cell.comparison.figures)}`]),
    );
  }
  if (c.onlyA.length) lines.push(`\nOnly in A: ${c.onlyA.map(cellName).join('; ')}`);
  if (c.onlyB.length) lines.push(`${c.onlyA.length ? '' : '\n'}Only in B: ${c.onlyB.map(cellName).join('; ')}`);
  return lines.join('\n') + '\n';
}

export function addCompareCommand(program: Command, out: (s: string) => void): void {
  program
    .command('compare')
    .description('compare two saved experiments, B against A, at each arm and thread count both ran: ratios with 95% intervals')
    .argument('<A>', 'the first experiment (A): the folder a run wrote, or its experiment.json')
    .argument('<B>', 'the second (B), compared against A')
    .option('--primary <figure>', `the figure the verdict rests on (default throughput): ${PRIMARY_NAMES}`)
    .action((a: string, b: string, o: { primary?: string }) => {
      const key = o.primary === undefined ? undefined : primaryKey(o.primary);
      if (key === null) throw new UsageError(`--primary "${o.primary}" names no figure; name one of: ${PRIMARY_NAMES}.`);
      const ea = readExperimentFile(a);
      const eb = readExperimentFile(b);
      if (ea.id === eb.id)
        throw new UsageError(
          `A and B are the same experiment (${ea.id}${a === b ? '' : `, in ${a} and ${b}`}): its runs against themselves say nothing; give two different experiments (a re-run with \`spinlab rerun\`, or a run with --out DIR).`,
        );
      const primary = key === undefined ? undefined : checkedPrimary(key, o.primary!, [ea, eb]);
      const c = compareExperiments(ea, eb, 5, primary);
      if (!c.cells.length) {
        const has = (x: ExperimentComparison['onlyA']) => (x.length ? x.map(cellName).join('; ') : 'no completed run');
        throw new UsageError(
          `${a} and ${b} have no arm at a thread count in common to compare (A: ${has(c.onlyA)}; B: ${has(c.onlyB)}); run B with A's arms and --threads.`,
        );
      }
      out(comparisonText(c, `${ea.title} (${a})`, `${eb.title} (${b})`));
    });
}
