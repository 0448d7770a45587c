// The one protocol between the extension host and the panel webview. Each message is a descriptor that carries its
// payload type; both sides register a handler per message (never a switch on `any`). Messages from the webview are
// untrusted input: each has a zod schema and the host checks every message against it before any handler runs.
// The host owns the state: the webview renders PanelState snapshots and live ticks, and sends intents.
import { z } from 'zod';
import { customFormSchema, type CustomFill } from './customForm';
import type { Experiment, ExperimentEvent, KnobState, ParamValue, RunDerived, RunRecord, Tick } from './experiment';
import type { ParamSpec, Condition } from './params';
import type { ServerIdentity, Topology } from './types';
import type { PostId } from './posts';
import { fromWebview, toWebview, type Envelope } from './messages';
import type { WatchGap, WatchMark, WatchRequest, WatchTick } from './watch';
import type { MonitorCostSummary } from './monitorCost';
import { StacksToHost, StacksToWebview } from './stacksMessages';
import type { Answer } from './requests';
import type { RevealMessage } from './reveal';
export { MessageRouter, message, type CheckedMessageType, type Envelope, type MessageType, type PayloadOf } from './messages';

import { connectionProfileSchema, type ConnectionProfile } from './connectionProfile';
export { connectionProfileSchema, type ConnectionProfile };

export const DEFAULT_LAB_DATABASE = 'SpinlockLab';

// ---------------------------------------------------------------- state the host owns and the webview renders

/** An error as the panel shows it: what went wrong, and what to do about it. */
export interface UiError {
  message: string;
  /** The fix in words, e.g. the GRANT statement. */
  fix?: string;
  /** A button the panel offers next to the message. */
  action?: 'restore' | 'connect' | 'retry';
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
  /** The arm this run belongs to (a preset runs several). */
  arm?: ArmRef;
  /** Once the run ended: its derived figures (clock rate, CPUs used) for "doing the math". */
  derived?: RunDerived;
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
  /** The preset this experiment runs, or null for a plain one. */
  preset?: PresetAnalysisInfo | null;
  /** The server's major version (for the WRITELOG diagnosis' queue limit). */
  majorVersion?: number | null;
}

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected';

export interface PanelState {
  host: 'vscode' | 'azdata';
  profiles: ConnectionProfile[];
  /** Profiles whose password is in SecretStorage. */
  savedPasswords: string[];
  /** The profile in the form: the connected one, one picked, or a prefill from Object Explorer. */
  draft: ConnectionProfile | null;
  connection: { status: ConnectionStatus; profileId: string | null; error: UiError | null };
  server: ServerView | null;
  /** An unrestored restore journal for the connected server: the panel offers Restore before anything else. */
  journal: JournalSummary | null;
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
  /** When connected: each preset's plan for this server with its defaults (a plan for other settings answers presetPreview). */
  presetPlans: PresetPlanView[];
  /** T-SQL a "Load Test This Query" command handed the panel; seq grows with each (the form fills when it changes). */
  customFill?: (CustomFill & { seq: number }) | null;
  /** The running watch of the connected server, or the last one (kept until the next starts); absent before any. */
  watch?: WatchView | null;
  check?: import('./checkView').CheckView | null; // when connected: what will work here (`spinlab check`)
}

/** A watch as the panel shows it (src/host/watchPath.ts); ticks arrive as `watchTick`, `recent` only in a full snapshot. */
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

// ---------------------------------------------------------------- message descriptors

const paramValue = z.union([z.number().finite(), z.string().max(256), z.boolean()]);
const parameters = z.record(z.string().max(64), paramValue).refine((r) => Object.keys(r).length <= 64, 'too many parameters');
const text = (max: number) => z.string().max(max);
// Letters, digits, '-', '_' and '.', not starting with '.': an id is also a folder name, so '.' and '..' are refused.
export const experimentIdSchema = z.string().regex(/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/, 'not an experiment id');

export const runSettingsSchema = z.object({
  mode: z.enum(['server-loop', 'client-loop']),
  threads: text(200),
  duration: text(32),
  rows: text(32),
  warmup: text(32),
  interval: text(32),
  clientWorkers: text(8).optional(),
});
export const knobSettingsSchema = z.object({
  delayedDurability: z.enum(['unchanged', 'DISABLED', 'ALLOWED', 'FORCED']),
  affinity: text(200),
});

/** A preset's load as typed: the same fields as a run's (blank ones take the preset's own). */
const presetLoadSchema = runSettingsSchema;
export const presetIntentSchema = z.object({
  presetId: z.string().regex(/^[a-z0-9-]{1,64}$/, 'not a preset id'),
  /** Setting name -> value as typed (text) or picked (boolean). */
  settings: parameters,
  load: presetLoadSchema,
});

/** Webview -> host: intents. The host validates each against its schema before its handler sees it. */
export const ToHost = {
  /** The webview has loaded (or was shown again): send a snapshot and the live run. */
  ready: fromWebview('ready', z.object({})),
  /** Fill the form from a saved profile (null: a new, empty one). */
  pickProfile: fromWebview('pickProfile', z.object({ id: z.string().max(64).nullable() })),
  /** Connect with the profile as edited; a password typed now is used, and kept in SecretStorage if asked. */
  connect: fromWebview('connect', z.object({
    profile: connectionProfileSchema,
    password: z.string().max(512).optional(),
    savePassword: z.boolean(),
  })),
  disconnect: fromWebview('disconnect', z.object({})),
  saveProfile: fromWebview('saveProfile', z.object({ profile: connectionProfileSchema })),
  deleteProfile: fromWebview('deleteProfile', z.object({ id: z.string().max(64) })),
  refreshServer: fromWebview('refreshServer', z.object({})),
  /** Remember the form's choices (host keeps them across reloads). */
  select: fromWebview('select', z.object({
    scenarioId: z.string().max(64),
    parameters,
    run: runSettingsSchema,
    knobs: knobSettingsSchema,
  })),
  deploy: fromWebview('deploy', z.object({ scenarioId: z.string().max(64), parameters })),
  cleanup: fromWebview('cleanup', z.object({ scenarioId: z.string().max(64) })),
  run: fromWebview('run', z.object({
    scenarioId: z.string().max(64),
    parameters,
    run: runSettingsSchema,
    knobs: knobSettingsSchema,
    title: text(200).optional(),
    question: text(1000).optional(),
  })),
  /** Run the Custom workload form (customPath.ts): the user's T-SQL in their database, nothing deployed. */
  runCustom: fromWebview('runCustom', z.object({ form: customFormSchema, title: text(200).optional() })),
  stop: fromWebview('stop', z.object({})),
  restore: fromWebview('restore', z.object({})),
  revealExperiment: fromWebview('revealExperiment', z.object({ id: experimentIdSchema })),
  copyText: fromWebview('copyText', z.object({ text: z.string().max(1_000_000) })),
  /** Save a saved experiment as a Jupyter notebook (the host asks where). */
  saveNotebook: fromWebview('saveNotebook', z.object({ id: experimentIdSchema })),
  /** Run a preset as one experiment of several arms: confirmed, cancellable, saved to history like a run. */
  runPreset: fromWebview('runPreset', presetIntentSchema.extend({ title: text(200).optional() })),
  /** Export a saved experiment's samples as CSV or its T-SQL as a script bundle (the host asks for a folder). */
  exportExperiment: fromWebview('exportExperiment', z.object({ id: experimentIdSchema, kind: z.enum(['csv', 'tsql']) })),
  /** Start a read-only watch of the connected server. */
  watchStart: fromWebview('watchStart', z.object({ intervalMs: z.union([z.literal(1000), z.literal(500), z.literal(250)]), showBenign: z.boolean() })),
  watchStop: fromWebview('watchStop', z.object({})),
  /** Show or hide the benign waits in the watch's wait figures. */
  watchBenign: fromWebview('watchBenign', z.object({ show: z.boolean() })),
  /** Drop a named mark into the running watch ("index rebuilt"). */
  watchMark: fromWebview('watchMark', z.object({ name: z.string().trim().min(1, 'a mark needs a name').max(200) })),
  /** Save the watch as a Jupyter notebook (the host asks where). */
  watchSaveNotebook: fromWebview('watchSaveNotebook', z.object({})),
  ...StacksToHost, // "Why is it spinning?" (stacksMessages.ts)
} as const;

/** Host -> webview: state and data. Trusted (the host made them), so no schema. */
export const ToWebview = {
  /** The whole state, without tick arrays of finished experiments. */
  state: toWebview<{ state: PanelState }>()('state'),
  /** A run of the active experiment started. */
  runStart: toWebview<{ experimentId: string; index: number; threads: number; arm?: ArmRef }>()('runStart'),
  /** One new sample interval of the active experiment's current run. */
  tick: toWebview<{ experimentId: string; index: number; tick: Tick }>()('tick'),
  /** A run finished: its record (with totals, derived figures and its full timeline). */
  runEnd: toWebview<{ experimentId: string; record: RunRecord }>()('runEnd'),
  /** A short-lived notice ('copied'). */
  toast: toWebview<{ message: string }>()('toast'),
  /** One tick of the running watch. */
  watchTick: toWebview<{ watchId: string; tick: WatchTick }>()('watchTick'),
  ...StacksToWebview,
  /** The answer to a request (requests.ts; the questions are in panelRequests.ts). */
  response: toWebview<Answer>()('response'),
  /** Show this: switch to its section and select it (the Activity Bar's items; reveal.ts). */
  reveal: toWebview<RevealMessage>()('reveal'),
} as const;

export type ToHostMap = typeof ToHost;
export type ToWebviewMap = typeof ToWebview;
export type ToHostMessage = Envelope<ToHostMap>;
export type ToWebviewMessage = Envelope<ToWebviewMap>;

export type ParseResult = { ok: true; message: ToHostMessage } | { ok: false; error: string };

/** Checks an untrusted value from the webview: a known type, and a payload its schema accepts. */
export function parseToHost(raw: unknown): ParseResult {
  if (raw === null || typeof raw !== 'object') return { ok: false, error: 'a message must be an object' };
  const { type, payload } = raw as { type?: unknown; payload?: unknown };
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(ToHost, type)) {
    return { ok: false, error: `unknown message type ${JSON.stringify(type)?.slice(0, 64)}` };
  }
  const descriptor = ToHost[type as keyof ToHostMap];
  const r = descriptor.schema.safeParse(payload ?? {});
  if (!r.success) {
    const first = r.error.issues[0];
    return { ok: false, error: `${type}: ${first ? `${first.path.join('.') || 'payload'}: ${first.message}` : 'invalid payload'}` };
  }
  return { ok: true, message: { type, payload: r.data } as ToHostMessage };
}
