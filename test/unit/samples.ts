// Builders for raw samples used by the deltas and totals tests (not a test file itself: it has no tests).
import type { CounterRow, RawSample, SchedulerSampleRow } from '../../src/shared/types';

export const DB = 'SpinlockLab';

export function counter(object: string, name: string, instance: string, value: number, type: number): CounterRow {
  // Padded as nchar(128) is, so the code under test has to trim.
  return { object: object.padEnd(128), counter: name.padEnd(128), instance: instance.padEnd(128), value, type };
}

export interface SampleSpec {
  msTicks: number;
  cpuTicks?: number;
  startTime?: string;
  spins?: Record<string, number>;
  waits?: Record<string, [count: number, ms: number]>;
  latches?: Record<string, [count: number, ms: number]>;
  transactions?: number;
  writeTransactions?: number;
  batches?: number;
  flushes?: number;
  bytesFlushed?: number;
  flushWaits?: number;
  flushWaitTime?: number;
  logFile?: RawSample['logFile'];
  /** Per scheduler: [nodeId, totalCpuMs, isOnline?]. */
  cpu?: [number, number, boolean?][];
  rows?: Record<string, [inserts: number, updates: number]>;
  pendingLog?: number;
}

export function sample(s: SampleSpec): RawSample {
  const dbRow = (name: string, v: number | undefined) => (v === undefined ? [] : [counter('SQLServer:Databases', name, DB, v, 272696576)]);
  const schedulers: SchedulerSampleRow[] = (s.cpu ?? []).map(([nodeId, totalCpuMs, online], i) => ({
    schedulerId: i,
    cpuId: i,
    nodeId,
    isOnline: online ?? true,
    totalCpuMs,
    runnableTasks: 1,
  }));
  return {
    clientTime: 1_700_000_000_000 + s.msTicks,
    serverTime: new Date(1_700_000_000_000 + s.msTicks).toISOString(),
    msTicks: s.msTicks,
    cpuTicks: s.cpuTicks ?? s.msTicks * 2_400_000,
    startTime: s.startTime ?? '2024-01-01T00:00:00.000Z',
    spinlocks: Object.entries(s.spins ?? {}).map(([name, spins]) => ({
      name,
      spins,
      collisions: Math.floor(spins / 10),
      backoffs: Math.floor(spins / 100),
      sleepTime: 0,
    })),
    waits: Object.entries(s.waits ?? {}).map(([waitType, [count, ms]]) => ({
      waitType,
      waitingTasks: count,
      waitTimeMs: ms,
      maxWaitTimeMs: 5,
      signalWaitTimeMs: Math.floor(ms / 10),
    })),
    latches: Object.entries(s.latches ?? {}).map(([latchClass, [count, ms]]) => ({
      latchClass,
      waitingRequests: count,
      waitTimeMs: ms,
      maxWaitTimeMs: 1,
    })),
    counters: [
      ...dbRow('Transactions/sec', s.transactions),
      ...dbRow('Write Transactions/sec', s.writeTransactions),
      ...dbRow('Log Flushes/sec', s.flushes),
      ...dbRow('Log Bytes Flushed/sec', s.bytesFlushed),
      ...dbRow('Log Flush Waits/sec', s.flushWaits),
      ...dbRow('Log Flush Wait Time', s.flushWaitTime),
      ...(s.batches === undefined ? [] : [counter('MSSQL$LAB:SQL Statistics', 'Batch Requests/sec', '', s.batches, 272696576)]),
      // Another database's counters must never leak into the lab's figures.
      counter('SQLServer:Databases', 'Transactions/sec', 'tempdb', 999_999 + s.msTicks, 272696576),
    ],
    logFile: s.logFile ?? null,
    pendingIo: { total: s.pendingLog ?? 0, log: s.pendingLog ?? 0 },
    schedulers,
    progress: Object.entries(s.rows ?? {}).map(([table, [inserts, updates]]) => ({ table, inserts, updates, deletes: 0 })),
  };
}
