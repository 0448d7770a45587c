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
 * the lines over the kept backdrop (chartBackdrop.ts).
 */
interface DatasetControllerInternals {
  buildOrUpdateElements(reset: boolean): void;
  _update(mode: string): void;
}
export function redrawDataOnly(chart: Chart): void {
  for (let i = 0; i < chart.data.datasets.length; i++) {
    const c = chart.getDatasetMeta(i).controller as unknown as DatasetControllerInternals;
    c.buildOrUpdateElements(false);
    c._update('none');
  }
  drawOverBackdrop(chart);
}
