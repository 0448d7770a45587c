// The scaling view: each arm's throughput, spins per row (all spinlocks) and wait ms per row (benign excluded) by
// thread count. Repeated runs show each as a geometric mean with its 95% interval (shared/repeats armCells), and each
// arm's gain from the fewest to the most threads as a ratio with its interval; one run per cell shows the curves as
// they always were.
import type { Experiment } from '../../shared/experiment';
import { armsInOrder, overlayScaling } from '../../shared/armAnalysis';
import { figureText } from '../../shared/numberText';
import { armCells, estimateText, type ArmCells } from '../../shared/repeats';
import { scalingGainText } from '../../shared/scalingWords';
import { methodLine } from './repeats';
import { estimateCell, small, type ViewTable } from './table';
import { plural } from '../../shared/plural';

const TITLE = 'Scaling: throughput, spins per row (all spinlocks) and wait ms per row (benign excluded) by thread count';

/** One arm's curve in a sentence: where it peaks, and what the most threads give against the fewest, with intervals. */
function armLine(a: ArmCells, unit: string): string {
  const pts = a.points;
  if (!pts.length) return `${a.id} = ${a.label}: no completed runs with rows.`;
  const peak = pts.reduce((m, p) => ((p.rowsPerSec.value ?? 0) > (m.rowsPerSec.value ?? 0) ? p : m));
  const parts = [`throughput peaks at ${plural(peak.threads, 'thread')} (${estimateText(peak.rowsPerSec)} ${unit}/s)`];
  const [first, last] = [pts[0], pts[pts.length - 1]];
  if (pts.length > 1) {
    const gain = scalingGainText(
      { threads: first.threads, values: first.rowsPerSec.values },
      { threads: last.threads, values: last.rowsPerSec.values },
      unit,
    );
    if (gain) parts.push(gain);
  }
  return `${a.id} = ${a.label}: ${parts.join('; ')}.`;
}

export function scalingView(e: Experiment, unit: string, repeated: boolean): ViewTable {
  if (!repeated) {
    const ov = overlayScaling(e.id, armsInOrder(e.runs), e.runs);
    return {
      kind: 'scaling',
      title: TITLE,
      headers: ['threads', ...ov.arms.flatMap((a) => [`${a.id} ${unit}/s`, `${a.id} spins/row`, `${a.id} wait ms/row`])],
      rows: ov.threads.map((t) => [
        String(t),
        ...ov.arms.flatMap((a) => {
          const p = a.curve.points.find((x) => x.threads === t);
          return p ? [figureText(p.rowsPerSec), small(p.spinsPerRow), small(a.waitMsPerRow[t] ?? 0)] : ['-', '-', '-'];
        }),
      ]),
      lines: ov.arms.map((a) => `${a.id} = ${a.label}: ${a.summary}`),
    };
  }
  const arms = armCells(e.runs);
  const threads = [...new Set(arms.flatMap((a) => a.points.map((p) => p.threads)))].sort((x, y) => x - y);
  return {
    kind: 'scaling',
    title: `${TITLE}: geometric mean [95% interval]`,
    headers: ['threads', ...arms.flatMap((a) => [`${a.id} ${unit}/s`, `${a.id} spins/row`, `${a.id} wait ms/row`])],
    rows: threads.map((t) => [
      String(t),
      ...arms.flatMap((a) => {
        const p = a.points.find((x) => x.threads === t);
        return p ? [estimateCell(p.rowsPerSec), estimateCell(p.spinsPerRow), estimateCell(p.waitMsPerRow)] : ['-', '-', '-'];
      }),
    ]),
    lines: [
      ...arms.map((a) => armLine(a, unit)),
      methodLine(arms.flatMap((a) => a.points.flatMap((p) => [p.rowsPerSec, p.spinsPerRow, p.waitMsPerRow]))),
    ],
  };
}
