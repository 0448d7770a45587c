// The six live charts of one run. Built once (plain DOM, kept across lit renders), fed tick by tick; each redraw
// decimates the visible range and calls update('none'). Pause stops redrawing but keeps buffering; zoom and pan
// are on only while paused or once the run has finished.
import { html, nothing, render } from 'lit';
import type { Tick } from '../../shared/experiment';
import { ColorAssigner } from '../model/colors';
import { decimateIndices } from '../model/decimate';
import { clock } from '../model/format';
import type { RunData } from '../model/liveRuns';
import { appendTick, buildSeries, CHART_KINDS, CHART_SPECS, type ChartKind, type ChartSpec, type ChartToggles } from '../model/metrics';
import type { SeriesSet } from '../model/series';
import { Chart, lineChartConfig, setZoomable, styleDataset, type XYDataset } from './chartSetup';
import type { ThemeColors } from './theme';

interface Entry {
  spec: ChartSpec;
  chart: Chart<'line', { x: number; y: number }[]>;
  series: SeriesSet;
  colors: ColorAssigner;
  section: HTMLElement;
  controls: HTMLElement;
  note: HTMLElement;
  canvas: HTMLCanvasElement;
  range: { min: number; max: number } | null;
}

export interface LiveChartsCallbacks {
  onToggles(t: ChartToggles): void;
  /** The user picked a run to show (null: follow the current run). */
  onPickRun(index: number | null): void;
}

export class LiveChartsView {
  readonly element: HTMLElement;
  private readonly toolbar: HTMLElement;
  private readonly entries = new Map<ChartKind, Entry>();
  private run: RunData | null = null;
  private paused = false;
  private frame = 0;
  private runs: RunData[] = [];
  private followIndex: number | null = null;

  constructor(
    private theme: ThemeColors,
    private toggles: ChartToggles,
    private readonly callbacks: LiveChartsCallbacks,
    /** A second instance (the Watch mode's) prefixes its element ids and has no run picker: it shows one series. */
    private readonly opts: { idPrefix?: string; runPicker?: boolean } = {},
  ) {
    this.element = document.createElement('div');
    this.element.className = 'live-charts';
    this.toolbar = document.createElement('div');
    this.toolbar.className = 'toolbar';
    this.element.append(this.toolbar);
    const grid = document.createElement('div');
    grid.className = 'chart-grid';
    this.element.append(grid);
    for (const kind of CHART_KINDS) grid.append(this.createEntry(CHART_SPECS[kind]).section);
    this.renderToolbar();
  }

  get currentToggles(): ChartToggles {
    return this.toggles;
  }

  private get p(): string {
    return this.opts.idPrefix ?? '';
  }

  private createEntry(spec: ChartSpec): Entry {
    const section = document.createElement('section');
    section.className = 'chart-card';
    section.dataset.chart = spec.kind;
    section.dataset.points = '0';
    const head = document.createElement('div');
    head.className = 'chart-head';
    const h = document.createElement('h3');
    h.textContent = spec.title;
    h.id = `${this.p}chart-title-${spec.kind}`;
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
    section.append(head, box, note);
    const chart = new Chart(canvas, lineChartConfig({
      xTitle: 's',
      yTitle: spec.yTitle(this.toggles),
      y1Title: spec.y1Title,
      onZoomed: (c) => this.zoomed(spec.kind, c),
    }));
    const entry: Entry = { spec, chart, series: buildSeries(spec, [], this.toggles), colors: new ColorAssigner(), section, controls, note, canvas, range: null };
    this.entries.set(spec.kind, entry);
    this.renderControls(entry);
    return entry;
  }

  private renderControls(e: Entry): void {
    if (e.spec.kind === 'spinlocks') {
      const backoffs = this.toggles.spinMetric === 'backoffs';
      render(html`<button class="chip" id=${this.p + 'toggle-backoffs'} aria-pressed=${String(backoffs)}
        title="Show backoffs/s instead of spins/s" @click=${() => this.setToggles({ ...this.toggles, spinMetric: backoffs ? 'spins' : 'backoffs' })}>backoffs/s</button>`, e.controls);
    } else if (e.spec.kind === 'waits') {
      const all = this.toggles.showAllWaits;
      render(html`<button class="chip" id=${this.p + 'toggle-benign'} aria-pressed=${String(all)}
        title="Include benign (idle and background) waits" @click=${() => this.setToggles({ ...this.toggles, showAllWaits: !all })}>show benign</button>`, e.controls);
    }
  }

  /** Runs of the active experiment (for the run selector) and the one to show. */
  setRuns(runs: RunData[], show: RunData | null, followIndex: number | null): void {
    this.runs = runs;
    this.followIndex = followIndex;
    if (show !== this.run) {
      this.run = show;
      this.rebuild();
    }
    this.renderToolbar();
  }

  /** New ticks of a run from position `from`: appended when that run is on screen. */
  ticksAdded(run: RunData, from: number): void {
    if (run !== this.run) return;
    const ticks: Tick[] = run.ticks;
    for (const e of this.entries.values()) {
      for (let i = Math.max(from, e.series.length); i < ticks.length; i++) appendTick(e.series, e.spec, ticks[i], this.toggles);
    }
    this.schedule();
  }

  runChanged(): void {
    this.renderToolbar();
    this.schedule();
  }

  setToggles(t: ChartToggles): void {
    const old = this.toggles;
    this.toggles = t;
    for (const e of this.entries.values()) {
      const affected = (e.spec.kind === 'spinlocks' && old.spinMetric !== t.spinMetric) || (e.spec.kind === 'waits' && old.showAllWaits !== t.showAllWaits);
      if (!affected) continue;
      e.series = buildSeries(e.spec, this.run?.ticks ?? [], t);
      e.colors = new ColorAssigner();
      const y = e.chart.options.scales?.y as { title?: { text?: string } } | undefined;
      if (y?.title) y.title.text = e.spec.yTitle(t);
      this.renderControls(e);
    }
    this.callbacks.onToggles(t);
    this.redraw(true);
  }

  setTheme(t: ThemeColors): void {
    this.theme = t;
    for (const e of this.entries.values()) {
      for (const axis of Object.values(e.chart.options.scales ?? {})) {
        const a = axis as { ticks?: { color?: string }; grid?: { color?: string }; title?: { color?: string } };
        if (a.ticks) a.ticks.color = t.foreground;
        if (a.grid) a.grid.color = t.grid;
        if (a.title) a.title.color = t.foreground;
      }
      const legend = e.chart.options.plugins?.legend?.labels;
      if (legend) legend.color = t.foreground;
    }
    this.redraw(true);
  }

  private rebuild(): void {
    for (const e of this.entries.values()) {
      e.series = buildSeries(e.spec, this.run?.ticks ?? [], this.toggles);
      e.colors = new ColorAssigner();
      e.range = null;
      e.chart.resetZoom('none');
    }
    this.redraw(true);
  }

  private schedule(): void {
    if (this.paused || this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.redraw(false);
    });
  }

  private get finished(): boolean {
    return !this.run || this.run.status !== 'running';
  }

  /** Redraws every chart now (force: even while paused, e.g. after a toggle or a theme change). */
  redraw(force: boolean): void {
    if (this.paused && !force) return;
    const zoomable = this.paused || this.finished;
    for (const e of this.entries.values()) {
      setZoomable(e.chart, zoomable);
      this.draw(e);
    }
  }

  private draw(e: Entry): void {
    const s = e.series;
    const names = s.shownNames();
    const slots = e.colors.assign(names);
    const xs = s.xs.view();
    const cols = names.map((n) => s.column(n)?.view() ?? new Float64Array(s.length));
    const width = e.chart.chartArea ? e.chart.chartArea.right - e.chart.chartArea.left : e.canvas.clientWidth || 600;
    const idx = decimateIndices(xs, s.length, cols, e.range, Math.max(40, Math.floor(width / 4)));
    const byLabel = new Map(e.chart.data.datasets.map((d) => [d.label, d as XYDataset]));
    e.chart.data.datasets = names.map((name, i) => {
      const ds: XYDataset = byLabel.get(name) ?? { label: name, data: [] };
      const col = cols[i];
      ds.data = idx.map((j) => ({ x: xs[j], y: col[j] }));
      ds.yAxisID = e.spec.rightAxis?.includes(name) ? 'y1' : 'y';
      styleDataset(ds, slots.get(name) ?? i, this.theme);
      return ds;
    });
    e.chart.update('none');
    e.section.dataset.points = String(s.length);
    const hidden = s.hiddenNames().length;
    const last = s.length ? xs[s.length - 1] : 0;
    e.note.textContent = s.length === 0
      ? 'Waiting for the first sample.'
      : `${s.length} samples, ${clock(last)}${hidden ? `; ${hidden} more not shown (smaller totals)` : ''}${names.length === 0 ? '; nothing moved yet' : ''}`;
  }

  private zoomed(kind: ChartKind, chart: Chart): void {
    const e = this.entries.get(kind);
    if (!e) return;
    const x = chart.scales.x;
    e.range = chart.isZoomedOrPanned() ? { min: x.min, max: x.max } : null;
    this.draw(e);
  }

  private setPaused(p: boolean): void {
    this.paused = p;
    if (!p) {
      for (const e of this.entries.values()) {
        e.range = null;
        e.chart.resetZoom('none');
      }
    }
    this.redraw(true);
    this.renderToolbar();
  }

  private zoomAll(factor: number | null): void {
    for (const e of this.entries.values()) {
      if (factor === null) {
        e.chart.resetZoom('none');
        e.range = null;
        this.draw(e);
      } else e.chart.zoom(factor, 'none');
    }
  }

  private renderToolbar(): void {
    const zoomable = this.paused || this.finished;
    const current = this.run?.index ?? null;
    const onPick = (ev: Event) => {
      const v = (ev.target as HTMLSelectElement).value;
      this.callbacks.onPickRun(v === 'follow' ? null : Number(v));
    };
    const status = this.run
      ? `Run ${this.run.index + 1}: ${this.run.threads} thread${this.run.threads === 1 ? '' : 's'}, ${this.run.status}`
      : 'No run yet';
    const picker = this.opts.runPicker === false ? nothing : html`
      <label class="inline">Run
        <select id="chart-run" aria-label="Run shown in the charts" @change=${onPick}>
          <option value="follow" ?selected=${this.followIndex === null}>Follow the current run</option>
          ${this.runs.map((r) => html`<option value=${String(r.index)} ?selected=${this.followIndex === r.index}>
            Run ${r.index + 1} · ${r.threads} thread${r.threads === 1 ? '' : 's'} · ${r.status}</option>`)}
        </select>
      </label>`;
    render(html`${picker}
      <span class="muted" aria-live="polite">${this.opts.runPicker === false ? '' : status}${current !== null && this.paused ? ' (paused: still buffering)' : ''}</span>
      <span class="spacer"></span>
      <button class="chip" id=${this.p + 'btn-pause'} aria-pressed=${String(this.paused)} @click=${() => this.setPaused(!this.paused)}
        title="Stop redrawing; samples keep arriving">${this.paused ? 'Resume' : 'Pause'}</button>
      <button class="chip" id=${this.p + 'btn-zoom-in'} ?disabled=${!zoomable} @click=${() => this.zoomAll(1.5)}
        title=${zoomable ? 'Zoom in (or use the mouse wheel; drag to pan)' : 'Pause or wait for the run to finish to zoom'}>Zoom in</button>
      <button class="chip" id=${this.p + 'btn-zoom-out'} ?disabled=${!zoomable} @click=${() => this.zoomAll(1 / 1.5)}>Zoom out</button>
      <button class="chip" id=${this.p + 'btn-zoom-reset'} ?disabled=${!zoomable} @click=${() => this.zoomAll(null)}>Reset zoom</button>
    `, this.toolbar);
  }
}
