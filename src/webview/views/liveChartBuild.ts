// Builds one live chart's card: its DOM (head, canvas, legend, note), its chart.js instance and the toggle chips in
// its head. Apart from liveCharts.ts, which feeds and draws the built charts tick by tick; this runs once per chart.
import { html, render } from 'lit';
import { ColorAssigner } from '../model/colors';
import { buildSeries, type ChartKind, type ChartSpec, type ChartToggles } from '../model/metrics';
import { ChartLegend } from './chartLegend';
import { Chart, lineChartConfig } from './chartSetup';
import type { Entry } from './liveChartEntry';

/** What a chart's card reports to its view, and reads of it. */
export interface EntryHooks {
  /** The prefix of its element ids (the Watch mode's instance has one). */
  prefix: string;
  /** The view's toggles now (read when a chip is clicked, not when it was drawn). */
  toggles(): ChartToggles;
  setToggles(t: ChartToggles): void;
  legendToggled(kind: ChartKind): void;
  zoomed(kind: ChartKind, chart: Chart): void;
}

/** A chart's card and its parts, the series built empty; `visible` when nothing observes it (drawn as ticks come). */
export function createEntry(spec: ChartSpec, hooks: EntryHooks, visible: boolean): Entry {
  const toggles = hooks.toggles();
  const section = document.createElement('section');
  section.className = 'chart-card';
  section.dataset.chart = spec.kind;
  section.dataset.points = '0';
  const head = document.createElement('div');
  head.className = 'chart-head';
  const h = document.createElement('h3');
  h.textContent = spec.title;
  h.id = `${hooks.prefix}chart-title-${spec.kind}`;
  const controls = document.createElement('div');
  controls.className = 'chart-controls';
  head.append(h, controls);
  const box = document.createElement('div');
  box.className = 'chart-box';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-labelledby', h.id);
  box.append(canvas);
  const note = document.createElement('p');
  note.className = 'chart-note';
  const legend = new ChartLegend(`${spec.title}: series`, () => hooks.legendToggled(spec.kind));
  section.append(head, box, legend.element, note);
  const chart = new Chart(
    canvas,
    lineChartConfig({
      xTitle: 's',
      htmlLegend: true,
      yTitle: spec.yTitle(toggles),
      y1Title: spec.y1Title,
      onZoomed: (c) => hooks.zoomed(spec.kind, c),
    }),
  );
  return {
    spec,
    chart,
    series: buildSeries(spec, [], toggles),
    colors: new ColorAssigner(),
    section,
    controls,
    note,
    legend,
    canvas,
    range: null,
    visible,
    stale: false,
    drawn: null,
    bounds: null,
  };
}

/** The chips in a chart's head: backoffs/s on the spinlocks chart, show benign on the waits chart. */
export function renderControls(e: Entry, hooks: EntryHooks): void {
  const toggles = hooks.toggles();
  if (e.spec.kind === 'spinlocks') {
    const backoffs = toggles.spinMetric === 'backoffs';
    render(
      html`<button class="chip" id=${hooks.prefix + 'toggle-backoffs'} aria-pressed=${String(backoffs)}
        title="Show backoffs/s instead of spins/s"
        @click=${() => hooks.setToggles({ ...hooks.toggles(), spinMetric: backoffs ? 'spins' : 'backoffs' })}>backoffs/s</button>`,
      e.controls,
    );
  } else if (e.spec.kind === 'waits') {
    const all = toggles.showAllWaits;
    render(
      html`<button class="chip" id=${hooks.prefix + 'toggle-benign'} aria-pressed=${String(all)}
        title="Include benign (idle and background) waits"
        @click=${() => hooks.setToggles({ ...hooks.toggles(), showAllWaits: !all })}>show benign</button>`,
      e.controls,
    );
  }
}
