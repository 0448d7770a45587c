// The panel's view choices (kept in the webview's own state across reloads) and the run references the views list.
import type { CustomDraft } from './customDraft';
import type { TuneFormState } from './tuneForm';
import type { RunRecord, Tick } from '../../shared/experiment';
import type { ArmRef } from '../../shared/protocol';
import type { RunWorkload } from '../../shared/runPairing';
import type { RunData } from './liveRuns';
import { DEFAULT_TOGGLES, type ChartToggles } from './metrics';
import type { SortState } from './results';
import type { PanelView } from '../../shared/panelViews';

/** View choices only (the host owns everything else): kept in the webview's own state across reloads. */
export interface ViewState {
  open: Record<string, boolean>;
  toggles: ChartToggles;
  sort: SortState | null;
  /** Comparison picks: "<experiment key>#<run index>". */
  compareA: string | null;
  compareB: string | null;
  /** Experiments overlaid on the scaling chart (ids), besides the active one. */
  scaling: string[];
  /** Which experiment the results table shows: 'active' or an opened experiment's id. */
  results: string;
  /** Which experiment the analysis views (A/B, doing the math, WRITELOG) show: 'active' or an opened one's id. */
  analysis: string;
  /** The preset picked in the Presets section. */
  preset: string | null;
  /** The view shown (shared/panelViews.ts); Now when none was chosen. */
  tab?: PanelView;
  /** Each view's scroll position, put back when it is shown again. */
  scroll?: Partial<Record<PanelView, number>>;
  /** The results table's column choices over its defaults (column key -> shown), model/columnChoice.ts. */
  columns?: Record<string, boolean>;
  /** The last reveal obeyed (its seq): the host sends each again after `ready`, and a reload must not obey it twice. */
  lastReveal?: string | null;
  /** The Custom workload form as typed (customDraft.ts): hiding the panel unloads the webview, and must lose no edit. */
  customDraft?: CustomDraft | null;
  /** The "Find the best settings" form as typed, kept for the same reason. */
  tuneForm?: Partial<TuneFormState> | null;
}

export const DEFAULT_VIEW: ViewState = {
  open: {
    connection: true,
    server: true,
    presets: true,
    scenario: true,
    knobs: true,
    run: true,
    charts: true,
    results: true,
    analysis: true,
    history: true,
    compare: true,
    scaling: true,
    watch: true,
  },
  toggles: DEFAULT_TOGGLES,
  sort: null,
  compareA: null,
  compareB: null,
  scaling: [],
  results: 'active',
  analysis: 'active',
  preset: null,
};

export const ACTIVE = 'active';

/** A run from any experiment the panel has: the active one or one opened from the history. */
export interface RunRef {
  key: string;
  experimentKey: string;
  experimentTitle: string;
  index: number;
  threads: number;
  status: string;
  ticks: readonly Tick[];
  record: RunRecord | null;
  run: RunData | null;
  /** The run's arm ('main', labelled with its scenario, for a plain experiment), and its letter when there are several. */
  arm: ArmRef;
  armLetter: string | null;
  repetition?: number;
  /** What it ran, when known (a live run learns it with its record): tells a different workload apart. */
  workload: RunWorkload | null;
}
