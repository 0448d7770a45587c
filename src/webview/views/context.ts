// What a view may read and do, handed to every view as a parameter: the views depend on this contract and the model,
// never on App (app.ts imports the views to render them, so an import back would be a circle).
import type { TemplateResult } from 'lit';
import type { Experiment } from '../../shared/experiment';
import type { PanelState, PayloadOf, ToHostMap } from '../../shared/protocol';
import type { PanelQuestions } from '../questions';
import type { ShownExperiment } from '../model/armViews';
import type { ConnDraft, FormCheck, FormState } from '../model/form';
import type { LiveRuns } from '../model/liveRuns';
import type { PresetFormState } from '../model/presetForm';
import type { WatchModel } from '../model/watchRun';
import type { StacksModel } from '../model/stacks';
import type { TuneModel } from '../model/tuneLive';
import type { NowModel } from '../model/now';
import type { RunRef, ViewState } from '../model/viewState';
import type { CompareChart, ScalingChart } from './analysisCharts';
import type { LiveChartsView } from './liveCharts';
import type { PanelView } from '../../shared/panelViews';

export interface ViewContext {
  readonly state: PanelState | null;
  readonly form: FormState | null;
  readonly conn: ConnDraft;
  readonly view: ViewState;
  readonly presetForm: PresetFormState | null;
  readonly live: LiveRuns;
  readonly experiments: ReadonlyMap<string, Experiment>;
  readonly toast: string | null;
  /** What the user asked for last, to tell a deploy error from others. */
  lastAction: 'deploy' | 'run' | 'connect' | 'custom' | 'tune' | null;
  connErrors: Record<string, string>;
  readonly charts: LiveChartsView;
  readonly scalingChart: ScalingChart;
  readonly compareChart: CompareChart;
  readonly abChart: CompareChart;
  /** The Watch mode's ticks on screen and its form. */
  readonly watch: WatchModel;
  readonly watchCharts: LiveChartsView;
  /** "Why is it spinning?": the capture asked for, running or shown. */
  readonly stacks: StacksModel;
  /** "Find the best settings": its form and the running search's state. */
  readonly tune: TuneModel;
  /** The Now view: the host's last reading of the server. */
  readonly now: NowModel;

  /** Sends an intent to the host. */
  post<M extends ToHostMap[keyof ToHostMap]>(m: M, payload: PayloadOf<M>): void;
  /** The questions the panel asks the host: a saved experiment, two windows compared, each preset's plan shown. */
  readonly questions: PanelQuestions;
  check(): FormCheck | null;
  /** Applies a form edit, re-renders, and remembers it on the host after a pause in typing. */
  editForm(change: (f: FormState) => void): void;
  flushSelect(): void;
  editConn(change: (d: ConnDraft) => void): void;
  setView(patch: Partial<ViewState>): void;
  /** The view shown, and showing another (its tab focused when the keyboard asked). */
  shownView(): PanelView;
  showView(v: PanelView, opts?: { focusTab?: boolean }): void;
  editPreset(change: (f: PresetFormState) => void): void;
  pickPreset(id: string): void;
  requestRender(): void;
  /** A part of the panel with its own element: rendered with the panel, and alone when only a tick changed it. */
  region(name: string, template: () => TemplateResult): HTMLElement;
  /** The live experiment, or one opened from the history (`which`, default the analysis view's), as the views read it. */
  shownExperiment(which?: string): ShownExperiment | null;
  /** Every run the panel has, active experiment first. */
  allRuns(): RunRef[];
  /** The arms an experiment's preset compares (key: ACTIVE or an opened experiment's id). */
  comparisonsOf(key: string): readonly { a: string; b: string }[];
}
