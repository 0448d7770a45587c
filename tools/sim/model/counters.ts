// Cumulative counters of the simulated instance, advanced lazily: whoever reads (a DMV query) or changes the set of
// running workloads first calls advance(), which integrates the current rates over the elapsed time. No timers tick
// in the background. Increments are never negative, so every counter only grows (until a restart).
import { LATCH_CLASSES, SPINLOCK_NAMES, WAIT_TYPES } from './names';
import type { Rates, SpinRate, WaitRate } from './contention';

export interface SpinTotals {
  spins: number;
  collisions: number;
  backoffs: number;
  sleepMs: number;
}
export interface WaitTotals {
  count: number;
  ms: number;
  signalMs: number;
  maxMs: number;
}
/** An amount of waiting: waits, their ms and their signal ms. */
export interface WaitAmount {
  count: number;
  ms: number;
  signalMs: number;
}
const noWait = (): WaitAmount => ({ count: 0, ms: 0, signalMs: 0 });
export interface DbTotals {
  transactions: number;
  writeTransactions: number;
  logFlushes: number;
  logBytes: number;
  flushWaits: number;
  flushWaitMs: number;
  flushWriteMs: number;
}
export interface TableOps {
  inserts: number;
  updates: number;
  deletes: number;
}

/** Quiet background activity per second: what an idle instance's system tasks do. */
const BACKGROUND_WAITS: [string, number, number][] = [
  // name, waits/s, ms/s
  ['LAZYWRITER_SLEEP', 1, 1000],
  ['SQLTRACE_INCREMENTAL_FLUSH_SLEEP', 0.25, 1000],
  ['REQUEST_FOR_DEADLOCK_SEARCH', 0.2, 1000],
  ['XE_TIMER_EVENT', 0.2, 1000],
  ['LOGMGR_QUEUE', 2, 1000],
  ['CHECKPOINT_QUEUE', 0.02, 1000],
  ['DIRTY_PAGE_POLL', 10, 1000],
  ['SOS_WORK_DISPATCHER', 1, 1000],
  ['HADR_FILESTREAM_IOMGR_IOCOMPLETION', 2, 1000],
  ['SP_SERVER_DIAGNOSTICS_SLEEP', 0.2, 1000],
  ['QDS_PERSIST_TASK_MAIN_LOOP_SLEEP', 0.017, 1000],
  ['XE_DISPATCHER_WAIT', 0.05, 1000],
  ['FT_IFTS_SCHEDULER_IDLE_WAIT', 0.017, 1000],
  ['BROKER_TO_FLUSH', 1, 1000],
  ['BROKER_EVENTHANDLER', 0.01, 1000],
  ['QDS_ASYNC_QUEUE', 0.05, 900],
  ['SLEEP_TASK', 4, 60],
  ['PREEMPTIVE_OS_AUTHENTICATIONOPS', 0.05, 0.02],
  ['PREEMPTIVE_OS_QUERYREGISTRY', 0.02, 0.01],
  ['PAGEIOLATCH_SH', 0.05, 0.03],
  ['SOS_SCHEDULER_YIELD', 0.5, 0.01],
  ['ASYNC_NETWORK_IO', 0.05, 0.02],
  ['WRITELOG', 0.1, 0.05],
  ['MEMORY_ALLOCATION_EXT', 3, 0.01],
  ['PAGELATCH_SH', 0.05, 0.002],
  ['PAGELATCH_EX', 0.05, 0.002],
  ['LCK_M_S', 0.0005, 0.01],
  ['CXPACKET', 0.01, 0.05],
];
const BACKGROUND_SPINS: [string, number][] = [
  ['SOS_CACHESTORE', 400],
  ['LOCK_HASH', 250],
  ['SOS_SUSPEND_QUEUE', 300],
  ['SOS_SCHEDULER', 120],
  ['SOS_OBJECT_STORE', 90],
  ['XDESMGR', 40],
  ['LOGCACHE_ACCESS', 30],
  ['CMED_HASH_SET', 20],
  ['LOCK_RW_CMED_HASH_SET', 25],
  ['SOS_TLIST', 15],
  ['SECURITY_CACHE', 12],
  ['DBTABLE', 10],
  ['SQL_MGR', 8],
  ['MUTEX', 30],
  ['SOS_RW', 18],
  ['BUF_HASH', 10],
  ['LOGFLUSHQ', 6],
  ['XTS_MGR', 4],
  ['PLANCACHE_HASH', 5],
  ['LSLIST', 2],
];
const BACKGROUND_LATCHES: [string, number, number][] = [
  ['BUFFER', 0.2, 0.05],
  ['ACCESS_METHODS_DATASET_PARENT', 0.01, 0.002],
  ['LOG_MANAGER', 0.005, 0.001],
  ['FGCB_ADD_REMOVE', 0.002, 0.001],
];

export class CounterStore {
  spinlocks = new Map<string, SpinTotals>();
  waits = new Map<string, WaitTotals>();
  latches = new Map<string, WaitTotals>();
  databases = new Map<string, DbTotals>();
  /** Per CPU id: busy ms. */
  cpuBusyMs = new Map<number, number>();
  /** db (lower case) -> table (lower case, 'dbo.x') -> ops */
  tableOps = new Map<string, Map<string, TableOps>>();
  batchRequests = 0;
  /** Statement compilations (recompilations included, as SQL Compilations/sec counts them) and recompilations. */
  compilations = 0;
  recompilations = 0;
  /** Per database: data file writes/reads, to keep sys.dm_io_virtual_file_stats moving. */
  dataIo = new Map<
    string,
    { reads: number; bytesRead: number; readStallMs: number; writes: number; bytesWritten: number; writeStallMs: number }
  >();
  pendingLogIo = 0;
  /** The workload's waits the last integrate() added, per type (its noise included): what the sessions' part is of. */
  lastWaits = new Map<string, WaitAmount>();
  /**
   * Per wait type, the part of `waits` that workload sessions waited themselves: exactly, and in the whole units their
   * sys.dm_exec_session_wait_stats rows show. The server-wide view counts that part in the same whole units, so a
   * session's waits never read as more than the server's, as on SQL Server, where each wait counts in both.
   */
  private ownPart = new Map<string, { exact: WaitAmount; shown: WaitAmount }>();

  constructor(private rand: () => number) {
    this.reset();
  }

  reset(): void {
    this.spinlocks = new Map(SPINLOCK_NAMES.map((n) => [n, { spins: 0, collisions: 0, backoffs: 0, sleepMs: 0 }]));
    this.waits = new Map(WAIT_TYPES.map((n) => [n, { count: 0, ms: 0, signalMs: 0, maxMs: 0 }]));
    this.latches = new Map(LATCH_CLASSES.map((n) => [n, { count: 0, ms: 0, signalMs: 0, maxMs: 0 }]));
    this.databases = new Map();
    this.cpuBusyMs = new Map();
    this.tableOps = new Map();
    this.dataIo = new Map();
    this.batchRequests = 0;
    this.compilations = 0;
    this.recompilations = 0;
    this.pendingLogIo = 0;
    this.lastWaits = new Map();
    this.ownPart = new Map();
  }

  db(name: string): DbTotals {
    const key = name.toLowerCase();
    let d = this.databases.get(key);
    if (!d) {
      d = { transactions: 0, writeTransactions: 0, logFlushes: 0, logBytes: 0, flushWaits: 0, flushWaitMs: 0, flushWriteMs: 0 };
      this.databases.set(key, d);
    }
    return d;
  }

  io(name: string) {
    const key = name.toLowerCase();
    let d = this.dataIo.get(key);
    if (!d) {
      d = { reads: 0, bytesRead: 0, readStallMs: 0, writes: 0, bytesWritten: 0, writeStallMs: 0 };
      this.dataIo.set(key, d);
    }
    return d;
  }

  table(db: string, table: string): TableOps {
    const dk = db.toLowerCase();
    let m = this.tableOps.get(dk);
    if (!m) this.tableOps.set(dk, (m = new Map()));
    let t = m.get(table.toLowerCase());
    if (!t) m.set(table.toLowerCase(), (t = { inserts: 0, updates: 0, deletes: 0 }));
    return t;
  }

  /** A multiplicative noise factor around 1 (never negative). */
  noise(amplitude: number): number {
    const g = (this.rand() + this.rand() + this.rand() - 1.5) * 2; // ~[-3, 3], roughly normal
    return Math.max(0, 1 + amplitude * g);
  }

  /** Adds `seconds` of the given rates, plus background activity over `cpuCount` CPUs. */
  integrate(rates: Rates, seconds: number, cpuCount: number, onlineCpus: number[]): void {
    this.lastWaits = new Map();
    if (seconds <= 0) return;
    const n = () => this.noise(0.03);
    for (const [name, r] of rates.spinlocks) this.addSpin(name, r, seconds * n());
    for (const [name, r] of rates.waits) {
      const k = seconds * n();
      this.addWait(this.waits, name, r, k);
      this.lastWaits.set(name, { count: r.count * k, ms: r.ms * k, signalMs: Math.min(r.signalMs, r.ms) * k });
    }
    for (const [name, r] of rates.latches) this.addWait(this.latches, name, r, seconds * n());
    for (const [db, r] of rates.databases) {
      const d = this.db(db);
      const k = seconds * n();
      d.transactions += r.transactions * k;
      d.writeTransactions += r.writeTransactions * k;
      d.logFlushes += r.logFlushes * k;
      d.logBytes += r.logBytes * k;
      d.flushWaits += r.flushWaits * k;
      d.flushWaitMs += r.flushWaitMs * k;
      d.flushWriteMs += r.flushWriteMs * k;
    }
    for (const [cpu, ms] of rates.cpuBusyMs) this.cpuBusyMs.set(cpu, (this.cpuBusyMs.get(cpu) ?? 0) + ms * seconds);
    this.pendingLogIo = rates.pendingLogIo;
    // Background.
    for (const [name, perSec, msPerSec] of BACKGROUND_WAITS) {
      const k = seconds * n();
      this.addWait(
        this.waits,
        name,
        { count: perSec, ms: msPerSec, signalMs: msPerSec * 0.001, maxMs: Math.min(msPerSec / Math.max(perSec, 0.001), 60000) },
        k,
      );
    }
    for (const [name, spinsPerSec] of BACKGROUND_SPINS) {
      this.addSpin(name, { spins: spinsPerSec, collisions: spinsPerSec / 40, backoffs: spinsPerSec / 4000, sleepMs: 0 }, seconds * n());
    }
    for (const [name, perSec, ms] of BACKGROUND_LATCHES)
      this.addWait(this.latches, name, { count: perSec, ms, signalMs: 0, maxMs: 2 }, seconds * n());
    for (const cpu of onlineCpus) this.cpuBusyMs.set(cpu, (this.cpuBusyMs.get(cpu) ?? 0) + (2 * seconds * n()) / Math.max(1, cpuCount / 8));
  }

  /**
   * A session waited `exact` of `type`, shown in its own row as `shown` whole units more. `alsoServer`: the wait is
   * not among the integrated rates (a WAITFOR), so it is added to the server-wide total too.
   */
  chargeOwn(type: string, exact: WaitAmount, shown: WaitAmount, alsoServer = false): void {
    if (alsoServer) this.addWait(this.waits, type, { ...exact, maxMs: exact.ms }, 1);
    const p = this.ownPart.get(type) ?? { exact: noWait(), shown: noWait() };
    for (const k of ['count', 'ms', 'signalMs'] as const) {
      p.exact[k] += exact[k];
      p.shown[k] += shown[k];
    }
    this.ownPart.set(type, p);
  }

  /** A wait type as sys.dm_os_wait_stats shows it: whole units, the sessions' own part in the units their rows show. */
  waitRow(type: string, w: WaitTotals): WaitAmount {
    const p = this.ownPart.get(type);
    if (!p) return { count: Math.floor(w.count), ms: Math.floor(w.ms), signalMs: Math.floor(w.signalMs) };
    const part = (k: keyof WaitAmount) => Math.max(0, Math.floor(w[k] - p.exact[k] + 1e-9)) + p.shown[k];
    return { count: part('count'), ms: part('ms'), signalMs: part('signalMs') };
  }

  private addSpin(name: string, r: SpinRate, k: number): void {
    const t = this.spinlocks.get(name) ?? { spins: 0, collisions: 0, backoffs: 0, sleepMs: 0 };
    t.spins += r.spins * k;
    t.collisions += r.collisions * k;
    t.backoffs += r.backoffs * k;
    t.sleepMs += r.sleepMs * k;
    this.spinlocks.set(name, t);
  }

  private addWait(map: Map<string, WaitTotals>, name: string, r: WaitRate, k: number): void {
    const t = map.get(name) ?? { count: 0, ms: 0, signalMs: 0, maxMs: 0 };
    t.count += r.count * k;
    t.ms += r.ms * k;
    t.signalMs += Math.min(r.signalMs, r.ms) * k;
    if (r.count * k >= 1) t.maxMs = Math.max(t.maxMs, r.maxMs * (0.8 + 0.4 * this.rand()));
    map.set(name, t);
  }
}
