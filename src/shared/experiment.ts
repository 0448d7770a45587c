// The experiment record: what experiment.json holds (schema/experiment.schema.json is its contract).
import type { ExperimentDesign } from './experimentDesign';
import type { MonitorCost, MonitorCostSummary } from './monitorCost';
import type { StackCapture } from './stacks';
import type { ServerIdentity, Topology } from './types';
import type { PostId } from './posts';
import type { TuneInfo } from './tune';
import type { OwnActivity, OwnShare } from './ownShareTypes';
import type { CustomWorkload } from './customWorkload';
import type { RunSteady } from './runSteady';

export type { CustomWorkload, RunSteady };

export const EXPERIMENT_SCHEMA_VERSION = 6;

export type ParamValue = number | string | boolean;

export interface SpinDelta {
  spins: number;
  collisions: number;
  backoffs: number;
  sleepTime: number;
}
export interface WaitDelta {
  waitMs: number;
  count: number;
  signalMs: number;
}
export interface LatchDelta {
  waitMs: number;
  count: number;
}

/** One sampling interval: deltas between two consecutive samples, and rates over the server-measured interval. */
export interface Tick {
  /**
   * ms from the run's (or watch's) baseline sample to the end of this interval, on the client's monotonic clock
   * anchored once (engine/clock.ts): a reconnect or a restarted server never resets it. The interval's length, and
   * so every rate, is the server's (ms_ticks).
   */
  t: number;
  /** Length of the interval in ms (server clock). */
  intervalMs: number;
  /** Rows written by the workload in this interval (inserts + updates of the scenario's tables). */
  rows: number;
  /** Rows written by the workload per second (from the lab tables' row operation counters). */
  rowsPerSec: number;
  /** Transactions of the lab database in this interval (Transactions/sec counter delta). */
  transactions: number;
  /** Transactions/sec of the lab database (perf counter; excludes transactions inside native procs). */
  transactionsPerSec: number;
  writeTransactionsPerSec: number;
  batchRequestsPerSec: number;
  /** Per-interval deltas, only entries that moved. */
  spinlocks: Record<string, SpinDelta>;
  /** Benign waits are kept here; filtering is a view concern (shared/benign.ts). */
  waits: Record<string, WaitDelta>;
  latches: Record<string, LatchDelta>;
  log: {
    /** Log flushes and bytes flushed in this interval (counter deltas; the rates below are these over the interval). */
    flushes: number;
    bytesFlushed: number;
    flushesPerSec: number;
    bytesFlushedPerSec: number;
    flushWaitsPerSec: number;
    /** Log Flush Wait Time (ms) accumulated in this interval (the raw value if the server reports it point-in-time). */
    flushWaitTimeMs: number;
    /** Average log write stall in this interval (io_stall_write_ms / writes of the lab log file), or null. */
    avgWriteStallMs: number | null;
  };
  /** Pending I/O requests on the lab database's log file at the end of the interval. */
  pendingLogIo: number;
  /** CPU busy % per NUMA node (online schedulers only), from total_cpu_usage_ms deltas. */
  cpuByNode: Record<string, number>;
  /** Scheduler CPU ms used in this interval, summed over online user (visible) schedulers. */
  cpuMs: number;
  /** CPU ms on hidden schedulers in this interval (the log writers and other system tasks), apart from cpuMs. */
  hiddenCpuMs?: number;
  /** Online user schedulers at the end of the interval. */
  onlineSchedulers: number;
  runnableTasks: number;
  /** Set on the first tick after a monitor reconnect: the interval spans a gap in sampling. */
  gap?: boolean;
  /** What Spinlock Lab's own monitor session cost the server in this interval (delta ticks; absent in older records). */
  monitor?: MonitorCost | null;
  /** What the run's own workload sessions did in this interval (shared/ownShare.ts); absent in a watch and older records. */
  own?: OwnActivity | null;
}

/** Client latency of the completed calls; with none (count 0) every figure is null, never 0. */
export interface LatencySummary {
  count: number;
  meanUs: number | null;
  p50Us: number | null;
  p90Us: number | null;
  p99Us: number | null;
  p999Us: number | null;
  maxUs: number | null;
  /** The HDR histogram itself (compressed base64), so summaries can be merged later; absent when not kept. */
  histogram?: string;
}

export interface RunTotals {
  /** Sum of the ticks' server-measured intervals. */
  elapsedMs: number;
  rows: number;
  transactions: number;
  spinlocks: Record<string, SpinDelta>;
  waits: Record<string, WaitDelta>;
  latches: Record<string, LatchDelta>;
  logFlushes: number;
  logBytesFlushed: number;
  cpuMs: number;
  /** CPU ms on hidden schedulers (log writers, system tasks) over the run, apart from cpuMs; absent in older records. */
  hiddenCpuMs?: number;
}

export interface CpuCount {
  threads: number;
  onlineSchedulers: number;
  threadsPerCore: number;
  physicalCores: number;
}

export interface MeasuredCpu {
  /** Delta of sum(total_cpu_usage_ms) over the online schedulers, over the run. */
  cpuMs: number;
  /** cpuMs / elapsed ms: the CPUs the run kept busy on average. */
  busyCpus: number;
  /** cpuMs / 1000 x measured clock rate, or null without a clock rate. */
  cycles: number | null;
  cyclesPerRow: number | null;
}

export interface RunDerived {
  rowsPerSec: number;
  /** spins and backoffs per row, per spinlock (only spinlocks that moved). */
  spinsPerRow: Record<string, number>;
  backoffsPerRow: Record<string, number>;
  /** wait ms per row, per wait type (benign excluded). */
  waitMsPerRow: Record<string, number>;
  /** Measured clock rate: delta cpu_ticks / delta ms_ticks * 1000. */
  clockHz: number | null;
  /** The two deltas clockHz came from (first and last raw sample of the run), for the "doing the math" view. */
  clock: { cpuTicksDelta: number; msTicksDelta: number } | null;
  /** Elapsed seconds used in the math (server-measured). */
  elapsedSec: number;
  /** CPUs the run's sessions could run on: its threads, at most the online schedulers its affinity leaves (v3). */
  cpusUsed: number;
  /** What cpusUsed came from, and the physical cores behind it as the posts count them (10 threads = 5 cores). */
  cpuCount: CpuCount;
  /** A second basis, from the measurement: the change in the online schedulers' total_cpu_usage_ms over the run. */
  measuredCpu: MeasuredCpu;
  /** Cycles available = elapsed s x CPUs used x clock rate, or null without a clock rate. */
  cyclesAvailable: number | null;
  /** Cycles available per spin, per spinlock (only spinlocks that spun). */
  cyclesPerSpin: Record<string, number>;
  cyclesPerRow: number | null;
}

export interface SessionSpread {
  /** Sessions that finished their share. */
  sessions: number;
  /** When the first and the last of them finished, ms after the measured phase began (client clock). */
  firstEndedMs: number;
  lastEndedMs: number;
  /** Each session's rows over its own time, summed: the rate while every session was working. */
  allRunningRowsPerSec: number;
}

export interface ClientStats {
  cpuUserMs: number;
  cpuSystemMs: number;
  /** Client CPU microseconds per workload call (client loop) or per row (server loop). */
  cpuUsPerCall: number | null;
  eventLoopLagP99Ms: number;
  eventLoopLagMaxMs: number;
  rssMb: number;
}

export interface SessionFailure {
  session: number;
  message: string;
  number?: number;
}

/**
 * What a run ran: its scenario, parameters, knobs and mode. A plain experiment has one arm for every run; a preset
 * runs several arms (the log writer's node and the other node, batch 1 and batch 2, ...) in one experiment.
 */
export interface RunArm {
  /** Unique within the experiment: 'main' for a plain experiment, e.g. 'lw-node' in a preset. */
  id: string;
  label: string;
  scenarioId: string;
  parameters: Record<string, ParamValue>;
  /** The knobs this arm asked for; a knob it leaves out is the server's own setting from before the experiment. */
  knobs: KnobRequest;
  mode: LoadSettings['mode'];
}

/** The preset an experiment ran, if any: which post it reproduces, its question, and how it adapted to the server. */
export interface PresetInfo {
  id: string;
  /** The post whose experiment it reproduces (src/shared/posts.ts). */
  post: PostId;
  question: string;
  notes: string[];
  /** The arm comparisons that answer the question, as planned for this server (absent in early v2 records). */
  comparisons?: { a: string; b: string; label: string }[];
  /** The analysis views the preset asks for, and the names the post reasons with. */
  views?: ('ab' | 'scaling' | 'math' | 'writelog')[];
  watch?: string[];
  /** The preset's settings as run, and the user's thread counts (null: the preset's own): a re-run plans from them. */
  settings?: Record<string, ParamValue>;
  threads?: number[] | null;
}

export interface RunRecord {
  /** Since version 5: spinlock backoff call stacks captured during this run. */
  stacks?: StackCapture[];
  index: number;
  threads: number;
  /** Since version 6: which repetition of its cell (arm and thread count) this run is, from 1; absent: 1. */
  repetition?: number;
  arm: RunArm;
  /** invalid: the run completed but its conditions changed under it (invalidReason says how); absent before version 5. */
  status: 'completed' | 'failed' | 'cancelled' | 'invalid';
  /** Why the run is invalid: a knob changed by another connection, or the experiment's lock lost with its connection. */
  invalidReason?: string;
  /** Why the run failed: every call failed or timed out, no call completed, most sessions failed (runVerdict.ts). */
  failedReason?: string;
  /**
   * Calls in flight when the measured time ended (or on cancel), cancelled with ATTENTION and counted nowhere else:
   * not in calls, rows or latency. Absent in records written before it was kept.
   */
  cancelledCalls?: number;
  startedAt: string;
  endedAt: string;
  elapsedMs: number;
  rows: number;
  sessionsOk: number;
  sessionFailures: SessionFailure[];
  timeline: Tick[];
  totals: RunTotals;
  derived: RunDerived;
  client: ClientStats;
  latency: LatencySummary | null;
  /** A custom workload's calls, errors and per-call figures (absent for built-in scenarios). */
  custom?: CustomRunStats;
  /**
   * The workload's transactions run inside natively compiled procedures, which SQL Server's Transactions/sec counter
   * does not count: the run's tx/s does not apply (absent in older records and for other workloads).
   */
  nativeProcedures?: boolean;
  /** A run that ends on a row count: how unevenly its sessions finished (shared/sessionSpread.ts); absent otherwise. */
  sessionSpread?: SessionSpread | null;
  /** The waits of the run's own workload sessions (sys.dm_exec_session_wait_stats, 2016+); null when unreadable. */
  sessionWaits?: Record<string, WaitDelta> | null;
  /** What Spinlock Lab's monitor session cost the server over the run, beside the server's totals (absent in older records). */
  monitorCost?: MonitorCostSummary | null;
  /** The workload's own share of the server's CPU and waits over the run (shared/ownShare.ts); null: not read. */
  share?: OwnShare | null;
  /** What happened that the reader must know: restarts, reconnects, dropped sessions. */
  events: ExperimentEvent[];
  /** How the monitor connection fared (absent in records before it was kept). */
  monitor?: MonitorStats;
  /**
   * Where the run's steady state started (shared/repeats/steady.ts): totals, derived, rows and elapsedMs are over the
   * ticks from `fromTick` on. Absent in older records and in runs that did not complete: the figures are over every
   * tick after the fixed warm-up.
   */
  steady?: RunSteady;
  /**
   * The A/B block the run ran in (engine/planOrder.ts): runs with the same block ran next to each other, their arms
   * taking turns. Two arms whose runs never share a block ran one after the other. Absent in older records and tunes.
   */
  block?: number;
}

/** The monitor's reconnects, failed ticks and fallbacks over a run or a watch (engine/monitorPolicy.ts). */
export interface MonitorStats {
  /** Connections opened after the first (after a failed tick, a lost connection, or a fallback). */
  reconnects: number;
  failedTicks: number;
  /** Fallbacks taken after failures in a row: to the full query, then to a longer interval. */
  fallbacks: number;
  /** True when it read the full query at the end (from the start with --full-ticks, or after a fallback). */
  fullQuery: boolean;
  /** The longest interval it backed off to (ms); the interval asked for when it never did. */
  longestIntervalMs: number;
}

export interface ExperimentEvent {
  time: string;
  level: 'info' | 'warning' | 'error';
  message: string;
}

export interface KnobState {
  delayedDurability: string | null;
  /**
   * numaNodes: the affinity was (as far as the server shows) set by NUMA node: MANUAL with exactly the CPUs of whole
   * nodes online. SQL Server does not report which form set it; such an affinity is restored with NUMANODE = ..., the
   * form Microsoft advises on Linux, so a NUMANODE affinity comes back as one and not as a CPU list.
   */
  affinity: { type: string; cpus: number[]; numaNodes?: number[] };
}

export interface KnobRequest {
  delayedDurability?: 'DISABLED' | 'ALLOWED' | 'FORCED';
  /** As the user wrote it (auto, cpu:2-11, numa:0, exclude-core0) and as resolved against the topology. */
  affinity?: { spec: string; cpus: number[] | 'AUTO' };
}

export interface LoadSettings {
  mode: 'server-loop' | 'client-loop';
  threads: number[];
  durationMs: number | null;
  rows: number | null;
  warmupMs: number;
  intervalMs: number;
  /** Client worker threads for the client loop (0: the sessions share one event loop); absent: one per client core. */
  clientWorkers?: number;
  /** The client loop's calls: 'driver' forces the ordinary driver; absent: the lean path where a session allows it. */
  clientPath?: 'lean' | 'driver';
}

export interface Experiment {
  schemaVersion: typeof EXPERIMENT_SCHEMA_VERSION;
  /** Since version 5: spinlock backoff call stacks captured for this experiment (spinlab stacks --add-to). */
  stacks?: StackCapture[];
  /** Since version 3 (a watch is the other kind, src/shared/watch.ts); records of version 2 and before are experiments. */
  kind?: 'experiment' | 'tune';
  id: string;
  title: string;
  question: string | null;
  createdAt: string;
  tool: { name: 'spinlock-lab'; version: string };
  /** True when the numbers come from the Spinlock Lab simulator, not a SQL Server. */
  simulated: boolean;
  server: ServerIdentity;
  topology: Topology;
  labDatabase: string;
  /** The scenario of the experiment; for a preset, its first arm's (each run's `arm` says what that run ran). */
  scenario: { id: string; parameters: Record<string, ParamValue> };
  /** For a preset: the first arm's mode and thread counts, with the shared duration, warm-up and interval. */
  load: LoadSettings;
  /** before: the state before the first change; applied: what was asked for (for a preset, its first arm's knobs). */
  knobs: { before: KnobState | null; applied: KnobRequest; restored: KnobState | null };
  /** The preset this experiment ran, or null (absent in records written before presets). */
  preset?: PresetInfo | null;
  /** The custom workload this experiment ran (scenario id 'custom'), or null/absent. */
  custom?: CustomWorkload | null;
  /** Since version 6: how often each cell ran and in which order (absent in older records: each cell once). */
  design?: ExperimentDesign | null;
  /** A tune (kind 'tune', spinlab tune): what was searched, how, and what won; its arms are the configurations tried. */
  tune?: TuneInfo | null;
  status: 'running' | 'completed' | 'failed' | 'cancelled';
  runs: RunRecord[];
  events: ExperimentEvent[];
}

export type { ExperimentDesign, SequentialRecord } from './experimentDesign';

/** One kind of failing call: an error number and message, how often, when first and last, in which sessions. */
export interface CallErrorCount {
  number: number | null;
  kind: 'deadlock' | 'timeout' | 'error';
  message: string;
  count: number;
  first: string;
  last: string;
  /** Count per session (1-based session number). */
  sessions: Record<string, number>;
}

export interface CustomRunStats {
  calls: number;
  failedCalls: number;
  errors: CallErrorCount[];
  /** Per call (an iteration): client seconds, server CPU seconds and logical reads of the workload sessions. */
  perCall: { clientSec: number | null; serverCpuSec: number | null; logicalReads: number | null };
  /** Set when --stop-on-error ended the run: the error that did. */
  stoppedOnError: string | null;
}
