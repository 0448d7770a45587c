// The one shape a run's load takes, whichever driver holds its sessions: the built-in scenario's sessions on this
// event loop (load.ts), a custom workload's (custom/sessions.ts), or either split over client worker threads
// (workers/clientPool.ts). runOne opens one, warms it up, measures, and closes it, through this interface alone.
import type { CustomRunStats, SessionFailure, WaitDelta } from '../shared/experiment';

/** How the client loop's calls go: the lean path where a session allows it (src/db/lean/), or always the driver. */
export type ClientPath = 'lean' | 'driver';

/** Where in a run a session failed: it never connected, or its calls broke in the warm-up or the measured phase. */
type FailurePhase = 'connect' | 'warm-up' | 'measure';

/** A session's failure and the phase it happened in (the run's record keeps the failure; the phase decides what counts). */
export interface PhaseFailure extends SessionFailure {
  phase: FailurePhase;
}

/** A failure as the run's record keeps it: the record has no phase, so a warm-up's failure says so in its message. */
export function recorded({ phase, ...f }: PhaseFailure): SessionFailure {
  return phase === 'warm-up' ? { ...f, message: `warm-up: ${f.message}` } : f;
}

interface LatencySink {
  record(microseconds: number): void;
  /** Adds a client worker's recorder (histogram.ts RecorderState); a sink without it cannot take worker threads' calls. */
  mergeState?(state: { histogram: string; maxUs: number; clamped: number }): void;
}

/** Where a subset of a run's sessions sits: a client worker opens sessions first+1..first+n of the run's. */
export interface SessionRange {
  /** Sessions before this subset (failures are numbered in the run, not in the subset). */
  first: number;
  /** Open what connects and leave the "most could not connect" verdict to the caller, who sees every subset. */
  tolerant: boolean;
}

export interface PhaseSpec {
  /** The warm-up (not measured: no run figures, no latency) or the measured phase. */
  phase: 'warm-up' | 'measure';
  mode: 'server-loop' | 'client-loop';
  durationMs: number | null;
  /** Total rows over all sessions (split evenly), when the phase ends on a row count. */
  rows: number | null;
  latency?: LatencySink;
}

export interface PhaseResult {
  /** Rows the sessions report having written (exact for the client loop and for loops that finished). */
  rows: number;
  /** Sessions whose count is unknown (cancelled mid-EXEC): the caller falls back to the server's counters. */
  rowsUnknown: boolean;
  calls: number;
  /** Calls in flight when the phase ended (its duration, or a cancel), cancelled with ATTENTION: in no other count. */
  cancelledCalls: number;
  failures: PhaseFailure[];
  cancelled: boolean;
  /** The client loop's sessions on each path, and why the lean path was refused where it was (client loop only). */
  clientPath?: { lean: number; driver: number; refused?: string };
  /** Each session that finished its share: its rows and when it finished (ms after the phase began, client clock). */
  finished?: { rows: number; endedMs: number }[];
}

/**
 * A run's open sessions. Opening is each driver's own (it fails when most sessions cannot connect, with the connect
 * failures in the list it was given); a session that failed to connect is not among `count`.
 */
export interface LoadDriver {
  /** Sessions that connected. */
  readonly count: number;
  /** The sessions' server ids in session order (0 where unknown), for their own counters and waits. */
  readonly ids: readonly number[];
  /** Calls completed so far in the measured phase (the live ticks of a workload that writes no lab rows). */
  readonly liveCalls: number;
  /**
   * Runs one phase on every session at once; resolves when all have finished: at the duration, at the row count, or
   * on `signal` (every call in flight is cancelled with ATTENTION). A failing session is in the result, not thrown.
   */
  runPhase(spec: PhaseSpec, signal: AbortSignal): Promise<PhaseResult>;
  /** A custom workload's measured calls, errors and per-call figures; null for a scenario, or before it measured. */
  runStats(): CustomRunStats | null;
  /** A custom workload's sessions' own waits over the measured phase; null for a scenario or when they could not be read. */
  sessionWaits(): Record<string, WaitDelta> | null;
  /** Closes every session (and thread); never throws. */
  close(): Promise<void>;
}
