// The contention model's inputs and outputs (contention.ts computes one from the other): what each running call does
// and where it runs, and the rates of every counter it moves. Synthetic, like the model.
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
  /** Client loop: microseconds per call spent outside the server (the client's own work and the network round
   * trip), measured from the wire. Absent for a server loop, which never leaves the server. */
  thinkUs?: number;
}

export interface ModelContext {
  machine: Machine;
  /** NUMA node whose hidden schedulers run the log writer (0, as on SQL Server 2016+). */
  logWriterNode: number;
}

export interface SpinRate {
  spins: number;
  collisions: number;
  backoffs: number;
  sleepMs: number;
}
export interface WaitRate {
  count: number;
  ms: number;
  signalMs: number;
  maxMs: number;
}
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
export interface WorkerRate {
  rowsPerSec: number;
  txnsPerSec: number;
  cpuUtil: number;
  /** Time in the server per transaction (us): CPU, spins, latch and commit waits; excludes the client's think time. */
  serviceUs: number;
}

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
