// A live chart's backdrop (its axes, grid, tick labels and titles: everything chart.js draws before the datasets)
// kept as a bitmap, so a tick that moves no scale redraws only the lines. chart.js's render() draws the whole chart
// every time, and the text and grid were two thirds of a tick's drawing on six charts. The bitmap is taken while a
// data-only redraw falls back to render() (chartBounds.ts) and dropped by any other draw (an update, a resize, a
// tooltip, a zoom), so it always holds what render() would draw under the datasets now.
import type { Chart, Plugin } from 'chart.js';

/** The canvas type as chart.js names it (this module is also compiled without the DOM's types, for the unit tests). */
type Canvas = Chart['canvas'];

interface Backdrop {
  canvas: Canvas | null;
  /** The bitmap matches the chart's canvas as its last full draw left it. */
  valid: boolean;
  /** The draw now running is to be taken as the backdrop. */
  capture: boolean;
  /** The bitmap's context, asked for once (getContext was a tenth of a capture). */
  ctx: Chart['ctx'] | null;
}

const backdrops = new WeakMap<Chart, Backdrop>();

function backdropOf(chart: Chart): Backdrop {
  let b = backdrops.get(chart);
  if (!b) backdrops.set(chart, (b = { canvas: null, valid: false, capture: false, ctx: null }));
  return b;
}

/** What chart.js keeps private and a data-only draw needs. */
interface ChartInternals {
  _resizeBeforeDraw: unknown;
  _layers: { z: number }[];
  _drawDatasets(): void;
}

/** Registered before the other plugins, so its beforeDraw runs even when one of them cancels the draw. */
export const backdropPlugin: Plugin = {
  id: 'backdrop',
  beforeDraw(chart) {
    backdropOf(chart).valid = false;
  },
  beforeDatasetsDraw(chart) {
    const b = backdropOf(chart);
    if (!b.capture) return;
    const src = chart.canvas;
    const doc = (src as unknown as { ownerDocument: { createElement(tag: 'canvas'): Canvas } }).ownerDocument;
    const canvas = (b.canvas ??= doc.createElement('canvas'));
    if (canvas.width !== src.width) canvas.width = src.width;
    if (canvas.height !== src.height) canvas.height = src.height;
    const ctx = (b.ctx ??= canvas.getContext('2d'));
    if (!ctx) return;
    ctx.globalCompositeOperation = 'copy';
    ctx.drawImage(src, 0, 0);
    b.valid = true;
  },
};

/**
 * Draws the chart as render() would, its datasets over the kept backdrop when there is one; otherwise render(),
 * keeping its backdrop for the next time. The caller has brought the datasets' elements up to date and knows no
 * scale moved since the last full draw.
 */
export function drawOverBackdrop(chart: Chart): void {
  const b = backdropOf(chart);
  const c = chart as unknown as ChartInternals;
  const canvas = chart.canvas;
  const usable =
    b.valid &&
    b.canvas !== null &&
    b.canvas.width === canvas.width &&
    b.canvas.height === canvas.height &&
    !c._resizeBeforeDraw &&
    c._layers.every((l) => l.z <= 0);
  if (!usable || !b.canvas) {
    b.capture = true;
    try {
      chart.render();
    } finally {
      b.capture = false;
    }
    return;
  }
  const ctx = chart.ctx;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(b.canvas, 0, 0);
  ctx.restore();
  c._drawDatasets();
  chart.notifyPlugins('afterDraw');
}
