// The six live charts of one run. Built once (plain DOM, kept across lit renders), fed tick by tick. A tick is drawn
// at once (not a frame later) and only on the charts on screen (IntersectionObserver): each keeps its points and
// rewrites only the last min/max bucket (model/decimate.ts MinMaxBuckets), then update('none'). A chart off screen
// catches up when it scrolls into view; its series is not even built before (a loaded history's columns are read
// for the charts on screen: model/columnSeries.ts). Pause stops redrawing but keeps buffering; zoom and pan are on only while
// paused or once the run has finished (a zoomed range is decimated from the full-resolution columns). Each chart's
// card (DOM, chart.js instance, toggle chips) is built by liveChartBuild.ts.
import { render } from 'lit';
import { ColorAssigner } from '../model/colors';
import { decimateIndices } from '../model/decimate';
import type { RunData } from '../model/liveRuns';
import { CHART_KINDS, CHART_SPECS, newSeries, type ChartKind, type ChartSpec, type ChartToggles } from '../model/metrics';
import { appendRange } from '../model/columnSeries';
import { applyBounds, boundsOf, redrawDataOnly, sameBounds } from './chartBounds';
import { createEntry, renderControls, type EntryHooks } from './liveChartBuild';
import { toolbarTemplate } from './liveChartsToolbar';
import { bucketsFor, writeChartNote, type Entry } from './liveChartEntry';
export { bucketsFor };
import { type Chart, setClockAxis, setMarks, setZoomable, styleDataset, type XYDataset } from './chartSetup';
import type { ChartMark } from './chartPlugins';
import type { ThemeColors } from './theme';

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
  private readonly observer: IntersectionObserver | null;
  private readonly notes = new Map<Entry, { samples: number; shown: number }>();
  private resetting = false;
  /** Zoom as last set on the charts. */
  private zoomable = true;
  /** What each chart's card reports to this view (liveChartBuild.ts). */
  private readonly hooks: EntryHooks = {
    prefix: this.opts.idPrefix ?? '',
    toggles: () => this.toggles,
    setToggles: (t) => this.setToggles(t),
    legendToggled: (kind) => this.legendToggled(kind),
    zoomed: (kind, chart) => this.zoomed(kind, chart),
  };

  constructor(
    private theme: ThemeColors,
    private toggles: ChartToggles,
    private readonly callbacks: LiveChartsCallbacks,
    /** A second instance (the Watch mode's) prefixes its element ids and has no run picker: it shows one series. */
    private readonly opts: { idPrefix?: string; runPicker?: boolean; specs?: Partial<Record<ChartKind, ChartSpec>> } = {},
  ) {
    this.element = document.createElement('div');
    this.element.className = 'live-charts';
    this.toolbar = document.createElement('div');
    this.toolbar.className = 'toolbar';
    this.element.append(this.toolbar);
    const grid = document.createElement('div');
    grid.className = 'chart-grid';
    this.element.append(grid);
    this.observer =
      typeof IntersectionObserver === 'function' ? new IntersectionObserver((seen) => this.seen(seen), { rootMargin: '200px 0px' }) : null;
    for (const kind of CHART_KINDS) {
      const e = this.createEntry(this.opts.specs?.[kind] ?? CHART_SPECS[kind]);
      grid.append(e.section);
      this.observer?.observe(e.section);
    }
    this.renderToolbar();
  }

  /** Charts scrolled into view (or a closed section opened) catch up; charts leaving it stop drawing. */
  private seen(changes: IntersectionObserverEntry[]): void {
    for (const c of changes) {
      const e = this.entries.get((c.target as HTMLElement).dataset.chart as ChartKind);
      if (!e) continue;
      e.visible = c.isIntersecting;
      if (e.visible && e.stale && !this.paused) this.draw(e);
    }
    this.flushNotes();
  }

  /** What the x axis and the annotations show now (a key, so an unchanged render redraws nothing). */
  private axisKey = '';

  /**
   * The Watch's x axis as local time of day from its start (null: seconds into the run), and its named marks drawn on
   * every chart as annotations.
   */
  setTimeAxis(startMs: number | null, marks: readonly ChartMark[]): void {
    const key = JSON.stringify([startMs, marks, this.theme.foreground]);
    if (key === this.axisKey) return;
    this.axisKey = key;
    for (const e of this.entries.values()) {
      setClockAxis(e.chart, startMs);
      setMarks(e.chart, marks, this.theme.foreground);
      e.bounds = null;
      e.stale = true;
    }
    this.redraw(true);
  }

  get currentToggles(): ChartToggles {
    return this.toggles;
  }

  private get p(): string {
    return this.opts.idPrefix ?? '';
  }

  private createEntry(spec: ChartSpec): Entry {
    const entry = createEntry(spec, this.hooks, this.observer === null);
    this.entries.set(spec.kind, entry);
    renderControls(entry, this.hooks);
    return entry;
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

  /** New ticks of a run from position `from`: appended when that run is shown, and drawn now on the charts on screen. */
  ticksAdded(run: RunData, from: number): void {
    if (run !== this.run) return;
    const n = run.store.length;
    for (const e of this.entries.values()) {
      if (e.series.length >= n) continue;
      e.stale = true;
      // A chart off screen that holds nothing yet is built when it comes into view (draw): a loaded history is read
      // for the charts on screen only.
      if (e.series.length === 0 && !e.visible) continue;
      // A catch-up of many ticks is one batch, ranked once; a live tick ranks with hysteresis.
      appendRange(e.series, e.spec, run.store, Math.max(from, e.series.length), n, this.toggles);
      if (!this.paused && e.visible) this.draw(e);
    }
    this.flushNotes();
  }

  /** The run's status may have changed: the toolbar says it; zoom turns on once it finished (a redraw then). */
  runChanged(): void {
    this.renderToolbar();
    const zoomable = this.paused || this.finished;
    if (zoomable !== this.zoomable) this.schedule();
  }

  setToggles(t: ChartToggles): void {
    const old = this.toggles;
    this.toggles = t;
    for (const e of this.entries.values()) {
      const affected =
        (e.spec.kind === 'spinlocks' && old.spinMetric !== t.spinMetric) ||
        (e.spec.kind === 'waits' && old.showAllWaits !== t.showAllWaits);
      if (!affected) continue;
      e.series = newSeries(e.spec, e.series.buckets.maxBuckets); // filled as drawn (draw)
      e.colors = new ColorAssigner();
      e.drawn = null;
      const y = e.chart.options.scales?.y as { title?: { text?: string } } | undefined;
      if (y?.title) y.title.text = e.spec.yTitle(t);
      renderControls(e, this.hooks);
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
      e.drawn = null;
    }
    this.redraw(true);
  }

  private rebuild(): void {
    for (const e of this.entries.values()) {
      e.series = newSeries(e.spec, this.bucketsWanted(e)); // filled as drawn (draw)
      e.colors = new ColorAssigner();
      e.range = null;
      e.drawn = null;
      this.resetZoom(e);
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

  /** Redraws every chart on screen now (force: even while paused, e.g. after a toggle or a theme change); the others when they come into view. */
  redraw(force: boolean): void {
    if (this.paused && !force) return;
    const zoomable = this.paused || this.finished;
    this.zoomable = zoomable;
    for (const e of this.entries.values()) {
      setZoomable(e.chart, zoomable);
      e.stale = true;
      if (e.visible) this.draw(e);
    }
    this.flushNotes();
  }

  /** The bucket count the chart's width asks for, or the one it has while that is near enough (no rebuild for a few px). */
  private bucketsWanted(e: Entry): number {
    const want = bucketsFor(this.plotWidth(e));
    const have = e.series.buckets.maxBuckets;
    return want > have * 1.5 || want < have / 1.5 ? want : have;
  }

  private plotWidth(e: Entry): number {
    return e.chart.chartArea ? e.chart.chartArea.right - e.chart.chartArea.left : e.canvas.clientWidth || 600;
  }

  private draw(e: Entry): void {
    e.stale = false;
    const run = this.run;
    if (run && e.series.length < run.store.length)
      appendRange(e.series, e.spec, run.store, e.series.length, run.store.length, this.toggles);
    if (e.range) {
      this.drawRange(e);
      return;
    }
    const s = e.series;
    s.setMaxBuckets(this.bucketsWanted(e));
    const view = s.buckets;
    const names = s.shownNames();
    const d = e.drawn;
    const same =
      d !== null &&
      d.view === view &&
      d.generation === view.generation &&
      d.names.length === names.length &&
      d.names.every((n, i) => n === names[i]);
    const from = same ? Math.max(0, d.count - 1) : 0;
    if (!same) {
      const slots = e.colors.assign(names);
      const byLabel = new Map(e.chart.data.datasets.map((ds) => [ds.label, ds as XYDataset]));
      e.chart.data.datasets = names.map((name, i) => {
        const ds: XYDataset = byLabel.get(name) ?? { label: name, data: [] };
        ds.data = [];
        ds.yAxisID = e.spec.rightAxis?.includes(name) ? 'y1' : 'y';
        styleDataset(ds, slots.get(name) ?? i, this.theme);
        return ds;
      });
      e.legend.update(e.chart.data.datasets as XYDataset[]);
    }
    e.chart.data.datasets.forEach((ds, i) => view.writePoints(s.bucketColumn(names[i]) ?? 0, from, ds.data as { x: number; y: number }[]));
    this.update(e, same, from * view.pointsPerBucket);
    e.drawn = { view, generation: view.generation, count: view.count, names };
    // The samples the chart's points stand for (its buckets cover exactly these).
    this.noted(e, view.samples, names.length);
  }

  /**
   * The chart drawn with its new points: only the datasets' elements when the datasets are the same and the axis
   * bounds (with headroom) did not move and no tooltip is open; otherwise chart.js's full update with the new bounds.
   * fromPoint: the first point the datasets may have changed (the ones before it are as last drawn).
   */
  private update(e: Entry, sameDatasets: boolean, fromPoint = 0): void {
    const b = boundsOf(e.chart.data.datasets as XYDataset[] as never, !this.finished);
    if (sameDatasets && sameBounds(b, e.bounds) && !e.chart.getActiveElements().length && !e.chart.isZoomedOrPanned()) {
      redrawDataOnly(e.chart, fromPoint);
      return;
    }
    applyBounds(e.chart, b);
    e.bounds = b;
    e.chart.update('none');
  }

  /** A zoomed or panned chart: the range decimated from the full-resolution columns. */
  private drawRange(e: Entry): void {
    e.drawn = null;
    e.bounds = null;
    const s = e.series;
    const names = s.shownNames();
    const slots = e.colors.assign(names);
    const xs = s.xs.view();
    const cols = names.map((n) => s.column(n)?.view() ?? new Float64Array(s.length));
    const idx = decimateIndices(xs, s.length, cols, e.range, Math.max(40, Math.floor(this.plotWidth(e) / 4)));
    const byLabel = new Map(e.chart.data.datasets.map((d) => [d.label, d as XYDataset]));
    e.chart.data.datasets = names.map((name, i) => {
      const ds: XYDataset = byLabel.get(name) ?? { label: name, data: [] };
      const col = cols[i];
      ds.data = idx.map((j) => ({ x: xs[j], y: col[j] }));
      ds.yAxisID = e.spec.rightAxis?.includes(name) ? 'y1' : 'y';
      styleDataset(ds, slots.get(name) ?? i, this.theme);
      return ds;
    });
    e.legend.update(e.chart.data.datasets as XYDataset[]);
    e.chart.update('none');
    this.noted(e, s.length, names.length);
  }

  /** Remembers what the chart now shows; the DOM is written after every chart has drawn (flushNotes). */
  private noted(e: Entry, samples: number, shown: number): void {
    this.notes.set(e, { samples, shown });
  }

  /**
   * data-points (how many samples each chart's points now stand for) and the note under it, written once all charts
   * have drawn: a text change between two charts' updates would make the next one wait for a style recalculation.
   */
  private flushNotes(): void {
    for (const [e, { samples, shown }] of this.notes) writeChartNote(e, samples, shown);
    this.notes.clear();
  }

  /** A legend entry was toggled: the series hides or shows at once (even while paused), the points unchanged. */
  private legendToggled(kind: ChartKind): void {
    const e = this.entries.get(kind);
    if (!e) return;
    e.legend.update(e.chart.data.datasets as XYDataset[]);
    if (e.range) e.chart.update('none');
    else this.update(e, false);
  }

  /** Back to the whole run, without the zoom plugin's callback drawing the chart once more. */
  private resetZoom(e: Entry): void {
    e.range = null;
    if (!e.chart.isZoomedOrPanned()) return;
    this.resetting = true;
    try {
      e.chart.resetZoom('none');
    } finally {
      this.resetting = false;
    }
  }

  private zoomed(kind: ChartKind, chart: Chart): void {
    const e = this.entries.get(kind);
    if (!e || this.resetting) return;
    const x = chart.scales.x;
    e.range = chart.isZoomedOrPanned() ? { min: x.min, max: x.max } : null;
    this.draw(e);
    this.flushNotes();
  }

  private setPaused(p: boolean): void {
    this.paused = p;
    if (!p) {
      for (const e of this.entries.values()) this.resetZoom(e);
    }
    this.redraw(true);
    this.renderToolbar();
  }

  private zoomAll(factor: number | null): void {
    for (const e of this.entries.values()) {
      if (factor === null) {
        this.resetZoom(e);
        this.draw(e);
      } else e.chart.zoom(factor, 'none');
    }
    this.flushNotes();
  }

  private renderToolbar(): void {
    render(
      toolbarTemplate({
        run: this.run,
        runs: this.runs,
        followIndex: this.followIndex,
        paused: this.paused,
        zoomable: this.paused || this.finished,
        prefix: this.p,
        runPicker: this.opts.runPicker !== false,
        onPickRun: (i) => this.callbacks.onPickRun(i),
        onPause: () => this.setPaused(!this.paused),
        onZoom: (f) => this.zoomAll(f),
      }),
      this.toolbar,
    );
  }
}
