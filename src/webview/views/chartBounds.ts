// Axis bounds held with headroom, and the data-only redraw they allow. A live chart whose x max is rounded up (to the
// next 10 s .. 1 h step) and whose y max is the next "nice" number keeps the same scales for most ticks; such a tick
// needs only its datasets' elements updated and the canvas drawn, not chart.js's whole update() (options resolved
// again, every scale and box laid out again): most of a tick's cost.
import type { Chart } from 'chart.js';
import { drawOverBackdrop } from './chartBackdrop';

type Points = { x: number; y: number }[];
export interface Bounds {
  xMin: number;
  xMax: number;
  y: number;
  y1: number | null;
}

const X_STEPS = [10, 30, 60, 300, 600, 1800, 3600];

/** The smallest step of at least 1% of the span, so the blank space after the last point stays small. */
export function xHeadroom(first: number, last: number): number {
  const span = Math.max(0, last - first);
  const step = X_STEPS.find((s) => s >= span / 100) ?? X_STEPS[X_STEPS.length - 1];
  return Math.ceil((last + 1e-9) / step) * step;
}

/** The next of 1, 2, 2.5, 5 x 10^k at or above v (1 for nothing above zero). */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v * (1 - 1e-12)) return m * p;
  return 10 * p;
}

/**
 * The bounds to show: null when a point lies below zero (the axes then fit the data themselves, as before).
 * live: x max with headroom; otherwise the last x itself.
 */
export function boundsOf(datasets: { data: Points; hidden?: boolean; yAxisID?: string }[], live: boolean): Bounds | null {
  let xMin = Infinity;
  let xMax = -Infinity;
  let y = 0;
  let y1 = 0;
  let hasY1 = false;
  for (const ds of datasets) {
    const d = ds.data;
    if (d.length) {
      xMin = Math.min(xMin, d[0].x);
      xMax = Math.max(xMax, d[d.length - 1].x);
    }
    const right = ds.yAxisID === 'y1';
    hasY1 ||= right;
    if (ds.hidden) continue;
    let m = 0;
    for (let i = 0; i < d.length; i++) {
      const v = d[i].y;
      if (v < 0) return null;
      if (v > m) m = v;
    }
    if (right) y1 = Math.max(y1, m);
    else y = Math.max(y, m);
  }
  if (xMin === Infinity) return null;
  return {
    xMin,
    xMax: live ? xHeadroom(xMin, xMax) : Math.max(xMax, xMin + 1),
    y: niceCeil(y * 1.02),
    y1: hasY1 ? niceCeil(y1 * 1.02) : null,
  };
}

export function sameBounds(a: Bounds | null, b: Bounds | null): boolean {
  return a !== null && b !== null && a.xMin === b.xMin && a.xMax === b.xMax && a.y === b.y && a.y1 === b.y1;
}

/** Writes the bounds into the chart's scale options (or clears them: null); a full update() must follow. */
export function applyBounds(chart: Chart, b: Bounds | null): void {
  const scales = (chart.options.scales ?? {}) as Record<string, { min?: number; max?: number }>;
  const set = (id: string, min: number | undefined, max: number | undefined) => {
    const s = scales[id];
    if (!s) return;
    s.min = min;
    s.max = max;
  };
  set('x', b?.xMin, b?.xMax);
  set('y', b ? 0 : undefined, b?.y);
  set('y1', b?.y1 != null ? 0 : undefined, b?.y1 ?? undefined);
}

/**
 * What chart.js's update() does for each dataset (its elements resynced with the data, then positioned), then a draw:
 * the lines over the kept backdrop (chartBackdrop.ts). `from`: the first point that may have changed; the points
 * before it kept their data, and no scale moved, so their pixels stand (a live tick rewrites only its last bucket).
 */
interface DatasetControllerInternals {
  buildOrUpdateElements(reset: boolean): void;
  _update(mode: string): void;
  _getSharedOptions(start: number, mode: string): { sharedOptions: unknown };
  _drawStart: number;
  _drawCount: number;
}
export function redrawDataOnly(chart: Chart, from = 0): void {
  for (let i = 0; i < chart.data.datasets.length; i++) {
    const c = chart.getDatasetMeta(i).controller as unknown as DatasetControllerInternals;
    c.buildOrUpdateElements(false);
    if (from > 0 && updateTail(chart, i, c, from)) continue;
    c._update('none');
  }
  drawOverBackdrop(chart);
}

/** A point element as chart.js's line controller writes it in an update without animation. */
interface PointProps {
  x: number;
  y: number;
  skip: boolean;
  stop: boolean;
  options: unknown;
}

/**
 * The line controller's update for points from..end only (its own loop marks every point outside the range skipped):
 * the same pixels, skip and shared options; the line's cached path dropped. False when the chart needs the whole
 * update (a gap limit, a segment style, points outside the x bounds).
 */
function updateTail(chart: Chart, i: number, c: DatasetControllerInternals, from: number): boolean {
  const meta = chart.getDatasetMeta(i);
  const points = meta.data as unknown as PointProps[];
  const data = chart.data.datasets[i].data as unknown as Points;
  const opts = (meta.dataset?.options ?? {}) as { spanGaps?: unknown; segment?: unknown };
  const x = meta.iScale;
  const y = meta.vScale;
  if (!meta.dataset || !x || !y || opts.segment || opts.spanGaps !== true || points.length !== data.length || from > points.length)
    return false;
  // Every point inside the x bounds (they hold the first and last x): drawn from 0, all of them.
  if (c._drawStart !== 0 || (points.length && (data[0].x < x.min || data[data.length - 1].x > x.max))) return false;
  c._drawCount = points.length;
  const shared = c._getSharedOptions(from, 'none').sharedOptions;
  if (!shared) return false;
  for (let k = from; k < points.length; k++) {
    const p = points[k];
    const d = data[k];
    const nullData = d.y === null || d.y === undefined;
    p.x = x.getPixelForValue(d.x, k);
    p.y = nullData ? y.getBasePixel() : y.getPixelForValue(d.y, k);
    p.skip = Number.isNaN(p.x) || Number.isNaN(p.y) || nullData;
    p.stop = false;
    p.options = shared;
  }
  // Setting the points drops the line's cached path and segments, which the moved points invalidate.
  (meta.dataset as unknown as { points: unknown }).points = points;
  return true;
}
