// One sampling interval: the deltas between two consecutive raw samples and the rates over the interval as the
// SERVER measured it (ms_ticks), never the client clock, whose round trip jitter would show up as fake rate noise.
// Cumulative counters never produce a negative delta: a counter going backwards, or a new sqlserver_start_time,
// is reported as a restart verdict and the caller re-baselines from `cur`.
import type { LatchDelta, SpinDelta, Tick, WaitDelta } from '../shared/experiment';
import type { RawSample } from '../shared/types';
import { type CounterKey, type CounterReading, readCounter, readingAmount, readingDelta, readingValue } from './perfCounters';
import { monitorDelta } from '../shared/monitorCost';
import { ownDelta } from '../shared/ownShare';

export interface TickContext {
  /** The lab database: the instance_name of its `*:Databases` counters. */
  labDatabase: string;
  /** The tables the scenario writes ('dbo.MyBigTable' or 'MyBigTable'); rows = their inserts + updates. */
  progressTables: readonly string[];
  /** ms_ticks of the run's baseline sample; Tick.t is measured from it. */
  runStartMsTicks: number;
  /** The interval spans a monitor reconnect. */
  gap?: boolean;
  /**
   * A run's closing interval: its final sample comes after the sessions stopped, so the load ran only for the first
   * activeMs of it. Rates (and Tick.t) are over that part; over the whole interval they would read as a collapse.
   */
  activeMs?: number;
}

/**
 * How much of a run's closing interval had load in it (client clock: the last sample's arrival to the end of the
 * measured phase), or null when that sliver is too short for a rate that means anything (under a quarter of the
 * sampling interval, or none at all): it is left out of the timeline rather than charted as a drop to zero.
 */
export function closingActiveMs(lastSampleAt: number, loadEndedAt: number, samplingIntervalMs: number): number | null {
  const active = loadEndedAt - lastSampleAt;
  return active >= samplingIntervalMs / 4 && active > 0 ? active : null;
}

export type TickResult =
  | { kind: 'tick'; tick: Tick; warnings: string[] }
  /**
   * The interval cannot be measured. 'server-restart': sqlserver_start_time changed or ms_ticks went backwards.
   * 'counter-reset': some cumulative counter went backwards (DBCC SQLPERF CLEAR, metadata reloaded).
   */
  | { kind: 'restart'; cause: 'server-restart' | 'counter-reset'; message: string; counters: string[] }
  /** Two samples with the same ms_ticks: nothing to divide by; keep `prev` as the baseline. */
  | { kind: 'skip'; message: string };

const MAX_LISTED = 5;

/** Collects counters that went backwards, so one verdict can name them all. */
class Backwards {
  readonly items: string[] = [];
  /**
   * `what`, or `what name.field`: the text is made only for a counter that went backwards, as a tick checks thousands
   * that did not.
   */
  check(what: string, before: number, after: number, name?: string | number, field?: string): number {
    const d = after - before;
    if (d < 0) this.items.push(`${name === undefined ? what : `${what} ${name}.${field}`} ${before} -> ${after}`);
    return Math.max(d, 0);
  }
  note(message: string): void {
    this.items.push(message);
  }
}

/**
 * The rows of one sample by name, kept with the rows: a sample is the current one at one tick and the previous one
 * at the next, so each map is built once, not twice. A sample's rows are not changed after they are parsed.
 */
const named = new WeakMap<readonly object[], Map<string, unknown>>();

function byName<R extends object>(rows: readonly R[], key: (r: R) => string, add: (a: R, b: R) => R): Map<string, R> {
  const kept = named.get(rows) as Map<string, R> | undefined;
  if (kept) return kept;
  const m = new Map<string, R>();
  named.set(rows, m);
  for (const r of rows) {
    const k = key(r);
    const seen = m.get(k);
    m.set(k, seen ? add(seen, r) : r);
  }
  return m;
}

/**
 * Deltas of keyed cumulative rows. A key only in `cur` counts from zero; a key only in `prev` fell to zero, which is a
 * reset (the sampler returns non-zero rows only). Keeps entries where any field moved.
 */
function keyedDeltas<R, D>(
  label: string,
  prev: Map<string, R>,
  cur: Map<string, R>,
  fields: readonly (keyof R & string)[],
  build: (d: Record<string, number>) => D,
  back: Backwards,
): Record<string, D> {
  const out: Record<string, D> = {};
  // One scratch record for every row: `build` copies what it keeps, and most rows did not move.
  const d: Record<string, number> = {};
  for (const [name, c] of cur) {
    const p = prev.get(name);
    let moved = false;
    for (const f of fields) {
      const before = p ? (p[f] as number) : 0;
      d[f] = back.check(label, before, c[f] as number, name, f);
      if (d[f] !== 0) moved = true;
    }
    if (moved) out[name] = build(d);
  }
  for (const [name, p] of prev) {
    if (!cur.has(name) && fields.some((f) => (p[f] as number) > 0)) back.note(`${label} ${name} disappeared (fell to 0)`);
  }
  return out;
}

/** Lower case, no brackets, so 'dbo.MyBigTable', '[dbo].[MyBigTable]' and 'MyBigTable' can be compared. */
function normTable(name: string): string {
  return name.replace(/[[\]]/g, '').trim().toLowerCase();
}
/** Same table if the names are equal, or if one side has no schema and the table parts are equal. */
function tableMatches(row: string, wanted: readonly string[]): boolean {
  const r = normTable(row);
  const tablePart = (n: string) => n.slice(n.lastIndexOf('.') + 1);
  return wanted.some((w) => {
    const n = normTable(w);
    return n === r || ((!n.includes('.') || !r.includes('.')) && tablePart(n) === tablePart(r));
  });
}

const sumSpin = (a: RawSample['spinlocks'][number], b: RawSample['spinlocks'][number]) => ({
  name: a.name,
  spins: a.spins + b.spins,
  collisions: a.collisions + b.collisions,
  backoffs: a.backoffs + b.backoffs,
  sleepTime: a.sleepTime + b.sleepTime,
});
const sumWait = (a: RawSample['waits'][number], b: RawSample['waits'][number]) => ({
  ...a,
  waitingTasks: a.waitingTasks + b.waitingTasks,
  waitTimeMs: a.waitTimeMs + b.waitTimeMs,
  signalWaitTimeMs: a.signalWaitTimeMs + b.signalWaitTimeMs,
});
const sumLatch = (a: RawSample['latches'][number], b: RawSample['latches'][number]) => ({
  ...a,
  waitingRequests: a.waitingRequests + b.waitingRequests,
  waitTimeMs: a.waitTimeMs + b.waitTimeMs,
});
const sumProgress = (a: RawSample['progress'][number], b: RawSample['progress'][number]) => ({
  ...a,
  inserts: a.inserts + b.inserts,
  updates: a.updates + b.updates,
  deletes: a.deletes + b.deletes,
});

function cpuByNode(prev: RawSample, cur: RawSample, intervalMs: number, back: Backwards) {
  const before = new Map(prev.schedulers.map((s) => [s.schedulerId, s]));
  const busy = new Map<number, { ms: number; schedulers: number }>();
  let cpuMs = 0;
  let hiddenCpuMs = 0;
  for (const s of cur.schedulers) {
    const p = before.get(s.schedulerId);
    // A scheduler without a baseline (just came online, e.g. after an affinity change) has no interval to measure:
    // counting its whole total_cpu_usage_ms since instance start would be a spike. It joins from the next tick.
    if (!s.isOnline || !p) continue;
    const ms = back.check('scheduler', p.totalCpuMs, s.totalCpuMs, s.schedulerId, 'totalCpuMs');
    if (s.hidden) {
      // the log writers' CPU: the run's, but not a user scheduler's load
      hiddenCpuMs += ms;
      continue;
    }
    const node = busy.get(s.nodeId) ?? { ms: 0, schedulers: 0 };
    node.ms += ms;
    node.schedulers += 1;
    busy.set(s.nodeId, node);
    cpuMs += ms;
  }
  const byNode: Record<string, number> = {};
  for (const nodeId of [...busy.keys()].sort((a, b) => a - b)) {
    const { ms, schedulers } = busy.get(nodeId)!;
    // Clamped: scheduler accounting and ms_ticks are read at slightly different instants, so a saturated node can
    // come out at 100.3 %; a chart must not show more than the node has.
    byNode[String(nodeId)] = Math.min(100, (100 * ms) / (intervalMs * schedulers));
  }
  return { byNode, cpuMs, hiddenCpuMs };
}

const dbCounter = (db: string, counter: string): CounterKey => ({ objectSuffix: 'Databases', counter, instance: db });

export function computeTick(prev: RawSample, cur: RawSample, ctx: TickContext): TickResult {
  if (cur.startTime !== prev.startTime || cur.msTicks < prev.msTicks) {
    const why =
      cur.startTime !== prev.startTime
        ? `its start time changed from ${prev.startTime} to ${cur.startTime}`
        : `ms_ticks went backwards (${prev.msTicks} -> ${cur.msTicks})`;
    return {
      kind: 'restart',
      cause: 'server-restart',
      message: `SQL Server restarted between two samples (${why}). Its counters start again from zero, so this interval is dropped and sampling continues from the new values.`,
      counters: [],
    };
  }
  const measuredMs = cur.msTicks - prev.msTicks;
  if (measuredMs === 0) {
    return { kind: 'skip', message: `two samples with the same ms_ticks (${cur.msTicks}): no interval to measure` };
  }
  const intervalMs = ctx.activeMs !== undefined && ctx.activeMs > 0 ? Math.min(measuredMs, ctx.activeMs) : measuredMs;
  const seconds = intervalMs / 1000;
  const back = new Backwards();
  const warnings: string[] = [];

  const spinlocks = keyedDeltas<RawSample['spinlocks'][number], SpinDelta>(
    'spinlock',
    byName(prev.spinlocks, (r) => r.name, sumSpin),
    byName(cur.spinlocks, (r) => r.name, sumSpin),
    ['spins', 'collisions', 'backoffs', 'sleepTime'],
    (d) => ({ spins: d.spins, collisions: d.collisions, backoffs: d.backoffs, sleepTime: d.sleepTime }),
    back,
  );
  const waits = keyedDeltas<RawSample['waits'][number], WaitDelta>(
    'wait',
    byName(prev.waits, (r) => r.waitType, sumWait),
    byName(cur.waits, (r) => r.waitType, sumWait),
    ['waitingTasks', 'waitTimeMs', 'signalWaitTimeMs'],
    (d) => ({ waitMs: d.waitTimeMs, count: d.waitingTasks, signalMs: d.signalWaitTimeMs }),
    back,
  );
  const latches = keyedDeltas<RawSample['latches'][number], LatchDelta>(
    'latch',
    byName(prev.latches, (r) => r.latchClass, sumLatch),
    byName(cur.latches, (r) => r.latchClass, sumLatch),
    ['waitingRequests', 'waitTimeMs'],
    (d) => ({ waitMs: d.waitTimeMs, count: d.waitingRequests }),
    back,
  );

  const wanted = (rows: RawSample['progress']) => rows.filter((r) => tableMatches(r.table, ctx.progressTables));
  const progress = keyedDeltas<RawSample['progress'][number], number>(
    'table',
    byName(wanted(prev.progress), (r) => normTable(r.table), sumProgress),
    byName(wanted(cur.progress), (r) => normTable(r.table), sumProgress),
    ['inserts', 'updates'],
    (d) => d.inserts + d.updates,
    back,
  );
  const rows = Object.values(progress).reduce((a, b) => a + b, 0);

  const read = (key: CounterKey): CounterReading => {
    const r = readCounter(prev.counters, cur.counters, key, seconds);
    if (r.kind === 'reset') back.note(r.message);
    else if (r.kind === 'missing' || r.kind === 'unsupported') warnings.push(r.message);
    return r;
  };
  const db = ctx.labDatabase;
  const transactions = read(dbCounter(db, 'Transactions/sec'));
  const writeTransactions = read(dbCounter(db, 'Write Transactions/sec'));
  const batches = read({ objectSuffix: 'SQL Statistics', counter: 'Batch Requests/sec', instance: '' });
  const flushes = read(dbCounter(db, 'Log Flushes/sec'));
  const bytes = read(dbCounter(db, 'Log Bytes Flushed/sec'));
  const flushWaits = read(dbCounter(db, 'Log Flush Waits/sec'));
  const flushWaitTime = read(dbCounter(db, 'Log Flush Wait Time'));

  let avgWriteStallMs: number | null = null;
  if (prev.logFile && cur.logFile) {
    const writes = back.check('log file writes', prev.logFile.writes, cur.logFile.writes);
    const stall = back.check('log file io_stall_write_ms', prev.logFile.ioStallWriteMs, cur.logFile.ioStallWriteMs);
    back.check('log file bytes written', prev.logFile.bytesWritten, cur.logFile.bytesWritten);
    avgWriteStallMs = writes > 0 ? stall / writes : null;
  }

  const cpu = cpuByNode(prev, cur, intervalMs, back);

  if (back.items.length > 0) {
    const listed = back.items.slice(0, MAX_LISTED).join('; ');
    const more = back.items.length > MAX_LISTED ? ` and ${back.items.length - MAX_LISTED} more` : '';
    return {
      kind: 'restart',
      cause: 'counter-reset',
      message: `Counters went backwards between two samples (${listed}${more}). Someone cleared them (DBCC SQLPERF ... CLEAR) or SQL Server reloaded table metadata; this interval is dropped and sampling continues from the new values.`,
      counters: back.items,
    };
  }

  const online = cur.schedulers.filter((s) => s.isOnline && !s.hidden);
  const tick: Tick = {
    t: prev.msTicks + intervalMs - ctx.runStartMsTicks,
    intervalMs,
    rows,
    rowsPerSec: rows / seconds,
    transactions: readingDelta(transactions),
    transactionsPerSec: readingValue(transactions),
    writeTransactionsPerSec: readingValue(writeTransactions),
    batchRequestsPerSec: readingValue(batches),
    spinlocks,
    waits,
    latches,
    log: {
      flushes: readingDelta(flushes),
      bytesFlushed: readingDelta(bytes),
      flushesPerSec: readingValue(flushes),
      bytesFlushedPerSec: readingValue(bytes),
      flushWaitsPerSec: readingValue(flushWaits),
      flushWaitTimeMs: readingAmount(flushWaitTime),
      avgWriteStallMs,
    },
    pendingLogIo: cur.pendingIo.log,
    cpuByNode: cpu.byNode,
    cpuMs: cpu.cpuMs,
    hiddenCpuMs: cpu.hiddenCpuMs,
    onlineSchedulers: online.length,
    runnableTasks: online.reduce((a, s) => a + s.runnableTasks, 0),
  };
  if (ctx.gap) tick.gap = true;
  const monitor = ctx.gap ? null : monitorDelta(prev.monitor, cur.monitor);
  if (monitor) tick.monitor = monitor;
  const own = ctx.gap ? null : ownDelta(prev.own, cur.own);
  if (own) tick.own = own;
  return { kind: 'tick', tick, warnings };
}
