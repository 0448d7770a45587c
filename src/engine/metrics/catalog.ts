// Every metric `spinlab watch` exports, written once: the instruments are made from it, docs/monitoring/metrics.md
// lists it (a test holds the two together), and the dashboard's queries may name only what it yields. Names sit beside
// the OpenTelemetry collector's SQL Server receiver (sqlserver.os.wait.duration with wait.type and wait.category);
// the receiver has no spinlock metrics, so those follow its pattern under sqlserver.spinlock.*.

export type MetricKind = 'counter' | 'gauge';

export interface MetricDef {
  name: string;
  unit: string;
  kind: MetricKind;
  /** Attributes besides the server's own (SERVER_ATTRIBUTES), each on every point of the metric. */
  attributes: string[];
  description: string;
}

/** On every point: which watched server it is (the servers file's name) and where it is. */
export const SERVER_ATTRIBUTES = ['spinlab.server', 'server.address', 'server.port'] as const;

const counter = (name: string, unit: string, attributes: string[], description: string): MetricDef => ({
  name,
  unit,
  kind: 'counter',
  attributes,
  description,
});

const SPIN = ['sqlserver.spinlock.name'];
const WAIT = ['wait.type', 'wait.category'];
const LATCH = ['sqlserver.latch.class'];

export const METRICS = {
  spins: counter('sqlserver.spinlock.spins', '{spins}', SPIN, 'Spins (sys.dm_os_spinlock_stats.spins)'),
  collisions: counter('sqlserver.spinlock.collisions', '{collisions}', SPIN, 'Collisions: a spinlock found held'),
  backoffs: counter('sqlserver.spinlock.backoffs', '{backoffs}', SPIN, 'Backoffs: a spinner yielded after spinning'),
  sleepTime: counter('sqlserver.spinlock.sleep_time', 's', SPIN, 'Time spent sleeping in backoffs'),
  waitDuration: counter('sqlserver.os.wait.duration', 's', WAIT, 'Wait time of non-benign waits (sys.dm_os_wait_stats)'),
  waitCount: counter('sqlserver.os.wait.count', '{waits}', WAIT, 'Completed waits of non-benign wait types'),
  latchDuration: counter('sqlserver.latch.wait.duration', 's', LATCH, 'Latch wait time (sys.dm_os_latch_stats)'),
  latchCount: counter('sqlserver.latch.wait.count', '{waits}', LATCH, 'Latch waits (sys.dm_os_latch_stats)'),
  logFlushes: counter('sqlserver.transaction_log.flushes', '{flushes}', [], 'Log flushes, all databases (Log Flushes/sec)'),
  logBytes: counter('sqlserver.transaction_log.flushed', 'By', [], 'Log bytes flushed, all databases (Log Bytes Flushed/sec)'),
  logWrites: counter('sqlserver.transaction_log.write.count', '{writes}', [], 'Writes to log files (the top 15 databases by log bytes)'),
  logWriteStall: counter('sqlserver.transaction_log.write.stall', 's', [], 'Write stall of those log writes (io_stall_write_ms)'),
  logFlushWait: counter('sqlserver.transaction_log.flush.wait.duration', 's', [], 'Log Flush Wait Time, all databases'),
  watchTicks: counter('spinlab.watch.ticks', '{ticks}', [], 'Ticks the watch took (each a delta over its interval)'),
  watchFailures: counter('spinlab.watch.failures', '{failures}', [], 'Failed connects and failed ticks'),
  watchCpu: counter('spinlab.watch.cpu.time', 's', [], "Server CPU of the watch's own session (its cost)"),
  watchReads: counter('spinlab.watch.logical_reads', '{reads}', [], "Logical reads of the watch's own session"),
  watchUp: {
    name: 'spinlab.watch.up',
    unit: '1',
    kind: 'gauge',
    attributes: [],
    description: 'Whether the server answered its last tick in time: 1 up, 0 down or connecting',
  } as MetricDef,
  watchInterval: {
    name: 'spinlab.watch.interval',
    unit: 's',
    kind: 'gauge',
    attributes: [],
    description: 'The interval the watch ticks at now (longer when over its cost budget)',
  } as MetricDef,
} satisfies Record<string, MetricDef>;

/** The name a Prometheus scrape shows: dots to underscores, counters with _total (the exporter's own rule). */
export function prometheusName(def: MetricDef): string {
  const base = def.name.replace(/[^a-zA-Z0-9_:]/g, '_');
  return def.kind === 'counter' ? `${base}_total` : base;
}

/** Named series per server and metric family; everything else goes to the one series named `other`. */
export const SERIES_LIMITS = { spinlocks: 25, waits: 25, latches: 15 } as const;
export const OTHER = 'other';
