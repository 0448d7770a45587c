// What Spinlock Lab's own monitor session costs the server it watches, as the server counts it: the session's own row
// of sys.dm_exec_sessions (cpu_time, logical_reads, reads, writes, total_scheduled_time) and the SQL Statistics
// compilation counters, read by every delta tick. Per tick deltas, a summary over a window beside the server's totals,
// and the budget a watch keeps to (lengthening its interval when over). Pure: no vscode, no DOM, no driver.
import { thousands } from './numberText';
import { plural } from './plural';

/** One tick's cumulative reading (the session's figures since it connected; the server's counters since start). */
export interface MonitorReading {
  cpuMs: number;
  logicalReads: number;
  reads: number;
  writes: number;
  /** total_scheduled_time: how long the session's requests were scheduled. */
  scheduledMs: number;
  /** SQL Compilations/sec and SQL Re-Compilations/sec (cumulative values), server-wide; null when not read. */
  compilations: number | null;
  recompilations: number | null;
}

/** What the monitor cost the server in one interval. */
export interface MonitorCost {
  cpuMs: number;
  logicalReads: number;
  /** Page writes (a delta tick's #temp tables live in tempdb). */
  writes: number;
  scheduledMs: number;
  /** Server-wide statement recompilations and compilations in the interval (every session's); null when not read. */
  recompiles: number | null;
  compilations: number | null;
}

const delta = (a: number, b: number) => Math.max(0, b - a);
const deltaOrNull = (a: number | null, b: number | null) => (a === null || b === null ? null : delta(a, b));

/** The interval's cost; null without both readings (a full tick, or the first after a reconnect: a new session). */
export function monitorDelta(prev: MonitorReading | null | undefined, cur: MonitorReading | null | undefined): MonitorCost | null {
  if (!prev || !cur || cur.cpuMs < prev.cpuMs) return null;
  return {
    cpuMs: delta(prev.cpuMs, cur.cpuMs),
    logicalReads: delta(prev.logicalReads, cur.logicalReads),
    writes: delta(prev.writes, cur.writes),
    scheduledMs: delta(prev.scheduledMs, cur.scheduledMs),
    recompiles: deltaOrNull(prev.recompilations, cur.recompilations),
    compilations: deltaOrNull(prev.compilations, cur.compilations),
  };
}

/** Default budget: 1% of one core, i.e. 10 ms of server CPU per second of watching. */
export const DEFAULT_COST_BUDGET_MS_PER_SEC = 10;
/** The longest interval the budget lengthens a watch to. */
export const MAX_BUDGET_INTERVAL_MS = 60_000;
/** Ticks averaged before the budget decides (one expensive tick is not a trend). */
export const BUDGET_WINDOW_TICKS = 5;

/** What the monitor cost over a window, per tick, beside the server's totals over the same ticks. */
export interface MonitorCostSummary {
  ticks: number;
  cpuMsPerTick: number;
  logicalReadsPerTick: number;
  writesPerTick: number;
  scheduledMsPerTick: number;
  /** Server-wide recompilations per tick; null when the ticks did not read them. */
  recompilesPerTick: number | null;
  /** Monitor CPU per second of watching, the figure the budget is in. */
  cpuMsPerSec: number;
  /** The server's scheduler CPU and batch requests per tick over the same ticks. */
  serverCpuMsPerTick: number;
  batchRequestsPerTick: number;
  /** The monitor's share of the server's CPU (0..1); null when the server used none. */
  shareOfServerCpu: number | null;
  /** The budget it kept to (ms CPU per second; 0 = none), and the interval it ended on. */
  budgetMsPerSec?: number;
  finalIntervalMs?: number;
}

/** The fields of a tick the summary needs (experiment ticks and watch ticks both have them). */
export interface CostTick {
  intervalMs: number;
  cpuMs: number;
  hiddenCpuMs?: number;
  batchRequestsPerSec: number;
  monitor?: MonitorCost | null;
}

/** The summary over the ticks that carry a cost; null when none does (full ticks, an old record). */
export function summariseMonitorCost(ticks: readonly CostTick[]): MonitorCostSummary | null {
  const sums = new MonitorCostSums();
  for (const t of ticks) sums.add(t);
  return sums.summary();
}

/**
 * The sums summariseMonitorCost takes, kept as ticks come (in the same order, so the same figures): a watch that runs
 * for hours keeps these few numbers, not every tick.
 */
export class MonitorCostSums {
  private n = 0;
  private cpu = 0;
  private ms = 0;
  private serverCpu = 0;
  private reads = 0;
  private writes = 0;
  private scheduled = 0;
  private batches = 0;
  private recompiles = 0;
  private withRecompiles = 0;

  /** Ticks with a cost added so far. */
  get ticks(): number {
    return this.n;
  }

  add(t: CostTick): void {
    const m = t.monitor;
    if (!m) return;
    this.n++;
    this.cpu += m.cpuMs;
    this.ms += t.intervalMs;
    this.serverCpu += t.cpuMs + (t.hiddenCpuMs ?? 0);
    this.reads += m.logicalReads;
    this.writes += m.writes;
    this.scheduled += m.scheduledMs;
    this.batches += (t.batchRequestsPerSec * t.intervalMs) / 1000;
    if (m.recompiles !== null) {
      this.withRecompiles++;
      this.recompiles += m.recompiles;
    }
  }

  summary(): MonitorCostSummary | null {
    const n = this.n;
    if (!n) return null;
    const seconds = this.ms / 1000;
    return {
      ticks: n,
      cpuMsPerTick: this.cpu / n,
      logicalReadsPerTick: this.reads / n,
      writesPerTick: this.writes / n,
      scheduledMsPerTick: this.scheduled / n,
      recompilesPerTick: this.withRecompiles ? this.recompiles / this.withRecompiles : null,
      cpuMsPerSec: seconds > 0 ? this.cpu / seconds : 0,
      serverCpuMsPerTick: this.serverCpu / n,
      batchRequestsPerTick: this.batches / n,
      shareOfServerCpu: this.serverCpu > 0 ? Math.min(1, this.cpu / this.serverCpu) : null,
    };
  }
}

/** The budget's verdict on a tick: keep the interval, or lengthen it to `intervalMs` (with the sentence to say, once). */
export type BudgetDecision = { kind: 'keep' } | { kind: 'lengthen'; intervalMs: number; cpuMsPerSec: number; message: string | null };

/**
 * A connection's first costed ticks left out of the budget: they carry its statements' first compiles, and
 * sys.dm_exec_sessions counts a batch's CPU when it completes, so a tick's cost is its previous batch's: the compiles
 * of the first two tick batches (the first delta, and the statements a later delta runs for the first time) land in
 * the first two costed ticks.
 */
const ONE_TIME_TICKS = 2;

/**
 * A watch's cost budget: over the last few ticks (a connection's first costed ticks, with its one-time compiles, left
 * out), the monitor's CPU per second of watching against the budget. Over
 * it, the interval doubles (up to a cap) and the window starts again at the new interval; the first time is said,
 * later ones only recorded in the ticks. A budget of 0 never lengthens.
 */
export class CostBudget {
  private window: { cpuMs: number; intervalMs: number }[] = [];
  private said = false;
  /** The first costed ticks of a connection carry its one-time work (the statements' first compiles): not a trend. */
  private skip = ONE_TIME_TICKS;

  constructor(
    readonly budgetMsPerSec: number,
    private intervalMs: number,
    private readonly maxIntervalMs = MAX_BUDGET_INTERVAL_MS,
  ) {}

  get currentIntervalMs(): number {
    return this.intervalMs;
  }

  /** A new monitor connection: its first costed ticks are left out again. */
  reconnected(): void {
    this.skip = ONE_TIME_TICKS;
  }

  observe(cost: MonitorCost | null | undefined, tickIntervalMs: number): BudgetDecision {
    if (!cost || this.budgetMsPerSec <= 0 || tickIntervalMs <= 0) return { kind: 'keep' };
    if (this.skip > 0) {
      this.skip--;
      return { kind: 'keep' };
    }
    this.window.push({ cpuMs: cost.cpuMs, intervalMs: tickIntervalMs });
    if (this.window.length > BUDGET_WINDOW_TICKS) this.window.shift();
    if (this.window.length < BUDGET_WINDOW_TICKS) return { kind: 'keep' };
    const cpuMsPerSec = this.window.reduce((a, w) => a + w.cpuMs, 0) / (this.window.reduce((a, w) => a + w.intervalMs, 0) / 1000);
    if (cpuMsPerSec <= this.budgetMsPerSec || this.intervalMs >= this.maxIntervalMs) return { kind: 'keep' };
    const next = Math.min(this.maxIntervalMs, this.intervalMs * 2);
    this.intervalMs = next;
    this.window = [];
    const message = this.said
      ? null
      : `the watch's own session cost the server ${cpuMsPerSec.toFixed(1)} ms of CPU per second over its last ${plural(BUDGET_WINDOW_TICKS, 'tick')}, over its budget of ${this.budgetMsPerSec} ms/s (--cost-budget): ticking every ${next / 1000} s from now on (doubling again while over, up to ${this.maxIntervalMs / 1000} s)`;
    this.said = true;
    return { kind: 'lengthen', intervalMs: next, cpuMsPerSec, message };
  }
}

const fmt = (v: number, digits = 1) => (Math.abs(v) >= 100 ? thousands(Math.round(v)) : v.toFixed(digits));

/** The cost in one sentence, as the CLI, the panel and the notebooks say it. */
export function describeMonitorCost(c: MonitorCostSummary, simulated = false): string {
  const share = c.shareOfServerCpu === null ? '' : ` (${fmt(c.shareOfServerCpu * 100, 2)}% of it)`;
  const recompiles =
    c.recompilesPerTick === null ? '' : `; the server recompiled ${fmt(c.recompilesPerTick, 2)} statements per tick (all sessions)`;
  const budget = c.budgetMsPerSec
    ? `; ${fmt(c.cpuMsPerSec, 2)} ms CPU per second against a budget of ${c.budgetMsPerSec} ms/s` +
      (c.finalIntervalMs ? `, ending at a ${c.finalIntervalMs / 1000} s interval` : '')
    : '';
  return (
    `Spinlock Lab's own session cost the server ${fmt(c.cpuMsPerTick, 2)} ms CPU, ${fmt(c.logicalReadsPerTick)} logical reads, ` +
    `${fmt(c.writesPerTick)} page writes and ${fmt(c.scheduledMsPerTick, 2)} ms scheduled per tick over ${plural(c.ticks, 'tick')}, ` +
    `beside the server's ${fmt(c.serverCpuMsPerTick)} ms CPU${share} and ${fmt(c.batchRequestsPerTick)} batch requests per tick${recompiles}${budget}` +
    `${simulated ? ' (synthetic: the simulator)' : ''}.`
  );
}
