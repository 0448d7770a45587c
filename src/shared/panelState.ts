// What the host owns and the webview renders: PanelState and the views in it (the connection, the server, the active
// experiment, presets, the watch), and UiError. Types and two constants with no import of protocol.ts, so each
// feature's message file can name them while protocol.ts aggregates those files.
import type { CustomFill } from './customForm';
import type { Experiment, ExperimentEvent, KnobState, ParamValue, RunDerived, RunRecord, RunTotals, Tick } from './experiment';
import type { ParamSpec, Condition } from './params';
import type { ServerIdentity, Topology } from './types';
import type { PostId } from './posts';
import type { WatchGap, WatchMark, WatchRequest, WatchTick } from './watch';
import type { MonitorCostSummary } from './monitorCost';
import type { ConnectionProfile } from './connectionProfile';
import type { CheckView } from './checkView';
import type { TuneInfo } from './tune';
import type { OwnShare } from './ownShareTypes';

export const DEFAULT_LAB_DATABASE = 'SpinlockLab';

// ---------------------------------------------------------------- state the host owns and the webview renders

/** An error as the panel shows it: what went wrong, and what to do about it. */
export interface UiError {
  message: string;
  /** The fix in words, e.g. the GRANT statement. */
  fix?: string;
  /** A button the panel offers next to the message. */
  action?: 'restore' | 'connect' | 'retry';
  /** The connection form's control the error is about: the panel shows the error beside it, marked and focused. */
  control?: 'server' | 'user' | 'password' | 'trustServerCertificate';
}

export interface ScenarioSummary {
  id: string;
  name: string;
  description: string;
  /** The posts that use the scenario (src/shared/posts.ts), the one it comes from first. */
  posts: PostId[];
  unit: string;
  parameters: ParamSpec[];
  /** The scenario needs In-Memory OLTP when any of these conditions holds ({} = always). */
  xtpWhen: Condition[];
}

export interface JournalSummary {
  serverAddress: string;
  changes: string[];
  createdAt: string;
  pid: number;
  /** The settings the journal will put back, in words. */
  original: string;
}

export interface ServerView {
  identity: ServerIdentity;
  topology: Topology;
  knobs: KnobState;
  /** Scenarios found deployed in the lab database (empty when the lab database does not exist yet). */
  deployed: string[];
  labExists: boolean;
}

export interface RunSettings {
  mode: 'server-loop' | 'client-loop';
  /** As typed: '1,2,4' or '1-8' or '1..8x2'. */
  threads: string;
  /** '30s', '2m'; empty when rows is set. */
  duration: string;
  /** Total rows per session ('1M'); empty when duration is set. */
  rows: string;
  warmup: string;
  interval: string;
  /** Client worker threads for the client loop ('0': one event loop); blank or absent: one per client core. */
  clientWorkers?: string;
}

export interface KnobSettings {
  delayedDurability: 'unchanged' | 'DISABLED' | 'ALLOWED' | 'FORCED';
  /** An affinity spec ('auto', 'cpu:2-11', 'numa:0', 'numa:1-first-core', 'exclude-core0') or '' for unchanged. */
  affinity: string;
}

export interface ExperimentSummary {
  id: string;
  title: string;
  createdAt: string;
  scenarioId: string;
  status: Experiment['status'];
  simulated: boolean;
  serverName: string;
  threads: number[];
  runs: { index: number; threads: number; status: RunRecord['status']; rowsPerSec: number; arm?: ArmRef }[];
  /** The preset the experiment ran, or null. */
  presetId?: string | null;
  /** 'tune': a search for the best settings (opening it shows its result). */
  kind?: 'experiment' | 'tune';
}

/** Which arm of an experiment a run belongs to (a plain experiment has one, 'main'). */
export interface ArmRef {
  id: string;
  label: string;
}

// ---------------------------------------------------------------- presets

export type PresetViewKind = 'ab' | 'scaling' | 'math' | 'writelog';

/** A preset as the panel lists it (no server needed). */
export interface PresetSummary {
  id: string;
  name: string;
  /** The post whose experiment it reproduces (src/shared/posts.ts). */
  post: PostId;
  question: string;
  /** What the full experiment needs ('two NUMA nodes', 'In-Memory OLTP'); a server without it gets an adapted plan. */
  needs: string[];
  /** Every setting, with its default and allowed values. */
  settings: ParamSpec[];
  /** The preset's own load settings, as written (blank: the other one of duration / rows is used). */
  load: { duration: string; rows: string; warmup: string; interval: string; threads: string };
  views: PresetViewKind[];
  /** Names the post reasons with. */
  watch: string[];
  /** Repetitions of each arm at each thread count the preset runs unless told otherwise. */
  repeat: number;
}

/** One arm of a preset's plan for the connected server, in words. */
export interface PresetArmView {
  id: string;
  label: string;
  scenarioId: string;
  parameters: Record<string, ParamValue>;
  /** The knobs in words: 'delayed durability FORCED; CPU affinity numa:0-first-core (CPUs 2-9)'. */
  knobs: string;
  mode: RunSettings['mode'];
  threads: number[];
}

/** Arm A against arm B. */
export interface PresetComparisonView {
  a: string;
  b: string;
  label: string;
}

/** A preset's plan for the connected server with some settings (the defaults, or what the user typed). */
export interface PresetPlanView {
  presetId: string;
  /** The settings and load the plan was made with (as sent; {} and blanks for the defaults). */
  settings: Record<string, ParamValue>;
  load: PresetLoadInput;
  arms: PresetArmView[];
  comparisons: PresetComparisonView[];
  /** How the preset adapted to this server, and what it left out. */
  notes: string[];
  /** Why there is no plan (bad settings, or nothing the preset can run here): every problem. */
  problems: string[];
}

/** Load overrides for a preset as typed: a run's fields; blank ones take the preset's own. */
export type PresetLoadInput = RunSettings;

/** What the analysis views need to know about a preset experiment (live or opened). */
export interface PresetAnalysisInfo {
  id: string;
  name: string;
  post: PostId;
  question: string;
  notes: string[];
  views: PresetViewKind[];
  watch: string[];
  arms: ArmRef[];
  comparisons: PresetComparisonView[];
}

export interface LiveRunView {
  index: number;
  threads: number;
  status: 'running' | RunRecord['status'];
  ticks: Tick[];
  /** A full snapshot's runs: their ticks folded (addTickToTotals), the ticks themselves in the payload's columns (stateSnapshot.ts). */
  totals?: RunTotals;
  /** The arm this run belongs to (a preset runs several). */
  arm?: ArmRef;
  /** Which repetition of its arm at its thread count (1-based; absent: the only one). */
  repetition?: number;
  /** Once the run ended: its derived figures (clock rate, CPUs used) for "doing the math". */
  derived?: RunDerived;
  /** Once the run ended: the workload's own share of the server's work (shared/ownShare.ts); null: not read. */
  share?: OwnShare | null;
}

export interface ActiveExperimentView {
  experimentId: string | null;
  title: string;
  scenarioId: string;
  simulated: boolean;
  status: 'starting' | Experiment['status'];
  message: string;
  runs: LiveRunView[];
  events: ExperimentEvent[];
  /** The runs it plans (every arm, thread count and repetition): the one count its status says "of". */
  runCount?: number;
  /** A search bounded by time (a tune): its budget, said instead of a run count it cannot know. */
  budgetMs?: number;
  /** The preset this experiment runs, or null for a plain one. */
  preset?: PresetAnalysisInfo | null;
  /** The server's major version (for the WRITELOG diagnosis' queue limit). */
  majorVersion?: number | null;
  /** A tune ("Find the best settings"): the search's state so far, its result once it ended. */
  tune?: TuneInfo | null;
}

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected';

/** One saved connection of Microsoft's SQL extension, as the panel and the Activity Bar list it: no secret. */
export interface SqlExtensionConnectionView {
  /** Ours for it ('mssql-' and the SQL extension's profile id): the panel's profile id while connected with it. */
  id: string;
  label: string;
  server: string;
  database: string | null;
  authentication: ConnectionProfile['authentication'];
  user: string;
}

export interface SqlExtensionView {
  connections: SqlExtensionConnectionView[];
  /**
   * Whether the installed SQL extension still hands its saved credentials to other extensions (its exported
   * connect/getConnectionString, gone from its releases after August 2026): false means a SQL login's password is
   * asked once in the form; null until it is known (the SQL extension had not started when the panel opened).
   */
  sharesCredentials: boolean | null;
}

export interface PanelState {
  editor: 'vscode' | 'azdata';
  profiles: ConnectionProfile[];
  /** Profiles whose password is in SecretStorage. */
  savedPasswords: string[];
  /**
   * Microsoft's SQL extension's saved connections (host/sqlExtension.ts), never a secret; absent or null when that
   * extension is not installed.
   */
  sqlExtension?: SqlExtensionView | null;
  /** The profile in the form: the connected one, one picked, or a prefill from Object Explorer. */
  draft: ConnectionProfile | null;
  connection: { status: ConnectionStatus; profileId: string | null; error: UiError | null };
  server: ServerView | null;
  /** An unrestored restore journal for the connected server: the panel offers Restore before anything else. */
  journal: JournalSummary | null;
  /** The journal of this panel's running experiment: in use by that run (it puts the settings back when it ends),
   *  so shown as such, never offered for Restore and never blocking the panel as a leftover would. */
  runJournal: JournalSummary | null;
  scenarios: ScenarioSummary[];
  selection: { scenarioId: string; parameters: Record<string, ParamValue>; run: RunSettings; knobs: KnobSettings };
  /** What the host is doing now ('deploying disk-insert'), or null when idle. */
  busy: string | null;
  lastError: UiError | null;
  /** The running experiment, or the last one (kept until the next starts). */
  active: ActiveExperimentView | null;
  /** This server's earlier experiments, newest first. */
  history: ExperimentSummary[];
  /** The preset catalogue. */
  presets: PresetSummary[];
  /** When connected: each preset's plan for this server (defaults, or the settings last previewed for it). */
  presetPlans: PresetPlanView[];
  /** T-SQL a "Load Test This Query" command handed the panel; seq grows with each (the form fills when it changes). */
  customFill?: (CustomFill & { seq: number }) | null;
  /** The running watch of the connected server, or the last one (kept until the next starts); absent before any. */
  watch?: WatchView | null;
  check?: CheckView | null; // when connected: what will work here (`spinlab check`)
}

/** A watch as the panel shows it (src/host/features/watch); ticks arrive as `watchTick`, `recent` only in a full snapshot. */
export interface WatchView {
  /** The watch's folder name (under the results folder's `watches`). */
  id: string;
  title: string;
  serverName: string;
  simulated: boolean;
  status: 'starting' | 'running' | 'completed' | 'failed' | 'cancelled';
  intervalMs: number;
  showBenign: boolean;
  ticks: number;
  marks: WatchMark[];
  /** When the watch's measured start was, on the host's clock (set with the first tick): its charts read time of day. */
  startedAt?: string;
  /** What stands out, from the watch so far (thresholds named in each line). */
  diagnosis: string[];
  /** Who is waiting: the requests of the last tick. */
  requests: WatchRequest[];
  /** The last ticks at full resolution (bounded), for a reloaded webview. */
  recent: WatchTick[];
  message: string;
  /** What the watch's own session cost the server so far (the window in memory), beside the server's totals. */
  cost?: MonitorCostSummary | null;
  /** The warnings as the CLI prints them: each once, repeats counted ("(repeated 14 times) ..."); the last WATCH_WARNINGS_KEPT. */
  warnings?: string[];
  /** The gaps so far (connection lost, ticks failing, a restarted server): no tick and no delta across them. */
  gaps?: WatchGap[];
  /** When the watch ended: watched time, time lost in gaps, and the time the rates are per second of, in words. */
  coverage?: string | null;
}

/** Warning lines a WatchView keeps. */
export const WATCH_WARNINGS_KEPT = 50;
