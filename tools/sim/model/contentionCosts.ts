// The contention model's constants: what each workload costs in CPU and log, which singletons it takes and how long
// it holds them, and how many spins an acquisition costs (the rules R1-R10 in contention.ts, with their seeds).
import type { WorkloadProfile } from './contentionTypes';

// ---- costs (microseconds) -------------------------------------------------------------------------------------
export interface Cost {
  perRow: number;
  perTxn: number;
  logPerRow: number;
  logPerTxn: number;
}
export function costOf(p: WorkloadProfile): Cost {
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
export function slotCpu(p: WorkloadProfile): number {
  if (p.operation !== 'push') return 0;
  return p.slotSource === 'sequence' ? 1.5 : p.slotSource === 'identity' ? 1.0 : 0;
}

// ---- singleton critical sections --------------------------------------------------------------------------------
export type Resource = 'LOGCACHE_ACCESS' | 'XDESMGR' | 'SEQUENCE' | 'BLOCKER_ENUM' | 'CMED';
export const RESOURCES: Resource[] = ['LOGCACHE_ACCESS', 'XDESMGR', 'SEQUENCE', 'BLOCKER_ENUM', 'CMED'];

/** Acquisitions per transaction. */
export function acquisitions(p: WorkloadProfile, r: Resource): number {
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
export function holdTime(r: Resource, p: WorkloadProfile, remote: boolean, span: number): number {
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
export const SPIN_BASE: Record<Resource, number> = {
  LOGCACHE_ACCESS: 12,
  XDESMGR: 30,
  SEQUENCE: 0, // a latch: it waits, it does not spin
  BLOCKER_ENUM: 14,
  CMED: 2500,
};

/** R2: remote / local spins per acquisition. 12 for interpreted in-memory access is our interpolation, not a seed figure. */
export function remoteSpinRatio(p: WorkloadProfile): number {
  if (p.engine === 'disk') return 4.5;
  return p.access === 'native' ? 59 : 12;
}

// Spins per acquisition = SPIN_BASE x (SPIN_FLOOR + SPIN_QUEUE_GAIN x queue term): calibrated so that ten
// in-memory sessions beside the log writer spin ~4.5 times per row on LOGCACHE_ACCESS, as seed 000 measured
// (113,246,628 spins for 25,000,000 rows); docs/simulator-calibration.md shows every figure beside the posts'.
export const SPIN_FLOOR = 0.05;
export const SPIN_QUEUE_GAIN = 2;
/** Offered load above which the queue term stops growing (the singleton is saturated; spinners back off). */
export const SPIN_MAX_LOAD = 0.9;
export const WRITE_LATENCY_US = 55; // R6: fast flash; with transfer time the average stall comes out near 0.1 ms
export const LOG_BANDWIDTH_BYTES_PER_US = 2000;
export const DD_FLUSH_BYTES = 60 * 1024; // R6: a full log buffer
export const HT_PENALTY = 0.38;
export const LW_COMMITS_PER_SEC = 250_000; // a core running two busy hyperthreads gives ~1.24x one thread
// One RPC call as the server sees it: unpack the request, look up the cached plan, run the procedure's preamble and
// send the result back. A client loop pays it per transaction; a server loop once per run.
export const RPC_CALL_CPU_US = 20;
