// One live chart's parts (its chart.js instance, series, legend and note) and what the view remembers about its last draw.
import type { MinMaxBuckets } from '../model/decimate';
import { clock } from '../model/format';
import type { ChartSpec } from '../model/metrics';
import type { SeriesSet } from '../model/series';
import type { ColorAssigner } from '../model/colors';
import type { Bounds } from './chartBounds';
import type { ChartLegend } from './chartLegend';
import type { Chart } from './chartSetup';

export interface Entry {
  spec: ChartSpec;
  chart: Chart<'line', { x: number; y: number }[]>;
  series: SeriesSet;
  colors: ColorAssigner;
  section: HTMLElement;
  controls: HTMLElement;
  note: HTMLElement;
  legend: ChartLegend;
  canvas: HTMLCanvasElement;
  range: { min: number; max: number } | null;
  /** On screen (or near it): drawn as ticks arrive. */
  visible: boolean;
  /** Holds fewer samples than its series: drawn when it comes into view. */
  stale: boolean;
  /** What the datasets hold of the live view: rewritten from bucket `count - 1` on while this still matches. */
  drawn: { view: MinMaxBuckets; generation: number; count: number; names: string[] } | null;
  /** The axis bounds last written into the chart's options by a full update() (null: none written). */
  bounds: Bounds | null;
}

/** Buckets for a plot this wide: two points each, so half a point to one point per 2 px (even, as pairs merge). */
export function bucketsFor(plotWidth: number): number {
  return Math.max(40, Math.floor(plotWidth / 8) * 2);
}

/** data-points (how many samples the chart's points stand for) and the note under it. */
export function writeChartNote(e: Entry, samples: number, shown: number): void {
  const s = e.series;
  e.section.dataset.points = String(samples);
  const hidden = s.hiddenNames().length;
  const last = samples ? s.xs.at(samples - 1) : 0;
  e.note.textContent =
    samples === 0
      ? 'Waiting for the first sample.'
      : `${samples} samples, ${clock(last)}${hidden ? `; ${hidden} more not shown (smaller totals)` : ''}${shown === 0 ? '; nothing moved yet' : ''}`;
}
