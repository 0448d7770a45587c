// A tick's result sets read into a RawSample (the monitor's own row and counters included): the parsing shared by the
// sampler (sampler.ts) and the watch's tick (watch/tick.ts), apart from the scheduling.
import { num, str, type Row } from '../db/rows';
import type { MonitorReading } from '../shared/monitorCost';
import type { RawSample } from '../shared/types';

/**
 * The monitor's own row of sys.dm_exec_sessions and the SQL Statistics compilation counters, as the delta ticks
 * return them: the counters as columns of the own row (sample-delta) or as rows of their own (tick-delta); null when
 * the tick did not (a full tick reads neither, or only cpu_time).
 */
export function parseMonitor(own: Row[] | undefined, compiles: Row[] | undefined): MonitorReading | null {
  const o = own?.[0];
  if (!o || !('logical_reads' in o)) return null;
  const counter = (name: string, column: string) => {
    if (column in o) return o[column] === null ? null : num(o[column]);
    const r = compiles?.find((x) => str(x.counter_name).trim() === name);
    return r ? num(r.cntr_value) : null;
  };
  return {
    cpuMs: num(o.cpu_time),
    logicalReads: num(o.logical_reads),
    reads: num(o.reads),
    writes: num(o.writes),
    scheduledMs: num(o.total_scheduled_time),
    compilations: counter('SQL Compilations/sec', 'sql_compilations'),
    recompilations: counter('SQL Re-Compilations/sec', 'sql_recompilations'),
  };
}

/**
 * Each row's parsed form, kept beside the row: a delta tick rebuilds its full sets from the rows it kept (snapshot.ts),
 * and a row that did not move is the same object tick after tick, so it is parsed once, not every tick. Without this
 * a watch turned every spinlock, wait, latch and counter row into new objects every tick, which lived a tick as the
 * baseline (long enough for V8 to move them to the old generation) and then were garbage: most of a fleet's heap
 * growth between full collections. The parsed objects are read, never changed, downstream; the counters' database
 * renaming (databaseNames.ts) changes an instance name once, and again is a no-op.
 */
const PARSED = {
  spinlocks: Symbol('parsed spinlock'),
  waits: Symbol('parsed wait'),
  latches: Symbol('parsed latch'),
  counters: Symbol('parsed counter'),
  schedulers: Symbol('parsed scheduler'),
};

/**
 * The parsed form is kept on the row itself, under a symbol, not enumerable: a spread copy of the row (snapshot.ts
 * merging a moved row) and JSON leave it behind, so a row that moved is parsed anew. It was a WeakMap per kind: every
 * moved row a new entry, and the tables' growth and rehashing were 7% of what a fleet of 50 promoted into the old
 * generation (bench/fleet.ts --alloc-prof --promoted-only).
 */
function parsedOnce<T extends object>(kind: keyof typeof PARSED, rows: readonly Row[], parse: (r: Row) => T): T[] {
  const key = PARSED[kind];
  return rows.map((r) => {
    const held = (r as Record<symbol, T | undefined>)[key];
    if (held) return held;
    const p = parse(r);
    Object.defineProperty(r, key, { value: p, enumerable: false });
    return p;
  });
}

export function parseSample(sets: Row[][], clientTime: number): RawSample {
  const [
    clock = [],
    spin = [],
    waits = [],
    latches = [],
    counters = [],
    log = [],
    pending = [],
    scheds = [],
    progress = [],
    own,
    compiles,
  ] = sets;
  const c = clock[0];
  if (!c) throw new Error('sample returned no clock row');
  const l = log[0];
  return {
    clientTime,
    serverTime: str(c.server_time_utc),
    msTicks: num(c.ms_ticks),
    cpuTicks: num(c.cpu_ticks),
    startTime: str(c.sqlserver_start_time),
    spinlocks: parsedOnce('spinlocks', spin, (r) => ({
      name: str(r.name),
      collisions: num(r.collisions),
      spins: num(r.spins),
      sleepTime: num(r.sleep_time),
      backoffs: num(r.backoffs),
    })),
    waits: parsedOnce('waits', waits, (r) => ({
      waitType: str(r.wait_type),
      waitingTasks: num(r.waiting_tasks_count),
      waitTimeMs: num(r.wait_time_ms),
      maxWaitTimeMs: num(r.max_wait_time_ms),
      signalWaitTimeMs: num(r.signal_wait_time_ms),
    })),
    latches: parsedOnce('latches', latches, (r) => ({
      latchClass: str(r.latch_class),
      waitingRequests: num(r.waiting_requests_count),
      waitTimeMs: num(r.wait_time_ms),
      maxWaitTimeMs: num(r.max_wait_time_ms),
    })),
    counters: parsedOnce('counters', counters, (r) => ({
      object: str(r.object_name).trim(),
      counter: str(r.counter_name).trim(),
      instance: str(r.instance_name).trim(),
      value: num(r.cntr_value),
      type: num(r.cntr_type),
    })),
    logFile:
      l && l.num_of_writes !== null
        ? { writes: num(l.num_of_writes), bytesWritten: num(l.num_of_bytes_written), ioStallWriteMs: num(l.io_stall_write_ms) }
        : null,
    pendingIo: { total: num(pending[0]?.pending_total), log: num(pending[0]?.pending_log) },
    schedulers: parsedOnce('schedulers', scheds, (r) => ({
      hidden: num(r.scheduler_id) >= 1048576,
      schedulerId: num(r.scheduler_id),
      cpuId: num(r.cpu_id),
      nodeId: num(r.parent_node_id),
      isOnline: r.is_online === true || num(r.is_online) === 1,
      totalCpuMs: num(r.total_cpu_usage_ms),
      runnableTasks: num(r.runnable_tasks_count),
    })),
    progress: progress.map((r) => ({
      table: str(r.table_name),
      inserts: num(r.inserts),
      updates: num(r.updates),
      deletes: num(r.deletes),
    })),
    monitor: parseMonitor(own, compiles),
  };
}
