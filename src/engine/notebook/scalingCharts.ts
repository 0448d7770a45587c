// The notebook's scaling charts: throughput, spins per row and wait ms per row against threads, one line per arm (or
// per experiment when none has arms). Repeated runs draw each cell's geometric mean with its 95% interval as a band
// around the throughput line (shared/repeats armCells, the figures the tables print); one run per cell draws the
// runs' own points as before.
import type { Experiment } from '../../shared/experiment';
import { scalingCurve } from '../../shared/analysis';
import { armsInOrder, overlayScaling } from '../../shared/armAnalysis';
import { armCells, cellEstimate, isRepeated, namedFigure, type CellPoint, type FigureEstimate } from '../../shared/repeats';
import type { SeriesPayload } from '../../shared/seriesPayload';

type Point = [number, number];
type Series = SeriesPayload['series'][number];

const at = (ps: readonly CellPoint[], pick: (p: CellPoint) => FigureEstimate): Point[] =>
  ps.flatMap((p) => {
    const v = pick(p).value;
    return v === null ? [] : [[p.threads, v] as Point];
  });
const band = (ps: readonly CellPoint[]): [number, number, number][] =>
  ps.flatMap((p) =>
    p.rowsPerSec.interval ? [[p.threads, p.rowsPerSec.interval.low, p.rowsPerSec.interval.high] as [number, number, number]] : [],
  );

interface ArmLines {
  rows: Series;
  spins: Series;
  waits: Series;
}

/** Each arm's three lines; repeated runs give the cells' geometric means and a band on throughput. */
function armLines(e: Experiment, prefix: string): ArmLines[] {
  const name = (arm: string) => `${prefix ? prefix + ' ' : ''}${arm}`;
  if (isRepeated(e.runs))
    return armCells(e.runs).map((a) => ({
      rows: { name: name(a.label), points: at(a.points, (p) => p.rowsPerSec), band: band(a.points) },
      spins: { name: name(a.label), points: at(a.points, (p) => p.spinsPerRow) },
      waits: { name: name(a.label), points: at(a.points, (p) => p.waitMsPerRow) },
    }));
  return overlayScaling(e.id, armsInOrder(e.runs), e.runs).arms.map((a) => ({
    rows: { name: name(a.label), points: a.curve.points.map((p) => [p.threads, p.rowsPerSec] as Point) },
    spins: { name: name(a.label), points: a.curve.points.map((p) => [p.threads, p.spinsPerRow] as Point) },
    waits: { name: name(a.label), points: a.curve.points.map((p) => [p.threads, a.waitMsPerRow[p.threads] ?? 0] as Point) },
  }));
}

/** A sweep of one arm: throughput (with its band when repeated) and the top spinlocks' spins per row. */
function sweepLines(e: Experiment, prefix: string): { rows: Series; spins: Series[] } {
  const c = scalingCurve(e);
  if (isRepeated(e.runs)) {
    const pts = armCells(e.runs).flatMap((a) => a.points);
    return {
      rows: { name: prefix || 'rows/s', points: at(pts, (p) => p.rowsPerSec), band: band(pts) },
      spins: c.topSpinlocks.map((n) => ({
        name: `${prefix ? prefix + ' ' : ''}${n}`,
        points: at(pts, (p) => cellEstimate(p.cell, namedFigure('spinsPerRow', n))),
      })),
    };
  }
  return {
    rows: { name: prefix || 'rows/s', points: c.points.map((p) => [p.threads, p.rowsPerSec] as Point) },
    spins: c.topSpinlocks.map((n) => ({
      name: `${prefix ? prefix + ' ' : ''}${n}`,
      points: c.points.map((p) => [p.threads, p.bySpinlock[n] ?? 0] as Point),
    })),
  };
}

/** The scaling charts of the experiments that swept thread counts (by arm when a preset's arms were swept). */
export function scalingCharts(experiments: readonly Experiment[], label: (e: Experiment) => string): SeriesPayload[] {
  const sweeps = experiments.filter((e) => new Set(e.runs.map((r) => r.threads)).size >= 2);
  const armSweeps = sweeps.filter((e) => new Set(e.runs.map((r) => r.arm?.id)).size > 1);
  const chart = (title: string, yLabel: string, series: Series[]): SeriesPayload => ({
    title,
    xLabel: 'threads',
    yLabel,
    kind: 'scaling',
    series,
  });
  if (armSweeps.length) {
    const lines = armSweeps.flatMap((e) => armLines(e, label(e)));
    return [
      chart(
        'Scaling by arm: throughput against threads',
        'rows per second',
        lines.map((l) => l.rows),
      ),
      chart(
        'Scaling by arm: spins per row against threads',
        'spins per row',
        lines.map((l) => l.spins),
      ),
      chart(
        'Scaling by arm: wait ms per row against threads',
        'wait ms per row',
        lines.map((l) => l.waits),
      ),
    ];
  }
  if (!sweeps.length) return [];
  const lines = sweeps.map((e) => sweepLines(e, label(e)));
  return [
    chart(
      'Scaling: throughput against threads',
      'rows per second',
      lines.map((l) => l.rows),
    ),
    chart(
      'Scaling: spins per row against threads',
      'spins per row',
      lines.flatMap((l) => l.spins),
    ),
  ];
}
