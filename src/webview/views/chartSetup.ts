// chart.js registered once with only what the panel uses (line charts on linear axes, filled interval bands, tooltips,
// legend, zoom), and the options every chart shares: no animation (each tick redraws with update('none')), {x,y}
// points with parsing off, index-mode tooltips, theme colours.
import {
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type ChartDataset,
} from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import { exactNumber, shortNumber } from '../model/format';
import { bytesText } from '../../shared/units';
import { backdropPlugin } from './chartBackdrop';
import { clockLabel, clockTicks, marksPlugin, noDataPlugin, type ChartMark } from './chartPlugins';
import type { ThemeColors } from './theme';

let registered = false;
export function registerCharts(): void {
  if (registered) return;
  // The backdrop's plugin first: its beforeDraw must see every draw, also one another plugin cancels.
  Chart.register(
    backdropPlugin,
    LineController,
    LineElement,
    PointElement,
    LinearScale,
    Tooltip,
    Legend,
    Filler,
    zoomPlugin,
    noDataPlugin,
    marksPlugin,
  );
  registered = true;
}

export function applyThemeDefaults(t: ThemeColors): void {
  Chart.defaults.color = t.foreground;
  Chart.defaults.borderColor = t.grid;
  Chart.defaults.font.family = t.fontFamily;
  Chart.defaults.font.size = Math.max(10, t.fontSize - 2);
}

export type XYDataset = ChartDataset<'line', { x: number; y: number }[]>;

/** Dash patterns by palette slot: in high contrast, lines differ by dash as well as by colour. */
const DASHES: number[][] = [[], [6, 3], [2, 2], [8, 2, 2, 2], [4, 4], [1, 3], [10, 4], [3, 6]];

export function styleDataset(ds: XYDataset, slot: number, t: ThemeColors): void {
  const colour = t.series[slot % t.series.length];
  ds.borderColor = colour;
  ds.backgroundColor = colour;
  ds.borderDash = t.highContrast ? DASHES[slot % DASHES.length] : [];
  ds.borderWidth = t.highContrast ? 2 : 1.5;
}

/** A theme colour (any CSS colour the canvas reads) at this opacity, for a filled band; the colour as is when unreadable. */
export function translucent(colour: string, alpha: number): string {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return colour;
  ctx.fillStyle = colour;
  // The canvas gives back "#rrggbb" for an opaque colour and "rgba(r, g, b, a)" otherwise.
  const v = String(ctx.fillStyle);
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(v);
  if (hex) return `rgba(${parseInt(hex[1], 16)}, ${parseInt(hex[2], 16)}, ${parseInt(hex[3], 16)}, ${alpha})`;
  const rgba = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(v);
  return rgba ? `rgba(${rgba[1]}, ${rgba[2]}, ${rgba[3]}, ${alpha})` : colour;
}

type LinearOpts = Record<string, unknown>;

/** An axis's tick text by its unit: sizes as KB/MB, everything else as short numbers (950, 12k, 1.2M). */
export function tickText(unit: string): (v: string | number) => string {
  return /^(B|bytes)(\/|$)/.test(unit) ? (v) => bytesText(Number(v)) : (v) => shortNumber(Number(v));
}

export function linearAxis(title: string, over: LinearOpts = {}): LinearOpts {
  return {
    type: 'linear',
    title: { display: true, text: title },
    ticks: { maxTicksLimit: 6, minRotation: 0, maxRotation: 0, sampleSize: 4, callback: tickText(title) },
    ...over,
  };
}

export function lineChartConfig(options: {
  xTitle: string;
  yTitle: string;
  y1Title?: string;
  /** The legend is drawn in HTML beside the canvas (chartLegend.ts): chart.js's Legend plugin is off for this chart. */
  htmlLegend?: boolean;
  onZoomed?: (chart: Chart) => void;
}): ChartConfiguration<'line', { x: number; y: number }[]> {
  const scales: Record<string, LinearOpts> = {
    x: linearAxis(options.xTitle, {
      ticks: {
        maxTicksLimit: 8,
        minRotation: 0,
        maxRotation: 0,
        sampleSize: 4,
        callback: (v: string | number) => shortNumber(Number(v)),
      },
    }),
    y: linearAxis(options.yTitle, { beginAtZero: true, position: 'left' }),
  };
  if (options.y1Title) scales.y1 = linearAxis(options.y1Title, { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false } });
  return {
    type: 'line',
    data: { datasets: [] },
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      responsive: true,
      maintainAspectRatio: false,
      spanGaps: true,
      interaction: { mode: 'index', intersect: false },
      elements: { point: { radius: 0, hitRadius: 4, hoverRadius: 3 }, line: { tension: 0 } },
      scales: scales as never,
      plugins: {
        // false (not display: false) leaves the plugin out of the chart's update altogether.
        legend: options.htmlLegend ? (false as never) : { position: 'bottom', labels: { boxWidth: 12, boxHeight: 2, padding: 8 } },
        tooltip: {
          callbacks: {
            title: (items) => (items.length ? `${exactNumber(items[0].parsed.x ?? 0)} ${options.xTitle}` : ''),
            label: (item) => `${item.dataset.label}: ${exactNumber(item.parsed.y ?? 0)}`,
          },
        },
        zoom: {
          limits: { x: { min: 'original', max: 'original' } },
          pan: { enabled: false, mode: 'x', onPanComplete: ({ chart }) => options.onZoomed?.(chart as Chart) },
          zoom: {
            wheel: { enabled: false },
            pinch: { enabled: false },
            mode: 'x',
            onZoomComplete: ({ chart }) => options.onZoomed?.(chart as Chart),
          },
        },
      },
    },
  };
}

/**
 * The x axis as local time of day (a watch: HH:MM:SS at round clock times), or back to seconds from the start
 * (null). x values stay seconds from startMs; only the ticks and the tooltip's title change.
 */
export function setClockAxis(chart: Chart, startMs: number | null, xTitle = 's'): void {
  const x = chart.options.scales?.x as
    | {
        title?: { text?: string };
        ticks?: { callback?: unknown };
        afterBuildTicks?: (scale: { min: number; max: number; ticks: { value: number }[] }) => void;
      }
    | undefined;
  if (!x) return;
  if (startMs === null) {
    if (x.title) x.title.text = xTitle;
    if (x.ticks) x.ticks.callback = (v: string | number) => shortNumber(Number(v));
    x.afterBuildTicks = undefined;
  } else {
    if (x.title) x.title.text = 'local time';
    if (x.ticks) x.ticks.callback = (v: string | number) => clockLabel(Number(v), startMs);
    const offset = new Date(startMs).getTimezoneOffset() * 60_000;
    x.afterBuildTicks = (scale) => {
      scale.ticks = clockTicks(scale.min, scale.max, startMs, 5, offset).map((value) => ({ value }));
    };
  }
  const tooltip = chart.options.plugins?.tooltip?.callbacks as { title?: unknown } | undefined;
  if (tooltip)
    tooltip.title = (items: { parsed: { x: number | null } }[]) =>
      items.length
        ? startMs === null
          ? `${exactNumber(items[0].parsed.x ?? 0)} ${xTitle}`
          : clockLabel(items[0].parsed.x ?? 0, startMs)
        : '';
}

/** Named marks drawn on the chart as annotations (chartPlugins.ts marksPlugin); a full update() must follow. */
export function setMarks(chart: Chart, marks: readonly ChartMark[], color: string): void {
  const plugins = chart.options.plugins as Record<string, unknown> | undefined;
  if (plugins) plugins.marks = { marks, color };
}

/** Turns wheel zoom and drag pan on or off (only on a paused or finished run: a live chart keeps scrolling). */
export function setZoomable(chart: Chart, on: boolean): void {
  const z = chart.options.plugins?.zoom;
  if (!z) return;
  if (z.pan) z.pan.enabled = on;
  if (z.zoom?.wheel) z.zoom.wheel.enabled = on;
  if (z.zoom?.pinch) z.zoom.pinch.enabled = on;
}

export { Chart };
