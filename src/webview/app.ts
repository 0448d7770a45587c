// The panel's controller: holds the host's PanelState, the form as edited, the live runs and the experiments opened from the history; turns
// user actions into ToHost intents and questions (questions.ts), obeys the host's reveals (reveal.ts); re-renders (lit, coalesced per
// frame: rendering.ts) on every change. What the views read of its runs is derived in model/panelRuns.ts.
import type { TemplateResult } from 'lit';
import type { Experiment, RunRecord, Tick } from '../shared/experiment';
import {
  message,
  ToHost,
  type MessageType,
  type PanelState,
  type PresetAnalysisInfo,
  type ToHostMap,
  type PayloadOf,
} from '../shared/protocol';
import type { RevealMessage } from '../shared/reveal';
import { PanelQuestions } from './questions';
import { bringIntoView, revealPlace, revealView, viewOf } from './reveal';
import { ErrorPlaces } from './errorPlace';
import { presetForm, type PresetFormState } from './model/presetForm';
import { PresetPreview } from './presetPreview';
import type { ShownExperiment } from './model/armViews';
import {
  formFromSelection,
  checkForm,
  paramsForSelect,
  draftFromProfile,
  withTypedPassword,
  type ConnDraft,
  type FormCheck,
  type FormState,
} from './model/form';
import { stableJson } from './model/format';
import { LiveRuns, type LiveEvent } from './model/liveRuns';
import { DEFAULT_VIEW, type RunRef, type ViewState } from './model/viewState';
import { allRunsOf, comparisonsOf, shownExperimentOf } from './model/panelRuns';
import { PanelRendering } from './rendering';
import { LiveChartsView } from './views/liveCharts';
import { applyThemeDefaults, registerCharts } from './views/chartSetup';
import { readTheme, watchTheme, type ThemeColors } from './views/theme';
import { panelTemplate, TICK_REGIONS } from './views/panel';
import { ScalingChart, CompareChart } from './views/analysisCharts';
import type { ViewContext } from './views/context';
import type { WatchTick } from '../shared/watch';
import { WatchModel, type WatchChange } from './model/watchRun';
import { watchChartsOf } from './views/watchCharts';
import { StacksModel, type StacksError } from './model/stacks';
import type { StackCapture } from '../shared/stacks';
import { TuneModel } from './model/tuneLive';
import { Toast } from './toast';
import { ViewSwitcher } from './viewSwitch';
import type { PanelView } from '../shared/panelViews';
import { NowModel } from './model/now';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export class App implements ViewContext {
  state: PanelState | null = null;
  form: FormState | null = null;
  conn: ConnDraft = draftFromProfile(null, []);
  view: ViewState;
  readonly live = new LiveRuns();
  readonly experiments = new Map<string, Experiment>();
  /** The preset views and comparisons the host sent with an opened experiment. */
  readonly experimentPresets = new Map<string, PresetAnalysisInfo | null>();
  /** The Presets form (settings as typed); null until the catalogue arrives. */
  presetForm: PresetFormState | null = null;
  private readonly preview = new PresetPreview(this);
  /** The questions asked of the host, and their answers. */
  readonly questions: PanelQuestions;
  /** An element to bring into view and focus once rendered (a reveal's target). */
  private revealPending: { section: string; focus: string } | null = null;
  private readonly toasts = new Toast();
  /** The run the charts show, chosen by the user (null: follow the current run). */
  pickedRun: number | null = null;
  /** What the user asked for last, to tell a deploy error from others. */
  lastAction: 'deploy' | 'run' | 'connect' | 'custom' | 'tune' | null = null;
  connErrors: Record<string, string> = {};
  private readonly errorPlaces = new ErrorPlaces();
  theme: ThemeColors;
  readonly charts: LiveChartsView;
  readonly scalingChart: ScalingChart;
  readonly compareChart: CompareChart;
  readonly abChart: CompareChart;
  readonly watch = new WatchModel();
  readonly watchCharts: LiveChartsView;
  readonly stacks = new StacksModel();
  readonly tune = new TuneModel();
  readonly now = new NowModel(() => this.rendering.requestRegions(['now']));
  /** When and how much of the panel is drawn (rendering.ts). */
  private readonly rendering: PanelRendering;
  private selectTimer: ReturnType<typeof setTimeout> | null = null;
  private lastSentSelection: string | null = null;
  private lastHostSelection: string | null = null;
  private lastHostDraft: string | null = null;
  private readonly views: ViewSwitcher;

  constructor(
    private readonly api: VsCodeApi,
    private readonly root: HTMLElement,
  ) {
    this.questions = new PanelQuestions((envelope) => api.postMessage(envelope), this);
    this.rendering = new PanelRendering(
      root,
      () => panelTemplate(this),
      () => {
        // A reveal or an error in a hidden view shows that view first; it is brought into view once drawn.
        const to = this.revealPending ? viewOf(this.root, this.revealPending.section) : null;
        if (to && to !== this.views.shown) this.views.show(to, { keepScroll: true });
        else if (this.revealPending && bringIntoView(this.root, this.revealPending)) this.revealPending = null;
        this.views.afterRender(this.state !== null);
      },
    );
    const saved = api.getState() as Partial<ViewState> | undefined;
    this.view = { ...DEFAULT_VIEW, ...(saved && typeof saved === 'object' ? saved : {}) };
    this.view.open = { ...DEFAULT_VIEW.open, ...(this.view.open ?? {}) };
    this.views = new ViewSwitcher(this);
    this.views.install();
    this.tune.restoreForm(this.view.tuneForm);
    registerCharts();
    this.theme = readTheme();
    applyThemeDefaults(this.theme);
    this.charts = new LiveChartsView(this.theme, this.view.toggles, {
      onToggles: (t) => this.setView({ toggles: t }),
      onPickRun: (i) => {
        this.pickedRun = i;
        this.syncCharts();
      },
    });
    this.watchCharts = watchChartsOf(this);
    this.scalingChart = new ScalingChart(this.theme);
    this.compareChart = new CompareChart(this.theme);
    this.abChart = new CompareChart(this.theme, 'ab-throughput', 'Throughput over time of arm A and arm B');
    watchTheme((t) => {
      this.theme = t;
      applyThemeDefaults(t);
      for (const c of [this.charts, this.watchCharts, this.scalingChart, this.compareChart, this.abChart]) c.setTheme(t);
    });
  }

  // ---------------------------------------------------------------- host -> webview

  onState(s: PanelState, checkedTicks: Parameters<LiveRuns['loadSnapshot']>[1] = []): void {
    this.state = s;
    const sel = stableJson(s.selection);
    if (this.form === null || (sel !== this.lastHostSelection && sel !== this.lastSentSelection && this.selectTimer === null)) {
      const title = this.form?.title ?? '';
      const repeat = this.form?.repeat ?? '1';
      this.form = { ...formFromSelection(s.selection), title, repeat };
    }
    this.lastHostSelection = sel;
    const draft = stableJson(s.draft);
    if (draft !== this.lastHostDraft) {
      this.lastHostDraft = draft;
      this.conn = withTypedPassword(draftFromProfile(s.draft, s.savedPasswords), this.conn);
      this.connErrors = {};
    }
    if (s.connection.status === 'connected') this.conn.password = '';
    // A new error where the user acted (errorPlace.ts): its section open, the error in view, its control focused.
    const place = this.errorPlaces.next(s, this.lastAction);
    if (place?.open && !this.view.open[place.open]) this.setView({ open: { ...this.view.open, [place.open]: true } });
    if (place) this.revealPending = place;
    this.applyLive(this.live.loadSnapshot(s.active, checkedTicks));
    this.applyWatch(this.watch.loadSnapshot(s.watch));
    this.tune.loadSnapshot(s.active);
    if (s.watch && this.watchCharts.currentToggles.showAllWaits !== s.watch.showBenign)
      this.watchCharts.setToggles({ ...this.watchCharts.currentToggles, showAllWaits: s.watch.showBenign });
    const pick = this.view.preset && s.presets.some((p) => p.id === this.view.preset) ? this.view.preset : (s.presets[0]?.id ?? null);
    if (pick && (!this.presetForm || this.presetForm.presetId !== pick)) this.presetForm = presetForm(pick);
    this.questions.onState(s);
    if (this.presetForm && !this.preview.pending && s.connection.status === 'connected' && this.questions.planStale(s, this.presetForm))
      this.preview.schedule();
    this.requestRender();
  }

  /** Obeys a reveal once (a reveal comes again after `ready`): the section open, the item selected and in view. */
  onReveal(m: RevealMessage): void {
    if (this.view.lastReveal === m.seq) return;
    const r = m.reveal;
    const open = { ...this.view.open, ...revealView(r) };
    this.setView({ lastReveal: m.seq, open });
    if (r.target === 'preset' && this.presetForm?.presetId !== r.id) this.pickPreset(r.id);
    if (r.target === 'view') this.views.show(r.view);
    const place = revealPlace(r);
    if (r.target === 'experiment') this.setView({ results: r.id, analysis: r.id });
    if (r.target === 'experiment' && !this.experiments.has(r.id)) {
      // Brought into view once it is drawn: its results and analysis, above the history, change the layout.
      this.questions.openExperiment(r.id, () => {
        this.revealPending = place;
      });
    } else {
      this.revealPending = place;
    }
    // Drawn now: a toggle a click queued before this reveal must find the section open (common.ts sectionOpen()).
    this.rendering.renderNow();
  }
  onRunStart(p: { experimentId: string; index: number; threads: number; arm?: { id: string; label: string }; repetition?: number }): void {
    if (this.live.runStart(p.experimentId, p.index, p.threads, p.arm, p.repetition)) this.syncCharts();
  }

  onTick(p: { experimentId: string; index: number; tick: Tick }): void {
    const before = this.live.runs.has(p.index);
    const run = this.live.tick(p.experimentId, p.index, p.tick);
    if (!run) return;
    if (!before) this.syncCharts();
    this.charts.ticksAdded(run, run.store.length - 1);
    // Not the whole panel: only the parts a tick changes (run status, live totals and what is computed from them).
    this.rendering.requestRegions(TICK_REGIONS);
  }

  onRunEnd(p: { experimentId: string; record: RunRecord }): void {
    const run = this.live.runEnd(p.experimentId, p.record);
    if (!run) return;
    this.charts.ticksAdded(run, 0);
    this.charts.runChanged();
    this.requestRender();
  }

  onWatchTick(p: { watchId: string; tick: WatchTick }): void {
    const c = this.watch.tick(p.watchId, p.tick);
    this.applyWatch(c);
    if (c.kind === 'reset') this.requestRender();
    else this.rendering.requestRegions(['watch']);
  }

  private applyWatch(c: WatchChange): void {
    const run = this.watch.run;
    if (c.kind === 'reset') this.watchCharts.setRuns(run ? [run] : [], run, null);
    else if (c.kind === 'ticks' && run) this.watchCharts.ticksAdded(run, c.from);
    if (run) this.watchCharts.runChanged();
  }

  /** The search's state after a trial or a round (checked on arrival: a malformed one is dropped). */
  onTuneProgress(p: unknown): void {
    if (this.tune.progress(p)) this.rendering.requestRegions(['tune']);
  }

  onStacksProgress(p: { spinlock: string; elapsedMs: number; durationMs: number }): void {
    this.stacks.onProgress(p);
    this.requestRender();
  }

  onStacksResult(c: StackCapture): void {
    this.stacks.onResult(c);
    this.requestRender();
  }

  onStacksError(e: StacksError): void {
    this.stacks.onError(e);
    this.requestRender();
  }

  onExperiment(e: Experiment, preset?: PresetAnalysisInfo | null): void {
    this.experiments.set(e.id, e);
    this.experimentPresets.set(e.id, preset ?? null);
    this.requestRender();
  }

  // ---------------------------------------------------------------- presets

  pickPreset(id: string): void {
    this.presetForm = presetForm(id);
    this.setView({ preset: id });
    this.preview.schedule();
  }

  /** Applies an edit of the Presets form and, after a pause in typing, asks the host for the plan with it. */
  editPreset(change: (f: PresetFormState) => void): void {
    if (!this.presetForm) return;
    change(this.presetForm);
    this.requestRender();
    this.preview.schedule();
  }

  // ---------------------------------------------------------------- the experiment the analysis views show

  /** The live experiment, or one opened from the history, as the analysis views read it. */
  shownExperiment(which?: string): ShownExperiment | null {
    return shownExperimentOf(this, which ?? this.view.analysis);
  }

  get toast(): string | null {
    return this.toasts.text;
  }

  onToast(text: string): void {
    this.toasts.show(text, () => this.requestRender());
  }

  private applyLive(events: LiveEvent[]): void {
    if (events.some((e) => e.kind === 'reset' || e.kind === 'run')) this.syncCharts();
    for (const e of events) {
      if (e.kind !== 'ticks') continue;
      const run = this.live.runs.get(e.index);
      if (run) this.charts.ticksAdded(run, e.from);
    }
    this.charts.runChanged();
  }

  /** Points the charts at the picked run or the current one. */
  syncCharts(): void {
    if (this.pickedRun !== null && !this.live.runs.has(this.pickedRun)) this.pickedRun = null;
    const idx = this.pickedRun ?? this.live.currentIndex;
    const show = idx === null ? null : (this.live.runs.get(idx) ?? null);
    this.charts.setRuns(this.live.ordered(), show, this.pickedRun);
    this.requestRender();
  }

  // ---------------------------------------------------------------- webview -> host

  post<M extends ToHostMap[keyof ToHostMap]>(m: M, payload: PayloadOf<M>): void {
    this.api.postMessage(message(m as MessageType<string, PayloadOf<M>>, payload));
  }

  check(): FormCheck | null {
    if (!this.form || !this.state) return null;
    return checkForm(this.form, this.state.scenarios, this.state.server?.topology ?? null);
  }

  /** Applies a form edit, re-renders, and remembers it on the host after a pause in typing. */
  editForm(change: (f: FormState) => void): void {
    if (!this.form) return;
    change(this.form);
    this.requestRender();
    if (this.selectTimer) clearTimeout(this.selectTimer);
    this.selectTimer = setTimeout(() => this.flushSelect(), 300);
  }

  flushSelect(): void {
    if (this.selectTimer) clearTimeout(this.selectTimer);
    this.selectTimer = null;
    const check = this.check();
    if (!this.form || !check) return;
    const payload = {
      scenarioId: this.form.scenarioId,
      parameters: paramsForSelect(this.form, check),
      run: { ...this.form.run },
      knobs: { ...this.form.knobs },
    };
    this.lastSentSelection = stableJson(payload);
    this.post(ToHost.selectionSave, payload);
  }

  editConn(change: (d: ConnDraft) => void): void {
    change(this.conn);
    this.connErrors = {};
    this.requestRender();
  }

  setView(patch: Partial<ViewState>): void {
    this.keepView(patch);
    this.requestRender();
  }

  keepView(patch: Partial<ViewState>): void {
    this.view = { ...this.view, ...patch };
    this.api.setState(this.view);
  }

  shownView(): PanelView {
    return this.views.shown;
  }

  showView(v: PanelView, opts?: { focusTab?: boolean }): void {
    this.views.show(v, opts);
  }

  /** Every run the panel has, active experiment first. */
  allRuns(): RunRef[] {
    return allRunsOf(this);
  }

  comparisonsOf(key: string): readonly { a: string; b: string }[] {
    return comparisonsOf(this, key);
  }

  // ---------------------------------------------------------------- rendering

  requestRender(): void {
    this.rendering.requestRender();
  }

  renderNow(): void {
    this.rendering.renderNow();
  }

  /** A part of the panel that ticks change: its own element, rendered with the panel and alone after a tick. */
  region(name: string, template: () => TemplateResult): HTMLElement {
    return this.rendering.region(name, template);
  }
}
