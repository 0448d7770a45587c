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
import {
  acquisitions,
  costOf,
  DD_FLUSH_BYTES,
  holdTime,
  HT_PENALTY,
  LOG_BANDWIDTH_BYTES_PER_US,
  LW_COMMITS_PER_SEC,
  remoteSpinRatio,
  RESOURCES,
  RPC_CALL_CPU_US,
  slotCpu,
  SPIN_BASE,
  SPIN_FLOOR,
  SPIN_MAX_LOAD,
  SPIN_QUEUE_GAIN,
  WRITE_LATENCY_US,
} from './contentionCosts';
import type { WorkloadProfile, WorkerInput, ModelContext, WaitRate, Rates } from './contentionTypes';

// The model's types live in contentionTypes.ts; importers of this module keep getting them here.
export type {
  WorkloadProfile,
  WorkerInput,
  ModelContext,
  SpinRate,
  WaitRate,
  WorkerRate,
  Rates,
  DelayedDurability,
} from './contentionTypes';

export function computeRates(workers: WorkerInput[], ctx: ModelContext): Rates {
  const out = emptyRates();
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
  const think = workers.map((w) => Math.max(0, w.thinkUs ?? 0));
  const cpuPerTxn = workers.map(
    (w, i) =>
      costs[i].perRow * w.profile.rowsPerTxn +
      costs[i].perTxn +
      slotCpu(w.profile) * w.profile.rowsPerTxn +
      (w.thinkUs === undefined ? 0 : RPC_CALL_CPU_US),
  );
  // R2: remote workers also burn more CPU per transaction (seed 000: more sampled CPU when not collocated with the
  // log writer, and "some factor" beyond the spinlock making the run longer).
  workers.forEach((w, i) => remote[i] && (cpuPerTxn[i] *= w.profile.engine === 'disk' ? 1.3 : 1.55));
  const logPerTxn = workers.map((w, i) => costs[i].logPerRow * w.profile.rowsPerTxn + costs[i].logPerTxn);
  const waitsForFlush = workers.map((w, i) => w.delayedDurability !== 'FORCED' && logPerTxn[i] > 0);
  // R1: coherency traffic grows with the number of threads running at once (sessions, up to the CPUs they share),
  // much more when they span sockets. Sessions queued behind others on a scheduler add no cache-line traffic.
  const running = perCpu.size;
  const coherency = 1 + (0.0025 + 0.012 * span) * (running - 1);

  // Fixed point over per-transaction time T (us).
  // A client-loop session spends its think time outside the server: T includes it, so its share of every queue and
  // CPU is its duty cycle, and throughput over sessions follows a closed queueing network (rises, then flattens).
  let T = workers.map((_, i) => cpuPerTxn[i] + (waitsForFlush[i] ? 2 * WRITE_LATENCY_US : 0) + think[i]);
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
    capPerUs =
      flushing > 0
        ? LW_COMMITS_PER_SEC / 1e6 / (crowd * (1 + 0.004 * (running - 1) * span) * (1 + 0.3 * Math.min(1, core0Load)))
        : Infinity;
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
      return t + (waitsForFlush[i] ? commitWait : 0) + think[i];
    });
    // Bottleneck law: committers cannot be served faster than the log writer's capacity, so past it every waiting
    // session's transaction stretches (the plateau of R1/R6).
    const commitRate = workers.reduce((s, _, i) => s + (waitsForFlush[i] ? 1 / next[i] : 0), 0);
    if (commitRate > capPerUs) next.forEach((t, i) => waitsForFlush[i] && (next[i] = Math.max(t, (t * commitRate) / capPerUs)));
    let moved = 0;
    T = T.map((t, i) => {
      const v = 0.7 * t + 0.3 * next[i];
      moved = Math.max(moved, Math.abs(v - t) / t);
      return v;
    });
    if (iter > 20 && moved < 1e-9) break; // converged: the client loop recomputes often, so stop early
  }

  // Per-worker throughput and CPU.
  workers.forEach((w, i) => {
    const tps = 1e6 / T[i];
    out.workers.set(w.id, {
      txnsPerSec: tps,
      rowsPerSec: tps * w.profile.rowsPerTxn,
      cpuUtil: Math.min(1, util[i]),
      serviceUs: Math.max(0, T[i] - think[i]),
    });
    out.cpuBusyMs.set(w.cpu, Math.min(1000, (out.cpuBusyMs.get(w.cpu) ?? 0) + 1000 * util[i]));
  });
  for (const [cpu, list] of perCpu) out.runnableByCpu.set(cpu, Math.max(0, list.length - 1));

  // Spins (R2, R3, R4, R7, R8): per acquisition = base x (floor + queue term x placement multipliers). A spinner
  // spins while someone else holds the line, so the queue term is the mean queue an acquirer finds (rho / (1 - rho))
  // among the other sessions ((u - 1) / u). Its rho is the offered load the sessions put on the singleton as if they
  // ran beside the log writer (local hold times, each session's share of time in the server), so it grows smoothly
  // with sessions and with a client loop's duty cycle, and the placement multipliers (R2, R3) show as the seeds'
  // ratios rather than compounding with a longer hold. The floor is the log writer and system tasks.
  const duty = workers.map((_, i) => Math.max(0, T[i] - think[i]) / T[i]);
  const localCpu = workers.map((w, i) => (remote[i] ? cpuPerTxn[i] / (w.profile.engine === 'disk' ? 1.3 : 1.55) : cpuPerTxn[i]));
  const queue = RESOURCES.map((r) => {
    let offered = 0;
    let u = 0;
    workers.forEach((w, i) => {
      const a = acquisitions(w.profile, r);
      if (a === 0) return;
      u++;
      offered += (duty[i] * a * holdTime(r, w.profile, false, span)) / (localCpu[i] + (waitsForFlush[i] ? commitWait : 0));
    });
    if (u === 0) return 0;
    const load = Math.min(SPIN_MAX_LOAD, offered);
    return SPIN_QUEUE_GAIN * ((u - 1) / u) * (load / (1 - load));
  });
  const contention = queue.map((q) => SPIN_FLOOR + q);
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
  RESOURCES.forEach((r, ri) => {
    if (r === 'SEQUENCE') return;
    workers.forEach((w, i) => {
      const acqPerSec = (acquisitions(w.profile, r) * 1e6) / T[i];
      if (acqPerSec === 0) return;
      let perAcq = SPIN_BASE[r] * contention[ri];
      if (r === 'LOGCACHE_ACCESS') {
        perAcq = SPIN_BASE[r] * (1 + (remoteSpinRatio(w.profile) - 1) * remoteFrac) * (SPIN_FLOOR + queue[ri] * core0Mult);
      } else if (r === 'XDESMGR') {
        perAcq *= 1 + 3 * span;
      }
      const name = r === 'CMED' ? 'LOCK_RW_CMED_HASH_SET' : r;
      addSpin(name, acqPerSec * perAcq, 60 + 8 * Math.sqrt(perAcq));
      if (r === 'CMED') addSpin('CMED_HASH_SET', acqPerSec * 0.02 * contention[ri], 40); // the pre-2016 CU2 spinlock, now quiet
    });
  });

  // Log, per database (R6). Queuing a flush touches the log path's lines, contended as LOGCACHE_ACCESS is.
  const logContention = Math.max(SPIN_FLOOR, contention[RESOURCES.indexOf('LOGCACHE_ACCESS')]);
  const dbs = new Set(workers.map((w) => w.database));
  let inFlight = 0;
  for (const db of dbs) {
    const idx = workers.map((w, i) => i).filter((i) => workers[i].database === db);
    let countedTxns = 0,
      bytes = 0,
      waitingCommits = 0,
      syncBytes = 0;
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
    inFlight += (flushes * latencyMs) / 1000;
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
    addSpin('LOGFLUSHQ', flushes * 30 * logContention * 0.2, 90);
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

/** No workload running: every rate zero. */
export function emptyRates(): Rates {
  return {
    workers: new Map(),
    spinlocks: new Map(),
    waits: new Map(),
    latches: new Map(),
    databases: new Map(),
    cpuBusyMs: new Map(),
    runnableByCpu: new Map(),
    pendingLogIo: 0,
  };
}
