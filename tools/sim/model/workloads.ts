// Workload calls in flight. A call holds its session for the modelled time: it finishes when it has written its rows
// (at the rate the contention model gives it, which changes as other calls start and stop) or when its duration is
// up; ATTENTION (the AbortSignal) stops it early and keeps what it already counted. Timers fire only at the predicted
// end of a call; counters in between are advanced lazily by SimModel.advance().
import type { Clock } from './clock';
import type { WorkloadProfile } from './contention';
import type { Placement } from './placement';

export interface WorkloadCall {
  id: number;
  spid: number;
  database: string;
  /** Table whose row-operation counters move ('dbo.x'). */
  table: string;
  profile: WorkloadProfile;
  placement: Placement;
  targetRows: number | null;
  /** Wall-clock ms at which a duration-bound call ends. */
  endAt: number | null;
  startedAt: number;
  /** The session's CPU (ms, model/custom.ts) when the request started: what it used since is the request's cpu_time. */
  cpuAtStart: number;
  rows: number;
  txns: number;
  /** The current modelled rate (rows/s), refreshed on every change of the active set. */
  rate: number;
}

export interface WorkloadResult {
  rows: number;
  txns: number;
  elapsedMs: number;
  aborted: boolean;
}

interface Entry {
  call: WorkloadCall;
  resolve: (r: WorkloadResult) => void;
  timer?: { cancel(): void };
  /** When the armed timer fires (clock ms). */
  timerAt?: number;
  detach?: () => void;
}

export interface WorkloadHost {
  clock: Clock;
  /** Brings every counter (and every call's rows) up to now with the rates in force until now. */
  advance(): void;
  /** The active set changed: recompute rates and write them into each call's `rate`. */
  ratesChanged(): void;
}

export class WorkloadRunner {
  private entries = new Map<number, Entry>();
  private seq = 0;
  constructor(private host: WorkloadHost) {}

  active(): WorkloadCall[] {
    return [...this.entries.values()].map((e) => e.call);
  }

  start(
    init: Omit<WorkloadCall, 'id' | 'startedAt' | 'rows' | 'txns' | 'rate' | 'endAt'> & { durationMs: number | null },
    signal: AbortSignal,
  ): Promise<WorkloadResult> {
    const now = this.host.clock.now();
    const { durationMs, ...rest } = init;
    const call: WorkloadCall = {
      ...rest,
      id: ++this.seq,
      startedAt: now,
      rows: 0,
      txns: 0,
      rate: 0,
      endAt: durationMs === null ? null : now + durationMs,
    };
    if (signal.aborted) return Promise.resolve({ rows: 0, txns: 0, elapsedMs: 0, aborted: true });
    this.host.advance();
    return new Promise<WorkloadResult>((resolve) => {
      const entry: Entry = { call, resolve };
      const onAbort = () => this.finish(call.id, true);
      signal.addEventListener('abort', onAbort, { once: true });
      entry.detach = () => signal.removeEventListener('abort', onAbort);
      this.entries.set(call.id, entry);
      this.changed();
    });
  }

  /** Ends every call (restart): they resolve as aborted. */
  abortAll(): void {
    this.batch(() => {
      for (const id of [...this.entries.keys()]) this.finish(id, true);
    });
  }

  private batching = 0;
  private dirty = false;

  /**
   * Runs `fn` with one rate refresh at its end instead of one per call it starts or ends: the contention model costs
   * time in proportion to the calls in flight, so starting or stopping thousands of background sessions one refresh
   * at a time took minutes.
   */
  batch(fn: () => void): void {
    this.batching++;
    try {
      fn();
    } finally {
      if (--this.batching === 0 && this.dirty) {
        this.dirty = false;
        this.changed();
      }
    }
  }

  private finish(id: number, aborted: boolean): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.host.advance();
    e.timer?.cancel();
    e.detach?.();
    this.entries.delete(id);
    const c = e.call;
    const rows = c.targetRows !== null && !aborted ? Math.max(c.rows, c.targetRows) : c.rows;
    e.resolve({ rows: Math.floor(rows), txns: Math.floor(c.txns), elapsedMs: this.host.clock.now() - c.startedAt, aborted });
    this.changed();
  }

  private changed(): void {
    if (this.batching) {
      this.dirty = true;
      return;
    }
    this.host.ratesChanged();
    for (const e of this.entries.values()) this.schedule(e);
  }

  private schedule(e: Entry): void {
    const c = e.call;
    const now = this.host.clock.now();
    let due = c.endAt === null ? Infinity : c.endAt - now;
    if (c.targetRows !== null && c.rate > 0) due = Math.min(due, ((c.targetRows - c.rows) / c.rate) * 1000);
    const at = Number.isFinite(due) ? now + Math.max(1, Math.ceil(due)) : Infinity;
    // An armed timer that fires no later stays: re-arming on every change of the active set pushed each pending call
    // a millisecond further out, so with frequent starts and finishes none ever came due. check() re-arms if early.
    if (e.timer && e.timerAt !== undefined && e.timerAt <= at) return;
    e.timer?.cancel();
    e.timer = undefined;
    e.timerAt = undefined;
    if (!Number.isFinite(at)) return; // no target and no duration: runs until ATTENTION
    e.timerAt = at;
    e.timer = this.host.clock.setTimer(() => this.check(c.id), at - now);
  }

  private check(id: number): void {
    const e = this.entries.get(id);
    if (!e) return;
    e.timer = undefined;
    e.timerAt = undefined;
    this.host.advance();
    const c = e.call;
    const now = this.host.clock.now();
    const rowsDone = c.targetRows !== null && c.rows >= c.targetRows - 0.5;
    const timeUp = c.endAt !== null && now >= c.endAt - 0.5;
    if (rowsDone || timeUp) this.finish(id, false);
    else this.schedule(e);
  }
}
