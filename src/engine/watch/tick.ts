// One watch tick: the answer of sql/watch/tick.sql read into the engine's RawSample (so computeTick, the experiments'
// delta code, does the spinlocks, waits, latches, server-wide counters and CPU by node), plus what only a watch
// reads: every database's log counters and log file, CPU per scheduler, and the requests running or waiting now.
import { num, str, type Row } from '../../db/rows';
import type { RawSample } from '../../shared/types';
import { boundTick, type WatchDbLog, type WatchRequest, type WatchTick, type WaitingNow } from '../../shared/watch';
import { computeTick } from '../deltas';
import { parseMonitor, parseSample } from '../sampleRows';
import { readCounter, readingAmount, readingDelta } from '../perfCounters';

export interface WatchSample {
  raw: RawSample;
  logFiles: Map<string, { writes: number; bytesWritten: number; ioStallWriteMs: number }>;
  requests: Omit<WatchRequest, 'nodeId'>[];
  waitingNow: WaitingNow[];
  /** The monitor session's own CPU on the server so far (ms), or null when not returned. */
  ownCpuMs: number | null;
}

const nullable = (v: unknown): string | null => (v === null || v === undefined ? null : str(v));

export function parseWatchSample(sets: Row[][], clientTime: number): WatchSample {
  const [clock, spin, waits, latches, counters, logIo = [], pending = [], scheds, requests = [], waiting = [], own = [], compiles] = sets;
  // parseSample reads the experiments' layout; the watch's log rows are per database, so the lab log file is none.
  const raw = {
    ...parseSample([clock, spin, waits, latches, counters, [], pending, scheds, []], clientTime),
    monitor: parseMonitor(own, compiles),
  };
  const logFiles = new Map<string, { writes: number; bytesWritten: number; ioStallWriteMs: number }>();
  for (const r of logIo) {
    const name = str(r.database_name);
    if (name)
      logFiles.set(name, {
        writes: num(r.num_of_writes),
        bytesWritten: num(r.num_of_bytes_written),
        ioStallWriteMs: num(r.io_stall_write_ms),
      });
  }
  return {
    raw,
    logFiles,
    requests: requests.map((r) => ({
      sessionId: num(r.session_id),
      status: str(r.status),
      command: str(r.command).trim(),
      database: nullable(r.database_name),
      waitType: nullable(r.wait_type),
      waitMs: num(r.wait_time),
      lastWaitType: nullable(r.last_wait_type),
      blockingSessionId: num(r.blocking_session_id),
      schedulerId: r.scheduler_id === null || r.scheduler_id === undefined ? null : num(r.scheduler_id),
      cpuMs: num(r.cpu_time),
      elapsedMs: num(r.total_elapsed_time),
      queryHash: nullable(r.query_hash),
      text: nullable(r.statement_start),
    })),
    waitingNow: waiting.map((r) => ({
      waitType: str(r.wait_type),
      tasks: num(r.tasks),
      maxWaitMs: num(r.max_wait_ms),
      totalWaitMs: num(r.total_wait_ms),
    })),
    ownCpuMs: own[0] ? num(own[0].cpu_time) : null,
  };
}

/** The databases whose counters are in the sample (instance names of the *:Databases object, _Total left out). */
function databasesIn(s: RawSample): string[] {
  const out = new Set<string>();
  for (const c of s.counters) if (/(^|:)Databases$/i.test(c.object) && c.instance && c.instance !== '_Total') out.add(c.instance);
  return [...out];
}

function logByDb(prev: WatchSample, cur: WatchSample, seconds: number, n: number): Record<string, WatchDbLog> {
  const all: [string, WatchDbLog][] = [];
  for (const db of databasesIn(cur.raw)) {
    const read = (counter: string) =>
      readCounter(prev.raw.counters, cur.raw.counters, { objectSuffix: 'Databases', counter, instance: db }, seconds);
    const p = prev.logFiles.get(db);
    const c = cur.logFiles.get(db);
    const writes = p && c ? Math.max(0, c.writes - p.writes) : 0;
    const stall = p && c ? Math.max(0, c.ioStallWriteMs - p.ioStallWriteMs) : 0;
    const entry: WatchDbLog = {
      transactions: readingDelta(read('Transactions/sec')),
      flushes: readingDelta(read('Log Flushes/sec')),
      bytesFlushed: readingDelta(read('Log Bytes Flushed/sec')),
      flushWaitTimeMs: readingAmount(read('Log Flush Wait Time')),
      writes,
      avgWriteStallMs: writes > 0 ? stall / writes : null,
    };
    if (entry.flushes > 0 || entry.bytesFlushed > 0 || entry.transactions > 0 || writes > 0) all.push([db, entry]);
  }
  all.sort((a, b) => b[1].bytesFlushed - a[1].bytesFlushed || b[1].transactions - a[1].transactions || (a[0] < b[0] ? -1 : 1));
  return Object.fromEntries(all.slice(0, n));
}

function cpuByScheduler(prev: RawSample, cur: RawSample, intervalMs: number): Record<string, number> {
  const before = new Map(prev.schedulers.map((s) => [s.schedulerId, s]));
  const out: Record<string, number> = {};
  for (const s of cur.schedulers) {
    const p = before.get(s.schedulerId);
    if (!s.isOnline || !p) continue;
    out[String(s.schedulerId)] = Math.min(100, Math.max(0, (100 * (s.totalCpuMs - p.totalCpuMs)) / intervalMs));
  }
  return out;
}

export type WatchTickResult =
  | { kind: 'tick'; tick: WatchTick; warnings: string[] }
  | { kind: 'restart'; cause: 'server-restart' | 'counter-reset'; message: string }
  | { kind: 'skip'; message: string };

/**
 * The interval between two watch samples. Server-wide figures come from the _Total instance of the Databases
 * counters; the write stall of the whole server is the flush-weighted mean of the databases' log files.
 */
export function computeWatchTick(
  prev: WatchSample,
  cur: WatchSample,
  ctx: { startMsTicks: number; topN: number; nodeOfScheduler: Map<number, number>; gap?: boolean },
): WatchTickResult {
  const r = computeTick(prev.raw, cur.raw, { labDatabase: '_Total', progressTables: [], runStartMsTicks: ctx.startMsTicks, gap: ctx.gap });
  if (r.kind === 'restart') return { kind: 'restart', cause: r.cause, message: r.message };
  if (r.kind === 'skip') return r;
  const t = r.tick;
  const seconds = t.intervalMs / 1000;
  const bounded = boundTick(t, ctx.topN);
  const dbs = logByDb(prev, cur, seconds, ctx.topN);
  let writes = 0,
    stall = 0;
  for (const [name, c] of cur.logFiles) {
    const p = prev.logFiles.get(name);
    if (!p) continue;
    writes += Math.max(0, c.writes - p.writes);
    stall += Math.max(0, c.ioStallWriteMs - p.ioStallWriteMs);
  }
  const tick: WatchTick = {
    ...t,
    ...bounded,
    log: { ...t.log, avgWriteStallMs: writes > 0 ? stall / writes : null },
    pendingLogIo: cur.raw.pendingIo.log,
    pendingIo: cur.raw.pendingIo.total,
    logByDb: dbs,
    cpuByScheduler: cpuByScheduler(prev.raw, cur.raw, t.intervalMs),
    requests: cur.requests.map((q) => ({ ...q, nodeId: q.schedulerId === null ? null : (ctx.nodeOfScheduler.get(q.schedulerId) ?? null) })),
    waitingNow: cur.waitingNow,
  };
  // Log Flush Wait Time is point-in-time on some versions; a missing counter is said once by the caller.
  return { kind: 'tick', tick, warnings: r.warnings };
}
