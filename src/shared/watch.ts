// A watch: `spinlab watch` on any server. Its ticks are the experiment Tick (same deltas, same analysis code) cut to a
// bounded top-N with the totals of everything, plus what only a watch has: log per database, CPU per scheduler, and who
// is running or waiting right now. Pure: no vscode, no DOM, no driver.
import { isBenignWait } from './benign';
import type { ExperimentEvent, LatchDelta, MonitorStats, RunTotals, SpinDelta, Tick, WaitDelta } from './experiment';
import type { MonitorCostSummary } from './monitorCost';
import type { ServerIdentity, Topology } from './types';

/** Names kept per tick in each of spinlocks (by spins, and by backoffs), waits and latches. */
export const WATCH_TOP_N = 15;
/** Benign waits kept per tick besides the top N (shown only when asked). */
export const WATCH_BENIGN_KEPT = 5;

export interface WatchDbLog {
  transactions: number;
  flushes: number;
  bytesFlushed: number;
  /** Log Flush Wait Time accumulated in the interval. */
  flushWaitTimeMs: number;
  /** Writes to the database's first log file in the interval, and their average stall (null without writes). */
  writes: number;
  avgWriteStallMs: number | null;
}

export interface WatchRequest {
  sessionId: number;
  status: string;
  command: string;
  database: string | null;
  waitType: string | null;
  waitMs: number;
  lastWaitType: string | null;
  blockingSessionId: number;
  schedulerId: number | null;
  /** NUMA node of the scheduler, from the topology read at the start. */
  nodeId: number | null;
  cpuMs: number;
  elapsedMs: number;
  queryHash: string | null;
  /** The start of the statement as compiled (parameter names, never their values), truncated. */
  text: string | null;
}

export interface WaitingNow {
  waitType: string;
  tasks: number;
  maxWaitMs: number;
  totalWaitMs: number;
}

/** Everything that moved in the interval, before the top-N cut. */
export interface WatchAll {
  spins: number;
  backoffs: number;
  collisions: number;
  /** Spinlock sleep time (ms), every spinlock (absent in older records). */
  sleepTime?: number;
  /** Non-benign waits. */
  waitMs: number;
  waitCount: number;
  latchMs: number;
  latchCount: number;
}

export interface WatchTick extends Tick {
  all: WatchAll;
  /** Log per database (top N by bytes flushed). */
  logByDb: Record<string, WatchDbLog>;
  /** CPU busy % per online scheduler id. */
  cpuByScheduler: Record<string, number>;
  pendingIo: number;
  requests: WatchRequest[];
  waitingNow: WaitingNow[];
  /** Ids of the marks dropped during this interval. */
  marks?: string[];
  /** Set when the watch's cost passed its budget at this tick: the interval it ticks at from now on (ms). */
  intervalSetMs?: number;
}

export interface WatchMark {
  id: string;
  name: string;
  /** ms from the watch's start (the t of the tick it falls in). */
  t: number;
  at: string;
}

/**
 * Why a watch has no ticks for a while. 'connection-lost': the monitor connection dropped or was refused;
 * 'failed-ticks': ticks failed on a live connection; 'server-restart': sqlserver_start_time changed (or ms_ticks went
 * backwards); 'counter-reset': cumulative counters went backwards (DBCC SQLPERF ... CLEAR).
 */
export type WatchGapReason = 'connection-lost' | 'failed-ticks' | 'server-restart' | 'counter-reset';

/**
 * A stretch of a watch with no tick: no delta is taken across it (the first sample after it is a new baseline), and
 * its time is not in the totals' elapsed time.
 */
export interface WatchGap {
  reason: WatchGapReason;
  /** ms on the watch's clock: the last sample before the gap, and the first after it (or the watch's end). */
  fromT: number;
  toT: number;
  /** The same two moments on the wall clock (ISO). */
  from: string;
  to: string;
  /** Tick slots that failed in it. */
  failedTicks: number;
  /** What happened, in a sentence (the first failure, or the server's start times). */
  detail: string;
  /** False when the watch ended before the monitor came back. */
  recovered: boolean;
}

/** The watch's time: watched (its real length, on the one clock), covered by ticks (what rates divide by), lost in gaps. */
export interface WatchCoverage {
  watchedMs: number;
  coveredMs: number;
  lostMs: number;
}

export interface WatchSettings {
  intervalMs: number;
  durationMs: number | null;
  topRequests: number;
  textChars: number;
  /** The whole tick batch every tick, no session temporary tables (for servers where even those are not allowed). */
  fullTicks?: boolean;
  /** The monitor's budget, ms of server CPU per second of watching (default 10: 1% of one core); 0: none. */
  costBudgetMsPerSec?: number;
}

/** experiment.json of a watch: the summary; every tick is in samples.jsonl beside it. */
export interface WatchRecord {
  schemaVersion: 6;
  kind: 'watch';
  id: string;
  title: string;
  createdAt: string;
  tool: { name: 'spinlock-lab'; version: string };
  simulated: boolean;
  server: ServerIdentity;
  topology: Topology;
  settings: WatchSettings;
  status: 'running' | 'completed' | 'failed' | 'cancelled';
  startedAt: string;
  endedAt: string | null;
  ticks: number;
  totals: RunTotals;
  marks: WatchMark[];
  /** The watch's gaps, in order (absent in records from before they were kept). */
  gaps?: WatchGap[];
  /** Watched, covered and lost time, set when the watch ends (absent in older records). */
  coverage?: WatchCoverage | null;
  /** Round trip of a tick as the client saw it, median and max (ms). */
  roundTripMs: { p50: number; max: number } | null;
  /** Server CPU the watch's own session used, per tick on average (ms; sys.dm_exec_sessions.cpu_time), or null. */
  serverCpuMsPerTick?: number | null;
  /** The monitor connection's reconnects, failed ticks and fallbacks over the watch. */
  monitor?: MonitorStats;
  /** What the watch's own session cost the server per tick (delta ticks), beside the server's totals; absent in older records. */
  cost?: MonitorCostSummary | null;
  /** What stands out, computed from the whole watch at its end. */
  diagnosis: string[];
  samplesFile: string;
  events: ExperimentEvent[];
}

function pick<T>(all: Record<string, T>, names: Iterable<string>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const n of names) if (all[n]) out[n] = all[n];
  return out;
}
function topKeys<T>(rec: Record<string, T>, value: (v: T) => number, n: number, keep: (k: string) => boolean = () => true): string[] {
  return Object.keys(rec)
    .filter(keep)
    .sort((a, b) => value(rec[b]) - value(rec[a]) || (a < b ? -1 : 1))
    .slice(0, n)
    .filter((k) => value(rec[k]) > 0);
}

/** The bounded form of a tick: top N by each measure, the totals of everything in `all`. */
export function boundTick(
  tick: Tick,
  n = WATCH_TOP_N,
): { spinlocks: Record<string, SpinDelta>; waits: Record<string, WaitDelta>; latches: Record<string, LatchDelta>; all: WatchAll } {
  const all: WatchAll = { spins: 0, backoffs: 0, collisions: 0, sleepTime: 0, waitMs: 0, waitCount: 0, latchMs: 0, latchCount: 0 };
  for (const s of Object.values(tick.spinlocks)) {
    all.spins += s.spins;
    all.backoffs += s.backoffs;
    all.collisions += s.collisions;
    all.sleepTime! += s.sleepTime;
  }
  for (const [k, w] of Object.entries(tick.waits))
    if (!isBenignWait(k)) {
      all.waitMs += w.waitMs;
      all.waitCount += w.count;
    }
  for (const l of Object.values(tick.latches)) {
    all.latchMs += l.waitMs;
    all.latchCount += l.count;
  }
  const spinNames = new Set([...topKeys(tick.spinlocks, (s) => s.spins, n), ...topKeys(tick.spinlocks, (s) => s.backoffs, n)]);
  const waitNames = [
    ...topKeys(
      tick.waits,
      (w) => w.waitMs + w.count / 1e6,
      n,
      (k) => !isBenignWait(k),
    ),
    ...topKeys(tick.waits, (w) => w.waitMs + w.count / 1e6, WATCH_BENIGN_KEPT, isBenignWait),
  ];
  return {
    spinlocks: pick(tick.spinlocks, spinNames),
    waits: pick(tick.waits, waitNames),
    latches: pick(
      tick.latches,
      topKeys(tick.latches, (l) => l.waitMs + l.count / 1e6, n),
    ),
    all,
  };
}

/** A watch's status in words: Stop is how a watch normally ends, so a watch the user stopped is "stopped", not "cancelled". */
export function watchStatusWords(status: 'starting' | 'running' | 'completed' | 'failed' | 'cancelled'): string {
  return status === 'cancelled' ? 'stopped' : status;
}
