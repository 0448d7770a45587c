// The two analysis charts: the scaling curve (throughput and spins per row against threads, one pair of lines per
// experiment) and the comparison's throughput over time of two runs. Each keeps one canvas across renders.
import type { Tick } from '../../shared/experiment';
import type { ScalingCurve } from '../../shared/analysis';
import { decimateIndices } from '../model/decimate';
import { Chart, lineChartConfig, linearAxis, styleDataset, type XYDataset } from './chartSetup';
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

/** A scaling curve as the chart draws it: with wait ms per row by thread count when known (arms of a preset). */
export type ChartCurve = ScalingCurve & { waitMsPerRow?: Record<number, number> };

/** Datasets per curve: rows/s (solid, left axis), spins/row (dashed, right), wait ms/row (dotted, far right). */
const PER_CURVE = 3;

export class ScalingChart extends OwnedChart {
  private key = '';

  constructor(theme: ThemeColors) {
    super(theme, 'scaling', 'Scaling: throughput, spins per row and wait ms per row against threads', {
      xTitle: 'threads',
      yTitle: 'rows/s',
      y1Title: 'spins/row',
    });
    const opts = this.chart.options;
    if (opts.elements?.point) opts.elements.point.radius = 3;
    (opts.scales as Record<string, unknown>).y2 = linearAxis('wait ms/row', {
      beginAtZero: true,
      position: 'right',
      grid: { drawOnChartArea: false },
    });
  }

  update(curves: readonly ChartCurve[]): void {
    const key = JSON.stringify(
      curves.map((c) => [c.experimentId, c.title, c.points.map((p) => [p.threads, p.rowsPerSec, p.spinsPerRow]), c.waitMsPerRow ?? null]),
    );
    if (key === this.key) return;
    this.key = key;
    const datasets: XYDataset[] = [];
    for (const c of curves) {
      const name = curves.length > 1 ? `${c.title}: ` : '';
      datasets.push({ label: `${name}rows/s`, data: c.points.map((p) => ({ x: p.threads, y: p.rowsPerSec })), yAxisID: 'y' });
      datasets.push({ label: `${name}spins/row`, data: c.points.map((p) => ({ x: p.threads, y: p.spinsPerRow })), yAxisID: 'y1' });
      const w = c.waitMsPerRow;
      datasets.push({
        label: `${name}wait ms/row`,
        data: w ? c.points.filter((p) => p.threads in w).map((p) => ({ x: p.threads, y: w[p.threads] })) : [],
        yAxisID: 'y2',
        hidden: !w,
      });
    }
    this.chart.data.datasets = datasets;
    const y2 = (this.chart.options.scales as Record<string, { display?: boolean }>).y2;
    if (y2) y2.display = curves.some((c) => c.waitMsPerRow);
    this.restyle();
    this.chart.update('none');
    this.element.dataset.points = String(datasets.reduce((n, d) => n + d.data.length, 0));
    this.element.dataset.curves = String(curves.length);
  }

  protected restyle(): void {
    this.chart.data.datasets.forEach((ds, i) => {
      const curve = Math.floor(i / PER_CURVE);
      styleDataset(ds as XYDataset, curve, this.theme);
      // One colour per curve; the measures differ by dash: spins per row dashed, wait ms per row dotted.
      if (i % PER_CURVE === 1) (ds as XYDataset).borderDash = [5, 3];
      if (i % PER_CURVE === 2) (ds as XYDataset).borderDash = [1, 2];
    });
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
