// The two analysis charts: the scaling curve (throughput and spins per row against threads, one pair of lines per
// experiment, and the 95% interval of throughput as a filled band when runs were repeated) and the comparison's
// throughput over time of two runs. Each keeps one canvas across renders.
import type { Tick } from '../../shared/experiment';
import type { ScalingCurve } from '../../shared/analysis';
import { decimateIndices } from '../model/decimate';
import { ColorAssigner } from '../model/colors';
import type { BandPoint } from '../model/scalingBands';
import { Chart, lineChartConfig, styleDataset, translucent, type XYDataset } from './chartSetup';
import type { NoDataOptions } from './chartPlugins';
import { durationText } from '../../shared/units';

/** A wait-time axis tick in the unit that reads best (0.0042 ms -> "4.2 µs"). */
const durationTick = (ms: number): string => (ms === 0 ? '0' : durationText(ms, 'ms'));
import type { ThemeColors } from './theme';

abstract class OwnedChart {
  readonly element: HTMLElement;
  protected readonly chart: Chart<'line', { x: number; y: number }[]>;

  constructor(
    protected theme: ThemeColors,
    kind: string,
    label: string,
    config: Parameters<typeof lineChartConfig>[0],
  ) {
    this.element = document.createElement('section');
    this.element.className = 'chart-card wide';
    this.element.dataset.chart = kind;
    this.element.dataset.points = '0';
    const box = document.createElement('div');
    box.className = 'chart-box';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', label);
    box.append(canvas);
    this.element.append(box);
    this.chart = new Chart(canvas, lineChartConfig(config));
  }

  setTheme(t: ThemeColors): void {
    this.theme = t;
    for (const axis of Object.values(this.chart.options.scales ?? {})) {
      const a = axis as { ticks?: { color?: string }; grid?: { color?: string }; title?: { color?: string } };
      if (a.ticks) a.ticks.color = t.foreground;
      if (a.grid) a.grid.color = t.grid;
      if (a.title) a.title.color = t.foreground;
    }
    const legend = this.chart.options.plugins?.legend?.labels;
    if (legend) legend.color = t.foreground;
    this.restyle();
    this.chart.update('none');
  }

  protected abstract restyle(): void;
}

/**
 * A scaling curve as the chart draws it: with wait ms per row by thread count when known (arms of a preset), and the
 * interval of throughput by thread count when its runs were repeated.
 */
export type ChartCurve = ScalingCurve & { waitMsPerRow?: Record<number, number>; band?: BandPoint[] };

/**
 * What each dataset draws, by curve: rows/s (solid, left axis), spins/row (dashed, right), and the interval's low and
 * high edges (the high one filled down to the low one). Wait time per row has a chart of its own below (at most two
 * y axes on a chart: a third scale beside them cannot be read).
 */
type Role = 'rows' | 'spins' | 'wait' | 'low' | 'high';
/** curve: the curve's palette slot (by its title). */
type RoleDataset = XYDataset & { role?: Role; curve?: number };

export class ScalingChart extends OwnedChart {
  private key = '';
  private readonly waitChart: Chart<'line', { x: number; y: number }[]>;
  private readonly waitBox: HTMLElement;

  constructor(theme: ThemeColors) {
    super(theme, 'scaling', 'Scaling: throughput and spins per row against threads', {
      xTitle: 'threads',
      yTitle: 'rows/s',
      y1Title: 'spins/row',
    });
    const opts = this.chart.options;
    if (opts.elements?.point) opts.elements.point.radius = 3;
    // A lone thread count is a point worth drawing, not "one sample" (chartPlugins.ts chartSays).
    const pointChart = (c: Chart<'line', { x: number; y: number }[]>) =>
      ((c.options.plugins as Record<string, unknown>).noData = { oneSample: false } satisfies NoDataOptions);
    pointChart(this.chart);
    const box = document.createElement('div');
    box.className = 'chart-box';
    box.dataset.chart = 'scaling-wait';
    box.hidden = true;
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', 'Scaling: wait time per row against threads');
    box.append(canvas);
    this.element.append(box);
    this.waitBox = box;
    this.waitChart = new Chart(canvas, lineChartConfig({ xTitle: 'threads', yTitle: 'wait ms/row' }));
    if (this.waitChart.options.elements?.point) this.waitChart.options.elements.point.radius = 3;
    pointChart(this.waitChart);
    const waitY = (this.waitChart.options.scales as Record<string, { ticks?: { callback?: unknown } }>).y;
    if (waitY?.ticks) waitY.ticks.callback = (v: string | number) => durationTick(Number(v));
    // The band's low edge has no legend entry of its own: the high edge's ("95% interval") names the band.
    const labels = opts.plugins?.legend && opts.plugins.legend.labels;
    if (labels) labels.filter = (item, data) => (data.datasets[item.datasetIndex ?? 0] as RoleDataset).role !== 'low';
  }

  update(curves: readonly ChartCurve[]): void {
    const key = JSON.stringify(
      curves.map((c) => [c.experimentId, c.title, c.points.map((p) => [p.threads, p.rowsPerSec, p.spinsPerRow]), c.waitMsPerRow ?? null]),
    );
    if (key === this.key) return;
    this.key = key;
    const datasets: RoleDataset[] = [];
    const waits: RoleDataset[] = [];
    // Each curve's colour follows its title (an experiment's or an arm's), as the live charts' series follow theirs.
    const slots = new ColorAssigner().assign(curves.map((c) => c.title));
    curves.forEach((c) => {
      const curve = slots.get(c.title) ?? 0;
      const name = curves.length > 1 ? `${c.title}: ` : '';
      const add = (role: Role, ds: XYDataset) => datasets.push({ ...ds, role, curve });
      add('rows', { label: `${name}rows/s`, data: c.points.map((p) => ({ x: p.threads, y: p.rowsPerSec })), yAxisID: 'y' });
      add('spins', { label: `${name}spins/row`, data: c.points.map((p) => ({ x: p.threads, y: p.spinsPerRow })), yAxisID: 'y1' });
      const w = c.waitMsPerRow;
      if (w)
        waits.push({
          label: `${name}wait time/row`,
          data: c.points.filter((p) => p.threads in w).map((p) => ({ x: p.threads, y: w[p.threads] })),
          yAxisID: 'y',
          role: 'wait',
          curve,
        });
      if (c.band?.length) {
        // The high edge fills down to the dataset before it, the low edge: a band around the rows/s line.
        add('low', { label: `${name}rows/s 95% low`, data: c.band.map((b) => ({ x: b.threads, y: b.low })), yAxisID: 'y', fill: false });
        add('high', {
          label: `${name}rows/s 95% interval`,
          data: c.band.map((b) => ({ x: b.threads, y: b.high })),
          yAxisID: 'y',
          fill: '-1',
        });
      }
    });
    this.chart.data.datasets = datasets;
    this.waitChart.data.datasets = waits;
    // Threads are whole: integer ticks, and a lone thread count centred with a thread either side (not 3.7 to 4.2).
    const xs = new Set(curves.flatMap((c) => c.points.map((p) => p.threads)));
    for (const chart of [this.chart, this.waitChart]) {
      const x = chart.options.scales?.x as { min?: number; max?: number; ticks?: { precision?: number } } | undefined;
      if (!x) continue;
      const only = xs.size === 1 ? [...xs][0] : null;
      x.min = only === null ? undefined : Math.max(0, only - 1);
      x.max = only === null ? undefined : only + 1;
      if (x.ticks) x.ticks.precision = 0;
    }
    this.waitBox.hidden = waits.length === 0;
    this.restyle();
    this.chart.update('none');
    this.waitChart.update('none');
    const lines = [...datasets, ...waits].filter((d) => d.role !== 'low' && d.role !== 'high');
    this.element.dataset.points = String(lines.reduce((n, d) => n + d.data.length, 0));
    this.element.dataset.curves = String(curves.length);
    this.element.dataset.bands = String(datasets.filter((d) => d.role === 'high' && d.fill === '-1').length);
  }

  override setTheme(t: ThemeColors): void {
    for (const axis of Object.values(this.waitChart.options.scales ?? {})) {
      const a = axis as { ticks?: { color?: string }; grid?: { color?: string }; title?: { color?: string } };
      if (a.ticks) a.ticks.color = t.foreground;
      if (a.grid) a.grid.color = t.grid;
      if (a.title) a.title.color = t.foreground;
    }
    const legend = this.waitChart.options.plugins?.legend?.labels;
    if (legend) legend.color = t.foreground;
    super.setTheme(t);
    this.waitChart.update('none');
  }

  protected restyle(): void {
    for (const ds of [...this.chart.data.datasets, ...this.waitChart.data.datasets] as RoleDataset[]) {
      styleDataset(ds, ds.curve ?? 0, this.theme);
      // One colour per curve; the measures differ by dash: spins per row dashed, wait ms per row dotted.
      if (ds.role === 'spins') ds.borderDash = [5, 3];
      if (ds.role === 'wait') ds.borderDash = [1, 2];
      if (ds.role === 'low' || ds.role === 'high') {
        // A faint fill of the curve's colour; in high contrast the edges are drawn too, since a tint alone may vanish.
        const colour = this.theme.series[(ds.curve ?? 0) % this.theme.series.length];
        ds.backgroundColor = translucent(colour, this.theme.highContrast ? 0.35 : 0.18);
        ds.borderColor = colour;
        ds.borderWidth = this.theme.highContrast ? 1 : 0;
        ds.borderDash = [2, 3];
        ds.pointRadius = 0;
        ds.pointHitRadius = 0;
      }
    }
  }
}

export class CompareChart extends OwnedChart {
  private key = '';

  constructor(theme: ThemeColors, kind = 'compare', label = 'Throughput over time of run A and run B') {
    super(theme, kind, label, { xTitle: 's', yTitle: 'rows/s' });
    const opts = this.chart.options;
    if (opts.interaction) opts.interaction.mode = 'nearest';
  }

  update(a: { label: string; ticks: readonly Tick[] } | null, b: { label: string; ticks: readonly Tick[] } | null): void {
    const key = `${a?.label}:${a?.ticks.length}|${b?.label}:${b?.ticks.length}`;
    if (key === this.key) return;
    this.key = key;
    const series = (run: { label: string; ticks: readonly Tick[] }): XYDataset => {
      const xs = run.ticks.map((t) => t.t / 1000);
      const ys = run.ticks.map((t) => t.rowsPerSec);
      const idx = decimateIndices(xs, xs.length, [ys], null, 300);
      return { label: run.label, data: idx.map((i) => ({ x: xs[i], y: ys[i] })), yAxisID: 'y' };
    };
    this.chart.data.datasets = [a, b].filter((r): r is { label: string; ticks: readonly Tick[] } => r !== null).map(series);
    this.restyle();
    this.chart.update('none');
    this.element.dataset.points = String((a?.ticks.length ?? 0) + (b?.ticks.length ?? 0));
  }

  protected restyle(): void {
    this.chart.data.datasets.forEach((ds, i) => styleDataset(ds as XYDataset, i, this.theme));
  }
}
