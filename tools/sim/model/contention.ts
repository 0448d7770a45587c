// The contention model: given the workload calls running right now (what each does and on which CPU it runs), how
// fast each goes and how fast every spinlock, wait, latch and log counter grows. Rates only; counters.ts integrates
// them over time. Everything here is synthetic: it reproduces the DIRECTION and rough size of what the seed posts
// measured, never a real engine.
//
// How it works. Each session loops over transactions. A transaction costs CPU (per row and per transaction), passes
// through singleton critical sections (LOGCACHE_ACCESS, XDESMGR, the sequence latch, ...), and, unless delayed
// durability is FORCED, waits for its commit to be flushed. The singletons are queues: a fixed-point iteration finds
// the utilisation of each and the resulting per-session transaction time, which gives throughput that rises with
// sessions and flattens. Spins are then derived per acquisition with explicit multipliers taken from the seeds, so a
// seed's ratio shows up as that ratio, whatever the throughput does.
//
// Rules (seed files under shared/seeds):
//  R1 Throughput rises with sessions, then flattens, and dips when the sessions span sockets (cache lines of the
//     singletons cross the interconnect).                                          [000, 002, 004 throughput graphs]
//  R2 LOGCACHE_ACCESS is taken for every log record copied into the log buffer; workers on another NUMA node than
//     the log writer spin 4.5x more (disk engine) and ~59x more (in-memory, native procs), and run longer
//     (55 s vs 85 s; 10.4 s vs 18.4 s).                                                                      [000]
//  R3 When worker threads share core 0 with the log writer, LOGCACHE_ACCESS spins are an order of magnitude higher
//     than when core 0 is left out of the affinity mask.                                                     [001]
//  R4 XDESMGR serialises handing out and destroying transaction ids: disk engine only, per transaction, so 2 rows
//     per transaction relieve it and raise throughput; the in-memory engine does not use it.                 [002]
//  R5 One socket peaks a little below both (about 475k vs 500k inserts/s, 18 threads on one socket).       [002]
//  R6 Without delayed durability every commit waits for its log flush (WRITELOG); around 500k rows/s at 2 rows per
//     transaction gives ~15k log flushes/s, ~100 MB/s of log and ~0.1 ms average write stall. With
//     DELAYED_DURABILITY = FORCED commits do not wait, and the log goes out in fewer, larger (60 KB) writes. [003]
//  R7 Interpreted T-SQL on memory-optimized tables takes BLOCKER_ENUM (transactions spanning both engines);
//     natively compiled procedures do not.                                                                  [002]
//  R8 A ring buffer whose slots come from a SEQUENCE waits on the METADATA_SEQUENCE_GENERATOR latch (LATCH_SH),
//     worse with the in-memory engine (which then does no better than the disk engine); the identity-based slot
//     generator removes the latch and raises throughput; SCHEMA_ONLY buys nothing over SCHEMA_AND_DATA; with the
//     bottlenecks gone LOCK_RW_CMED_HASH_SET leads the spinlocks and SOS_SCHEDULER_YIELD the waits.          [004]
//  R9 In-memory throughput curves are jagged (noisier than the disk engine's).                               [004]
//  R10 Concurrent disk-engine inserts latch the table's last page: BUFFER latch and PAGELATCH_EX waits (textbook).
import type { Machine } from './topology';

export interface WorkloadProfile {
  engine: 'disk' | 'xtp';
  /** How the memory-optimized table is reached; always 'interpreted' for the disk engine. */
  access: 'interpreted' | 'native';
  /** insert: new rows (the seeds' singleton insert); push: update one ring-buffer slot (seed 004). */
  operation: 'insert' | 'push';
  rowsPerTxn: number;
  /** Where a ring-buffer slot number comes from (push only). */
  slotSource: 'none' | 'sequence' | 'identity';
  tableDurability: 'SCHEMA_AND_DATA' | 'SCHEMA_ONLY';
}

export type DelayedDurability = 'DISABLED' | 'ALLOWED' | 'FORCED';

export interface WorkerInput {
  id: number;
  profile: WorkloadProfile;
  cpu: number;
  node: number;
  delayedDurability: DelayedDurability;
  database: string;
}

export interface ModelContext {
  machine: Machine;
  /** NUMA node whose hidden schedulers run the log writer (0, as on SQL Server 2016+). */
  logWriterNode: number;
}

export interface SpinRate { spins: number; collisions: number; backoffs: number; sleepMs: number }
export interface WaitRate { count: number; ms: number; signalMs: number; maxMs: number }
export interface DbRates {
  transactions: number;
  writeTransactions: number;
  logFlushes: number;
  logBytes: number;
  flushWaits: number;
  flushWaitMs: number;
  flushWriteMs: number;
  /** Average bytes per log flush (for the reader: R6). */
  bytesPerFlush: number;
}
export interface WorkerRate { rowsPerSec: number; txnsPerSec: number; cpuUtil: number }

/** Everything per second. */
export interface Rates {
  workers: Map<number, WorkerRate>;
  spinlocks: Map<string, SpinRate>;
  waits: Map<string, WaitRate>;
  latches: Map<string, WaitRate>;
  databases: Map<string, DbRates>;
  /** CPU busy ms per second, per CPU id. */
  cpuBusyMs: Map<number, number>;
  runnableByCpu: Map<number, number>;
  /** Mean log writes in flight (Little's law), for sys.dm_io_pending_io_requests. */
  pendingLogIo: number;
}

// ---- costs (microseconds) -------------------------------------------------------------------------------------
interface Cost { perRow: number; perTxn: number; logPerRow: number; logPerTxn: number }
function costOf(p: WorkloadProfile): Cost {
  const durable = p.tableDurability === 'SCHEMA_AND_DATA';
  if (p.engine === 'disk') {
    return p.operation === 'insert'
      ? { perRow: 2.6, perTxn: 2.4, logPerRow: 170, logPerTxn: 60 }
      : { perRow: 4.0, perTxn: 2.4, logPerRow: 230, logPerTxn: 60 };
  }
  // In-memory: log records are written at commit only, none for SCHEMA_ONLY tables.
  const interop = p.access === 'interpreted' ? 1.6 : 0;
  const base = p.operation === 'insert' ? { perRow: 1.9, perTxn: 1.4 } : { perRow: 2.4, perTxn: 1.6 };
  return {
    perRow: base.perRow,
    perTxn: base.perTxn + interop,
    logPerRow: durable ? 120 : 0,
    logPerTxn: durable ? 40 : 0,
  };
}
function slotCpu(p: WorkloadProfile): number {
  if (p.operation !== 'push') return 0;
  return p.slotSource === 'sequence' ? 1.5 : p.slotSource === 'identity' ? 1.0 : 0;
}

// ---- singleton critical sections --------------------------------------------------------------------------------
type Resource = 'LOGCACHE_ACCESS' | 'XDESMGR' | 'SEQUENCE' | 'BLOCKER_ENUM' | 'CMED';
const RESOURCES: Resource[] = ['LOGCACHE_ACCESS', 'XDESMGR', 'SEQUENCE', 'BLOCKER_ENUM', 'CMED'];

/** Acquisitions per transaction. */
function acquisitions(p: WorkloadProfile, r: Resource): number {
  const k = p.rowsPerTxn;
  switch (r) {
    case 'LOGCACHE_ACCESS': // R2: one reservation per log record; in-memory logs once per commit
      if (p.engine === 'disk') return k + 1;
      return p.tableDurability === 'SCHEMA_AND_DATA' ? 1 : 0;
    case 'XDESMGR': // R4: GetXdesId at begin, IsMoreThanOneWriterActive at commit (seed 003 call stacks)
      return p.engine === 'disk' ? 2 : 0;
    case 'SEQUENCE': // R8: one NEXT VALUE FOR per push
      return p.operation === 'push' && p.slotSource === 'sequence' ? k : 0;
    case 'BLOCKER_ENUM': // R7
      return p.engine === 'xtp' && p.access === 'interpreted' ? 1 : 0;
    case 'CMED': // R8: metadata cache lookups on every call from interpreted T-SQL into a native procedure
      return p.engine === 'xtp' ? (p.operation === 'push' ? 2 : 0.02) : 0;
  }
}

/** Hold time of one acquisition in microseconds, for a worker on `remote` node / with core 0 contended. */
function holdTime(r: Resource, p: WorkloadProfile, remote: boolean, span: number): number {
  switch (r) {
    case 'LOGCACHE_ACCESS': {
      // R2: the cache line travels to the log writer's socket and back.
      // In-memory tables log once per commit, briefly: logging is not their bottleneck (seed 004, SCHEMA_ONLY).
      return p.engine === 'disk' ? 0.18 * (remote ? 2.4 : 1) : 0.05 * (remote ? 3 : 1);
    }
    case 'XDESMGR':
      return 0.4 * (1 + 0.9 * span); // R5: its cache line crosses sockets when workers span them
    case 'SEQUENCE':
      return p.engine === 'xtp' ? 5.0 : 2.6; // R8: engine switching lengthens the latch hold
    case 'BLOCKER_ENUM':
      return 0.25;
    case 'CMED':
      return 0.05;
  }
}

/** Spins per acquisition before contention scaling: sets which spinlock leads. */
const SPIN_BASE: Record<Resource, number> = {
  LOGCACHE_ACCESS: 12,
  XDESMGR: 30,
  SEQUENCE: 0, // a latch: it waits, it does not spin
  BLOCKER_ENUM: 14,
  CMED: 2500,
};

/** R2: remote / local spins per acquisition. 12 for interpreted in-memory access is our interpolation, not a seed figure. */
function remoteSpinRatio(p: WorkloadProfile): number {
  if (p.engine === 'disk') return 4.5;
  return p.access === 'native' ? 59 : 12;
}

const WRITE_LATENCY_US = 55; // R6: fast flash; with transfer time the average stall comes out near 0.1 ms
const LOG_BANDWIDTH_BYTES_PER_US = 2000;
const DD_FLUSH_BYTES = 60 * 1024; // R6: a full log buffer
const HT_PENALTY = 0.38;
const LW_COMMITS_PER_SEC = 250_000; // a core running two busy hyperthreads gives ~1.24x one thread

export function computeRates(workers: WorkerInput[], ctx: ModelContext): Rates {
  const out: Rates = {
    workers: new Map(),
    spinlocks: new Map(),
    waits: new Map(),
    latches: new Map(),
    databases: new Map(),
    cpuBusyMs: new Map(),
    runnableByCpu: new Map(),
    pendingLogIo: 0,
  };
  const n = workers.length;
  if (n === 0) return out;
  const machine = ctx.machine;

  // Placement facts.
  const perNode = new Map<number, number>();
  for (const w of workers) perNode.set(w.node, (perNode.get(w.node) ?? 0) + 1);
  const span = 1 - Math.max(...perNode.values()) / n; // 0 on one node, 0.5 evenly over two
  const remote = workers.map((w) => w.node !== ctx.logWriterNode);
  const remoteFrac = remote.filter(Boolean).length / n;
  const core0 = new Set(machine.core0Cpus());
  const perCpu = new Map<number, number[]>();
  workers.forEach((w, i) => perCpu.set(w.cpu, [...(perCpu.get(w.cpu) ?? []), i]));

  const costs = workers.map((w) => costOf(w.profile));
  const cpuPerTxn = workers.map(
    (w, i) => costs[i].perRow * w.profile.rowsPerTxn + costs[i].perTxn + slotCpu(w.profile) * w.profile.rowsPerTxn,
  );
  // R2: remote workers also burn more CPU per transaction (seed 000: more sampled CPU when not collocated with the
  // log writer, and "some factor" beyond the spinlock making the run longer).
  workers.forEach((w, i) => remote[i] && (cpuPerTxn[i] *= w.profile.engine === 'disk' ? 1.3 : 1.55));
  const logPerTxn = workers.map((w, i) => costs[i].logPerRow * w.profile.rowsPerTxn + costs[i].logPerTxn);
  const waitsForFlush = workers.map((w, i) => w.delayedDurability !== 'FORCED' && logPerTxn[i] > 0);
  // R1: coherency traffic grows with the number of sessions, much more when they span sockets.
  const coherency = 1 + (0.0025 + 0.012 * span) * (n - 1);

  // Fixed point over per-transaction time T (us).
  let T = workers.map((_, i) => cpuPerTxn[i] + (waitsForFlush[i] ? 2 * WRITE_LATENCY_US : 0));
  const hold = workers.map((w, i) => RESOURCES.map((r) => holdTime(r, w.profile, remote[i], span)));
  let rho = RESOURCES.map(() => 0);
  let W = RESOURCES.map(() => 0);
  let commitWait = 0;
  let speed = workers.map(() => 1);
  let util = workers.map(() => 0);
  let core0Load = 0;
  let capPerUs = Infinity;
  for (let iter = 0; iter < 200; iter++) {
    // Queue on each singleton.
    rho = RESOURCES.map((r, ri) => {
      let load = 0;
      workers.forEach((w, i) => (load += (acquisitions(w.profile, r) * hold[i][ri]) / T[i]));
      return Math.min(0.97, load);
    });
    W = RESOURCES.map((r, ri) => {
      let acq = 0;
      let held = 0;
      workers.forEach((w, i) => {
        const a = acquisitions(w.profile, r) / T[i];
        acq += a;
        held += a * hold[i][ri];
      });
      const meanHold = acq > 0 ? held / acq : 0;
      return (meanHold * rho[ri]) / (1 - rho[ri]);
    });
    // Group commit: each flush takes latency + transfer time; a commit waits for the flush in progress and its own.
    const flushing = workers.filter((_, i) => waitsForFlush[i]).length;
    const commitsPerUs = workers.reduce((s, _, i) => s + (waitsForFlush[i] ? 1 / T[i] : 0), 0);
    const bytesPerUs = workers.reduce((s, _, i) => s + (waitsForFlush[i] ? logPerTxn[i] / T[i] : 0), 0);
    const group = 1 + 0.7 * Math.max(0, flushing - 1);
    const flushesPerUs = commitsPerUs / group;
    const bytesPerFlush = flushesPerUs > 0 ? bytesPerUs / flushesPerUs : 0;
    const latency = WRITE_LATENCY_US + bytesPerFlush / LOG_BANDWIDTH_BYTES_PER_US;
    commitWait = 1.25 * latency;
    // The log writer is a singleton too: it serves at most LW_COMMITS_PER_SEC committers (R6: ~250k commits/s gives
    // seed 003's 500k rows/s at 2 rows per transaction), less when worker threads crowd its NUMA node (R5: one socket
    // peaks ~5% lower), when the workers span sockets and grow in number (R1: the dip), and when they share core 0.
    let node0Workers = 0;
    workers.forEach((w) => w.node === ctx.logWriterNode && node0Workers++);
    const half = machine.cpusPerNode / 2;
    const crowd = 1 + (0.1 * Math.max(0, node0Workers - half)) / half;
    capPerUs = flushing > 0 ? LW_COMMITS_PER_SEC / 1e6 / (crowd * (1 + 0.004 * (n - 1) * span) * (1 + 0.3 * Math.min(1, core0Load))) : Infinity;
    // CPU: time on CPU per transaction includes spinning on the singletons (spinning burns CPU; latch and commit
    // waits suspend the task). Schedulers shared by several sessions, and busy hyperthread siblings, slow it.
    const onCpu = workers.map((w, i) => {
      let spin = 0;
      RESOURCES.forEach((r, ri) => {
        if (r !== 'SEQUENCE') spin += acquisitions(w.profile, r) * (hold[i][ri] + W[ri]);
      });
      return cpuPerTxn[i] * coherency + spin;
    });
    util = workers.map((_, i) => onCpu[i] / T[i]);
    const cpuLoad = new Map<number, number>();
    workers.forEach((w, i) => cpuLoad.set(w.cpu, (cpuLoad.get(w.cpu) ?? 0) + util[i] / speed[i]));
    core0Load = 0;
    workers.forEach((w, i) => {
      if (core0.has(w.cpu)) core0Load += util[i];
    });
    speed = workers.map((w) => {
      const share = 1 / Math.max(1, cpuLoad.get(w.cpu) ?? 0);
      const sib = machine.sibling(w.cpu);
      const sibBusy = sib === undefined ? 0 : Math.min(1, cpuLoad.get(sib) ?? 0);
      return share * (1 - HT_PENALTY * sibBusy);
    });
    const next = workers.map((w, i) => {
      let t = onCpu[i] / speed[i];
      RESOURCES.forEach((r, ri) => {
        if (r === 'SEQUENCE') t += acquisitions(w.profile, r) * (hold[i][ri] + W[ri]);
      });
      return t + (waitsForFlush[i] ? commitWait : 0);
    });
    // Bottleneck law: committers cannot be served faster than the log writer's capacity, so past it every waiting
    // session's transaction stretches (the plateau of R1/R6).
    const commitRate = workers.reduce((s, _, i) => s + (waitsForFlush[i] ? 1 / next[i] : 0), 0);
    if (commitRate > capPerUs) next.forEach((t, i) => waitsForFlush[i] && (next[i] = (t * commitRate) / capPerUs));
    T = T.map((t, i) => 0.7 * t + 0.3 * next[i]);
  }

  // Per-worker throughput and CPU.
  workers.forEach((w, i) => {
    const tps = 1e6 / T[i];
    out.workers.set(w.id, { txnsPerSec: tps, rowsPerSec: tps * w.profile.rowsPerTxn, cpuUtil: Math.min(1, util[i]) });
    out.cpuBusyMs.set(w.cpu, Math.min(1000, (out.cpuBusyMs.get(w.cpu) ?? 0) + 1000 * util[i]));
  });
  for (const [cpu, list] of perCpu) out.runnableByCpu.set(cpu, Math.max(0, list.length - 1));

  // Spins (R2, R3, R4, R7, R8): per acquisition = base x f(sessions) x placement multipliers.
  const f = 0.05 + Math.pow(n - 1, 1.2);
  let core0Busy = 0;
  workers.forEach((w, i) => core0.has(w.cpu) && (core0Busy += util[i]));
  const core0Mult = 1 + 9 * Math.min(1, 2 * core0Busy); // R3
  const addSpin = (name: string, spinsPerSec: number, perCollision: number) => {
    if (spinsPerSec <= 0) return;
    const prev = out.spinlocks.get(name) ?? { spins: 0, collisions: 0, backoffs: 0, sleepMs: 0 };
    const collisions = spinsPerSec / perCollision;
    const backoffs = collisions * Math.min(0.2, perCollision / 5000);
    prev.spins += spinsPerSec;
    prev.collisions += collisions;
    prev.backoffs += backoffs;
    prev.sleepMs += backoffs * 0.001;
    out.spinlocks.set(name, prev);
  };
  RESOURCES.forEach((r) => {
    if (r === 'SEQUENCE') return;
    workers.forEach((w, i) => {
      const acqPerSec = (acquisitions(w.profile, r) * 1e6) / T[i];
      if (acqPerSec === 0) return;
      let mult = 1;
      if (r === 'LOGCACHE_ACCESS') {
        mult = (1 + (remoteSpinRatio(w.profile) - 1) * remoteFrac) * core0Mult;
      } else if (r === 'XDESMGR') {
        mult = 1 + 3 * span;
      }
      const perAcq = SPIN_BASE[r] * f * mult;
      const name = r === 'CMED' ? 'LOCK_RW_CMED_HASH_SET' : r;
      addSpin(name, acqPerSec * perAcq, 60 + 8 * Math.sqrt(perAcq));
      if (r === 'CMED') addSpin('CMED_HASH_SET', acqPerSec * 0.02 * f, 40); // the pre-2016 CU2 spinlock, now quiet
    });
  });

  // Log, per database (R6).
  const dbs = new Set(workers.map((w) => w.database));
  let inFlight = 0;
  for (const db of dbs) {
    const idx = workers.map((w, i) => i).filter((i) => workers[i].database === db);
    let countedTxns = 0, bytes = 0, waitingCommits = 0, syncBytes = 0;
    for (const i of idx) {
      const tps = 1e6 / T[i];
      if (workers[i].profile.access !== 'native') countedTxns += tps; // native procs' transactions are not counted
      bytes += tps * logPerTxn[i];
      if (waitsForFlush[i]) {
        waitingCommits += tps;
        syncBytes += tps * logPerTxn[i];
      }
    }
    const flushing = idx.filter((i) => waitsForFlush[i]).length;
    const group = 1 + 0.7 * Math.max(0, flushing - 1);
    const syncFlushes = waitingCommits / group;
    const lazyFlushes = (bytes - syncBytes) / DD_FLUSH_BYTES;
    const flushes = syncFlushes + lazyFlushes;
    const bytesPerFlush = flushes > 0 ? bytes / flushes : 0;
    const latencyMs = (WRITE_LATENCY_US + bytesPerFlush / LOG_BANDWIDTH_BYTES_PER_US) / 1000;
    inFlight += flushes * latencyMs / 1000;
    out.databases.set(db, {
      transactions: countedTxns,
      writeTransactions: countedTxns,
      logFlushes: flushes,
      logBytes: bytes,
      flushWaits: waitingCommits,
      flushWaitMs: (waitingCommits * commitWait) / 1000,
      flushWriteMs: flushes * latencyMs,
      bytesPerFlush,
    });
    if (waitingCommits > 0) {
      addWait(out.waits, 'WRITELOG', waitingCommits, (waitingCommits * commitWait) / 1000, waitingCommits * 0.004, 12);
    }
    if (lazyFlushes > 0) addWait(out.waits, 'WRITELOG', lazyFlushes * 0.002, lazyFlushes * 0.002 * 0.3, 0, 4);
    // LOGFLUSHQ: taken to queue each flush; seed 002 lists it third with a dedicated log writer core.
    addSpin('LOGFLUSHQ', flushes * 30 * f * 0.2, 90);
  }
  out.pendingLogIo = inFlight;

  // Sequence latch (R8): time spent queued on METADATA_SEQUENCE_GENERATOR shows as LATCH_SH waits.
  const si = RESOURCES.indexOf('SEQUENCE');
  let seqAcq = 0;
  workers.forEach((w, i) => (seqAcq += (acquisitions(w.profile, 'SEQUENCE') * 1e6) / T[i]));
  if (seqAcq > 0) {
    const waits = seqAcq * rho[si];
    const ms = (seqAcq * W[si]) / 1000;
    const maxMs = 2 + 40 * rho[si] * (1 + 0.05 * n);
    addWait(out.latches, 'METADATA_SEQUENCE_GENERATOR', waits, ms, 0, maxMs);
    addWait(out.waits, 'LATCH_SH', waits * 0.9, ms * 0.9, waits * 0.9 * 0.002, maxMs);
    addWait(out.waits, 'LATCH_EX', waits * 0.1, ms * 0.1, waits * 0.1 * 0.002, maxMs);
  }

  // R10 (not from a seed; the textbook last-page insert): disk-engine inserts into one table share its last page, so
  // with more than one inserter some latch it while another holds it: BUFFER latch waits and PAGELATCH_EX waits,
  // growing with the inserters. Small beside the spinlocks; it keeps the latch charts of a plain insert load alive.
  const inserters = workers.map((w, i) => ({ w, i })).filter(({ w }) => w.profile.engine === 'disk' && w.profile.operation === 'insert');
  if (inserters.length > 1) {
    let rows = 0;
    for (const { w, i } of inserters) rows += (w.profile.rowsPerTxn * 1e6) / T[i];
    const waits = rows * 0.0005 * (inserters.length - 1);
    addWait(out.latches, 'BUFFER', waits, waits * 0.02, 0, 1 + 0.2 * inserters.length);
    addWait(out.waits, 'PAGELATCH_EX', waits, waits * 0.02, waits * 0.002, 1 + 0.2 * inserters.length);
  }

  // SOS_SCHEDULER_YIELD (R8): a busy task yields every 4 ms quantum; sharing a scheduler adds signal wait.
  for (const [cpu, list] of perCpu) {
    const busyMs = out.cpuBusyMs.get(cpu) ?? 0;
    const yields = busyMs / 4;
    const queued = list.length - 1;
    const signal = yields * (0.02 + 4 * queued);
    addWait(out.waits, 'SOS_SCHEDULER_YIELD', yields, signal, signal, 4 + 4 * queued);
  }
  return out;
}

function addWait(map: Map<string, WaitRate>, name: string, count: number, ms: number, signalMs: number, maxMs: number) {
  const prev = map.get(name) ?? { count: 0, ms: 0, signalMs: 0, maxMs: 0 };
  prev.count += count;
  prev.ms += ms;
  prev.signalMs += signalMs;
  prev.maxMs = Math.max(prev.maxMs, maxMs);
  map.set(name, prev);
}

/** R9: relative noise of a workload's throughput per sampling step. */
export function noiseAmplitude(p: WorkloadProfile): number {
  return p.engine === 'xtp' ? 0.08 : 0.02;
}

/** Aggregate rows/s of a set of workers (helper for tests and the CLI banner). */
export function totalRowsPerSec(r: Rates): number {
  let s = 0;
  for (const w of r.workers.values()) s += w.rowsPerSec;
  return s;
}
