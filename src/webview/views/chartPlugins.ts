// chart.js plugins every chart of the panel has: "No data yet" in place of empty 0-1 axes, and named marks drawn as
// annotations (a dashed vertical line with its name at the top), plus the wall-clock x axis of a watch.
import type { Chart, Plugin } from 'chart.js';

export interface ChartMark {
  /** x in the chart's own units (seconds from the start). */
  x: number;
  label: string;
}

/** What a chart reads from its options.plugins (set by its owner; none by default). */
export interface AnnotationOptions {
  marks?: readonly ChartMark[];
  /** The colour of the marks' lines and names (a theme colour). */
  color?: string;
}

export const NO_DATA_TEXT = 'No data yet';

/** What a chart's plugin options may say about it (options.plugins.noData). */
export interface NoDataOptions {
  /** false: one point is worth drawing (the scaling curve's lone thread count). */
  oneSample?: boolean;
}

export type ChartSaysKind = 'empty' | 'one-sample' | 'flat';

/**
 * Words in place of a chart that has nothing to show: no points ("No data yet"), one sample (a line needs two; its
 * axes would run 0 to 1), or every series at 0 (its ticks would read "0.2 B ... 1 B"). Null: draw the chart.
 */
export function chartSays(
  datasets: readonly { data: readonly { x: number; y: number | null }[] }[],
  o: NoDataOptions = {},
): { kind: ChartSaysKind; text: string } | null {
  let most = 0;
  let moved = false;
  for (const d of datasets) {
    // Samples, not points: a live chart's min/max bucket holds one sample as two points at the same x.
    let xs = 0;
    for (let i = 0; i < d.data.length && xs < 2; i++) if (i === 0 || d.data[i].x !== d.data[i - 1].x) xs++;
    most = Math.max(most, xs);
    if (!moved) moved = d.data.some((p) => p.y !== null && p.y !== 0);
  }
  if (most === 0) return { kind: 'empty', text: NO_DATA_TEXT };
  if (most === 1 && o.oneSample !== false) return { kind: 'one-sample', text: 'One sample so far: a line needs two' };
  if (!moved) return { kind: 'flat', text: 'Nothing moved: every series stayed at 0' };
  return null;
}

function saysOf(chart: Chart, o: NoDataOptions | undefined): ReturnType<typeof chartSays> {
  const shown = chart.data.datasets.filter((_ds, i) => chart.isDatasetVisible(i)) as unknown as {
    data: { x: number; y: number | null }[];
  }[];
  return chartSays(shown, o ?? {});
}

/**
 * An empty chart draws only "No data yet" (no axes that say 0 to 1), one of one sample or of all zeros says that
 * instead (chartSays); data-empty and data-says tell tests and styles, and
 * data-x-ticks the x axis's tick values after each full update (its labels are drawn on the canvas).
 */
export const noDataPlugin: Plugin = {
  id: 'noData',
  afterUpdate(chart) {
    const canvas = chart.canvas as unknown as { dataset: Record<string, string | undefined> } | null;
    const x = chart.scales.x;
    if (!canvas || !x) return;
    const ticks = x.ticks.map((t) => String(Number(t.value.toFixed(3)))).join(' ');
    if (canvas.dataset.xTicks !== ticks) canvas.dataset.xTicks = ticks;
  },
  beforeDraw(chart, _args, options: NoDataOptions) {
    const says = saysOf(chart, options);
    const empty = says?.kind === 'empty';
    const canvas = chart.canvas as unknown as { dataset: Record<string, string | undefined> } | null;
    if (canvas && canvas.dataset.empty !== String(empty)) canvas.dataset.empty = String(empty);
    // data-says: what the chart says instead of drawing (empty, one-sample, flat), '' when it draws.
    if (canvas && canvas.dataset.says !== (says?.kind ?? '')) canvas.dataset.says = says?.kind ?? '';
    if (!says) return true;
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.clearRect(0, 0, width, height);
    const defaults = (chart.options.font ?? {}) as { family?: string; size?: number };
    ctx.font = `${(defaults.size ?? 12) + 1}px ${defaults.family ?? 'sans-serif'}`;
    ctx.fillStyle = String(chart.options.color ?? '#888');
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(says.text, width / 2, height / 2);
    ctx.restore();
    return false;
  },
};

/** The chart's marks as annotations: a dashed vertical line at each mark's x, its name beside the line's top. */
export const marksPlugin: Plugin = {
  id: 'marks',
  afterDatasetsDraw(chart, _args, options: AnnotationOptions) {
    const marks = options.marks ?? [];
    const x = chart.scales.x;
    const canvas = chart.canvas as unknown as { dataset: Record<string, string | undefined> } | null;
    let drawn = 0;
    if (!marks.length || !x) {
      if (canvas && canvas.dataset.marks) delete canvas.dataset.marks;
      return;
    }
    const { top, bottom, left, right } = chart.chartArea;
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = options.color ?? String(chart.options.color ?? '#888');
    ctx.fillStyle = ctx.strokeStyle;
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 3]);
    ctx.font = `${Math.max(10, ((chart.options.font ?? {}) as { size?: number }).size ?? 11)}px sans-serif`;
    ctx.textBaseline = 'top';
    for (const m of marks) {
      const px = x.getPixelForValue(m.x);
      if (!(px >= left && px <= right)) continue;
      ctx.beginPath();
      ctx.moveTo(px, top);
      ctx.lineTo(px, bottom);
      ctx.stroke();
      // The name to the right of the line, or to its left when it would leave the plot.
      const w = ctx.measureText(m.label).width;
      const onLeft = px + 4 + w > right;
      ctx.textAlign = onLeft ? 'right' : 'left';
      ctx.fillText(m.label, onLeft ? px - 4 : px + 4, top + 2);
      drawn++;
    }
    ctx.restore();
    // The marks drawn, for tests (the canvas holds only pixels).
    if (canvas && canvas.dataset.marks !== String(drawn)) canvas.dataset.marks = String(drawn);
  },
};

/** Seconds between ticks of a clock axis: round steps of the clock, at most `max` ticks over the span. */
const CLOCK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600];

/**
 * Tick values (seconds from the start) that fall on round times of day: with the start at 12:03:07.4 and a 2-minute
 * span, 12:03:10, 12:03:30, ... offsetMs: the local time zone's offset, so a 15-minute step lands on :00, :15, :30.
 */
export function clockTicks(min: number, max: number, startMs: number, maxTicks = 7, offsetMs = 0): number[] {
  const span = Math.max(0, max - min);
  const step = CLOCK_STEPS.find((s) => span / s <= maxTicks - 1) ?? CLOCK_STEPS[CLOCK_STEPS.length - 1];
  const local = (startMs - offsetMs) / 1000;
  const first = Math.ceil((local + min - 1e-9) / step) * step - local;
  const out: number[] = [];
  for (let v = first; v <= max + 1e-9 && out.length < 1000; v += step) out.push(Number(v.toFixed(3)));
  return out;
}

/** Local time of day, HH:MM:SS, of the second `x` from the start. */
export function clockLabel(x: number, startMs: number): string {
  const d = new Date(startMs + x * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
