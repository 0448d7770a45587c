// Client-loop calls: one short call per transaction (or a few), sent by a session that loops on the client. Each
// call costs the server what one call costs a real one (the RPC itself, per-row and per-transaction work, the commit's
// log flush unless delayed durability is FORCED), under the same contention model as the server loop.
//
// Why not the server loop's path: that path recomputes every rate and re-arms every timer on each start and finish,
// and its timers have millisecond granularity. With calls that last tens of microseconds and 128 sessions starting
// and finishing, the rates were recomputed thousands of times a second and each re-arm pushed every pending call
// out by another millisecond, so throughput fell as sessions were added (338 -> 22 rows/s from 1 to 128 sessions).
//
// Here a session that calls repeatedly is a member of the client-loop population for as long as it keeps calling. The
// model sees each member as a worker whose transactions include its think time (the time between calls outside the
// server, learned from the wire: the interval between its calls less the modelled time in the server), so each one
// weighs on the queues and CPUs by its duty cycle. Rates are recomputed when the population changes or at most every
// REFRESH_MS, not per call. A call is answered when its modelled time in the server is over: at once when that is
// below timer resolution (a millisecond), else by one timer for the remainder.
import type { Clock } from './clock';
import type { WorkerRate, WorkloadProfile } from './contention';
import type { LoadNoise } from './noise';
import type { Placement } from './placement';
import type { WorkloadResult } from './workloads';

/** A session that stops calling for this long leaves the population. */
export const IDLE_MS = 250;
/** Rates are refreshed at most this often (a member joining or leaving waits no longer than this to be counted). */
export const REFRESH_MS = 100;
/**
 * While the population is unchanged only the members' think times drift, and a refresh costs the simulator's CPU in
 * proportion to the members (~0.1 ms each): with 128 sessions, 10 refreshes a second took more of the simulator's CPU
 * per call than the calls themselves, and throughput fell as sessions were added on a small client machine.
 * So the steady refresh slows with the population: every REFRESH_MS per STEADY_MEMBERS members.
 */
export const STEADY_MEMBERS = 16;

/** How long rates stand while nobody joins or leaves. */
export function steadyRefreshMs(members: number): number {
  return REFRESH_MS * Math.max(1, Math.ceil(members / STEADY_MEMBERS));
}
/** Think time assumed for a session's first call (a loopback round trip with a thin client). */
const FIRST_THINK_US = 150;
const EWMA = 0.2;

export interface ClientSession {
  spid: number;
  /** The worker id the contention model knows it by (negative: never a server-loop call's id). */
  workerId: number;
  database: string;
  table: string;
  profile: WorkloadProfile;
  placement: Placement;
  /** Measured interval between the starts of consecutive calls (us). */
  cycleUs: number | null;
  /** Think time the model uses (us). */
  thinkUs: number;
  lastStart: number;
  inFlight: number;
  /** How long its last call was held back by --noise (us): time neither in the server nor the client's think time. */
  heldUs: number;
}

export interface ClientCall {
  spid: number;
  database: string;
  table: string;
  profile: WorkloadProfile;
  /** Rows (or ring operations) the call does. */
  rows: number;
}

export interface ClientLoopHost {
  clock: Clock;
  /** Where a new member runs (SQL Server's placement), given the CPUs already in use. */
  place(spid: number): Placement;
  /** Brings counters up to now with the rates in force until now. */
  advance(): void;
  /** Recompute rates with the current population. */
  ratesChanged(): void;
  /** The model's current rate for a worker id. */
  rateOf(workerId: number): WorkerRate | undefined;
  /** The rows of a finished call, into the table and data-file counters. */
  countRows(call: ClientCall, rows: number): void;
  /** Noise on purpose (--noise): holds calls back in a slow burst, drift or dip. */
  noise?(): LoadNoise | null;
}

export class ClientLoop {
  private sessions = new Map<number, ClientSession>();
  private lastRefresh = -Infinity;
  private dirty = false;
  private pending?: { cancel(): void };
  private expiry?: { cancel(): void };

  constructor(private host: ClientLoopHost) {}

  members(): ClientSession[] {
    return [...this.sessions.values()];
  }

  call(call: ClientCall, signal: AbortSignal): Promise<WorkloadResult> {
    if (signal.aborted) return Promise.resolve({ rows: 0, txns: 0, elapsedMs: 0, aborted: true });
    const clock = this.host.clock;
    const now = clock.now();
    let s = this.sessions.get(call.spid);
    let changed = false;
    if (s && (!sameProfile(s.profile, call.profile) || s.database !== call.database)) {
      this.sessions.delete(call.spid);
      s = undefined;
    }
    if (!s) {
      s = {
        spid: call.spid,
        workerId: -call.spid,
        database: call.database,
        table: call.table,
        profile: call.profile,
        placement: this.host.place(call.spid),
        cycleUs: null,
        thinkUs: FIRST_THINK_US,
        lastStart: now,
        inFlight: 0,
        heldUs: 0,
      };
      this.sessions.set(call.spid, s);
      changed = true;
    } else {
      const interval = Math.max(0, (now - s.lastStart) * 1000 - s.heldUs);
      s.cycleUs = s.cycleUs === null ? interval : s.cycleUs + EWMA * (interval - s.cycleUs);
      const served = this.host.rateOf(s.workerId)?.serviceUs ?? 0;
      s.thinkUs = Math.max(0, s.cycleUs - served * txnsOf(call));
      s.lastStart = now;
    }
    s.inFlight++;
    if (changed) this.dirty = true;
    this.maybeRefresh();
    this.armExpiry();

    const rate = this.host.rateOf(s.workerId);
    const serviceMs = ((rate?.serviceUs ?? 0) * txnsOf(call)) / 1000;
    const noise = this.host.noise?.() ?? null;
    const holdMs = noise?.holdMs(now, call.spid) ?? 0;
    const session = s;
    session.heldUs = 0;
    return new Promise<WorkloadResult>((resolve) => {
      const done = (aborted: boolean) => {
        signal.removeEventListener('abort', onAbort);
        session.inFlight--;
        const elapsedMs = clock.now() - now;
        if (aborted) return resolve({ rows: 0, txns: 0, elapsedMs, aborted: true });
        if (holdMs > 0) {
          const held = Math.max(0, elapsedMs - serviceMs);
          noise?.held(call.spid, held);
          session.heldUs = held * 1000;
        }
        this.host.countRows(call, call.rows);
        resolve({ rows: call.rows, txns: Math.max(1, Math.round(txnsOf(call))), elapsedMs, aborted: false });
      };
      const held: { timer?: { cancel(): void } } = {};
      const onAbort = () => {
        held.timer?.cancel();
        done(true);
      };
      if (serviceMs + holdMs < 1) return done(false); // below timer resolution: the sim's own turnaround stands for it
      signal.addEventListener('abort', onAbort, { once: true });
      held.timer = clock.setTimer(() => done(false), serviceMs + holdMs);
    });
  }

  /** A session logged out (or the instance restarted): it leaves the population at once. */
  drop(spid?: number): void {
    const before = this.sessions.size;
    if (spid === undefined) this.sessions.clear();
    else this.sessions.delete(spid);
    if (this.sessions.size !== before) this.refresh();
    if (this.sessions.size === 0) {
      this.expiry?.cancel();
      this.expiry = undefined;
    }
  }

  /**
   * At most one recomputation per REFRESH_MS, whatever the call rate; a change in between is picked up by one timer.
   * With nobody joining or leaving, one per steadyRefreshMs (think times drift slowly; the population is what matters).
   */
  private maybeRefresh(): void {
    const now = this.host.clock.now();
    if (now - this.lastRefresh >= (this.dirty ? REFRESH_MS : steadyRefreshMs(this.sessions.size))) return this.refresh();
    if (!this.dirty || this.pending) return;
    this.pending = this.host.clock.setTimer(
      () => {
        this.pending = undefined;
        if (this.dirty) this.refresh();
      },
      this.lastRefresh + REFRESH_MS - now,
    );
  }

  private refresh(): void {
    this.dirty = false;
    this.pending?.cancel();
    this.pending = undefined;
    this.host.advance();
    this.lastRefresh = this.host.clock.now();
    this.host.ratesChanged();
  }

  /** One timer for the whole population: when the least recently seen member goes idle, drop it and refresh. */
  private armExpiry(): void {
    // A pending expiry re-arms itself for whoever is left; a member that just called is the newest, never the oldest.
    if (this.expiry) return;
    let oldest = Infinity;
    const now = this.host.clock.now();
    for (const s of this.sessions.values()) oldest = Math.min(oldest, s.inFlight > 0 ? now : s.lastStart + idleMs(s) - IDLE_MS);
    if (!Number.isFinite(oldest)) return;
    const at = oldest + IDLE_MS;
    this.expiry = this.host.clock.setTimer(() => this.expire(), Math.max(1, at - now));
  }

  private expire(): void {
    this.expiry = undefined;
    const now = this.host.clock.now();
    let gone = false;
    for (const [spid, s] of this.sessions) {
      if (s.inFlight === 0 && now - s.lastStart >= idleMs(s)) {
        this.sessions.delete(spid);
        gone = true;
      }
    }
    if (gone) this.refresh();
    if (this.sessions.size > 0) this.armExpiry();
  }
}

/** A slow client (many sessions on few client CPUs) calls less often: idle means several of its own cycles. */
function idleMs(s: ClientSession): number {
  return Math.max(IDLE_MS, (4 * (s.cycleUs ?? 0)) / 1000);
}

function txnsOf(c: ClientCall): number {
  return c.rows / Math.max(1, c.profile.rowsPerTxn);
}

function sameProfile(a: WorkloadProfile, b: WorkloadProfile): boolean {
  return (
    a.engine === b.engine &&
    a.access === b.access &&
    a.operation === b.operation &&
    a.rowsPerTxn === b.rowsPerTxn &&
    a.slotSource === b.slotSource &&
    a.tableDurability === b.tableDurability
  );
}
