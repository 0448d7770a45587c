// The A/B view of a preset's comparison: arm B against arm A at the most threads both ran. Repeated runs compare
// cells (shared/repeats compareArmCells): each side a geometric mean with its 95% interval, B/A a ratio with its
// interval, and the verdict first, in words that follow from the interval. One run per cell keeps the table of
// changes it always had, and says that it has no interval.
import type { PresetInfo, RunRecord } from '../../shared/experiment';
import { compareArms } from '../../shared/armAnalysis';
import { compareArmCells, comparisonMethodText, methodText, oneRunPerCell, type RatioMethod } from '../../shared/repeats';
import { estimateCell, ratioCell, small, type ViewTable } from './table';
import { plural } from '../../shared/plural';

type Comparison = NonNullable<PresetInfo['comparisons']>[number];

/** One side of an A/B figure: 'n/a' where the figure does not apply (its note, said in the summary, tells why). */
const side = (v: number | null, note: string | undefined): string => (v === null && note ? 'n/a' : small(v));
const pct = (v: number | null): string => (v === null ? '-' : `${v > 0 ? '+' : ''}${v.toFixed(1)}%`);

const RATIO_METHOD: Record<RatioMethod, string> = {
  'welch-log': "the ratio of geometric means with Welch's t 95% interval on the logarithms",
  'paired-log': 'the ratio of geometric means from the per-block log ratios (paired t), the arms having alternated A B, B A',
  'pooled-log': "the ratio of geometric means, its 95% interval from the repeated arm's spread (the other ran once)",
  rank: 'the ratio of means with an exact permutation interval (a repetition measured 0)',
  single: 'the ratio of one run each: no interval',
  none: 'no ratio',
};

/** The A/B view of one run per cell: each figure's change in percent, as before repetitions. */
function singleView(runs: readonly RunRecord[], c: Comparison): ViewTable {
  const at = compareArms(runs, c.a, c.b);
  const last = at[at.length - 1];
  return {
    kind: 'ab',
    title: `A/B: ${c.label}${last ? `, at ${plural(last.threads, 'thread')}` : ''}`,
    headers: ['figure', 'A', 'B', 'change'],
    rows: last
      ? last.comparison.figures
          .filter((f) => f.key !== 'threads')
          .map((f) => [`${f.label}${f.unit ? ` (${f.unit})` : ''}`, side(f.a, f.note), side(f.b, f.note), pct(f.changePct)])
      : [],
    lines: last
      ? [...last.summary, ...at.slice(0, -1).map((o) => `At ${plural(o.threads, 'thread')}: ${o.summary.join(' ')}`), oneRunPerCell(true)]
      : ['No thread count completed in both arms.'],
  };
}

/** The A/B view of repeated runs: A and B over their repetitions, B/A with its interval, the verdict first. */
function repeatedView(runs: readonly RunRecord[], c: Comparison): ViewTable {
  const at = compareArmCells(runs, c.a, c.b);
  const last = at[at.length - 1];
  if (!last)
    return {
      kind: 'ab',
      title: `A/B: ${c.label}`,
      headers: ['figure', 'A', 'B', 'B/A'],
      rows: [],
      lines: ['No thread count completed in both arms.'],
    };
  const tp = last.figures[0];
  const na = (s: string, v: number | null, note: string | undefined) => (v === null && note ? 'n/a' : s);
  return {
    kind: 'ab',
    title: `A/B: ${c.label}, at ${plural(last.threads, 'thread')}`,
    headers: ['figure', 'A [95% interval]', 'B [95% interval]', 'B/A [interval]'],
    rows: last.figures.map((f) => [
      `${f.label}${f.unit ? ` (${f.unit})` : ''}`,
      na(estimateCell(f.a), f.a.value, f.note),
      na(estimateCell(f.b), f.b.value, f.note),
      ratioCell(f.ratio),
    ]),
    lines: [
      ...last.summary,
      ...at.slice(0, -1).map((o) => `At ${plural(o.threads, 'thread')}: ${o.summary.join(' ')}`),
      `A: ${methodText(tp.a)}; B: ${methodText(tp.b)}; B/A: ${RATIO_METHOD[tp.ratio.method]}.`,
      comparisonMethodText(last.figures),
      ...[...new Set(last.figures.filter((f) => f.note && (f.a.value === null || f.b.value === null)).map((f) => f.note!))],
    ],
  };
}

export function abView(runs: readonly RunRecord[], c: Comparison, repeated: boolean): ViewTable {
  return repeated ? repeatedView(runs, c) : singleView(runs, c);
}
