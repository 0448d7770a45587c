// An event session's buffers in the simulator: how many sets it gets (MEMORY_PARTITION_MODE: one, one per NUMA node,
// one per CPU), how big they are (MAX_MEMORY over the buffers), and how many of the events fired they drop. Synthetic,
// as every number the simulator serves: a set takes so many events a second, fewer when many CPUs publish into it,
// and what arrives beyond that is dropped (ALLOW_SINGLE_EVENT_LOSS: counted as events; ALLOW_MULTIPLE_EVENT_LOSS: as
// whole buffers; NO_EVENT_LOSS: none dropped, the firing workers wait). The direction follows the docs (CREATE EVENT
// SESSION: partitioned buffers avoid contention on larger machines; sys.dm_xe_sessions: the counters and the buffer
// sizes), not a measurement.

/** Bytes of one sqlos.spinlock_backoff event with its package0.callstack action (a few frames of 8 bytes, a header). */
export const EVENT_BYTES = 512;
/** Regular buffers per set (sys.dm_xe_sessions' docs: "typically three or more buffers per session"). */
export const BUFFERS_PER_SET = 3;
/** CPUs that publish into one set without slowing each other; beyond it a set takes proportionally fewer events. */
export const CPUS_PER_SET = 16;

export interface BufferOptions {
  partition: 'NONE' | 'PER_NODE' | 'PER_CPU';
  maxMemoryBytes: number;
  retention: 'ALLOW_SINGLE_EVENT_LOSS' | 'ALLOW_MULTIPLE_EVENT_LOSS' | 'NO_EVENT_LOSS';
}

export interface BufferShape {
  sets: number;
  cpusPerSet: number;
  regularBuffers: number;
  regularBufferSize: number;
}

/** The buffer sets a session gets on a machine of `cpus` CPUs over `nodes` NUMA nodes. */
export function bufferShape(o: BufferOptions, cpus: number, nodes: number): BufferShape {
  const sets = o.partition === 'PER_CPU' ? cpus : o.partition === 'PER_NODE' ? Math.max(1, nodes) : 1;
  const regularBuffers = sets * BUFFERS_PER_SET;
  return { sets, cpusPerSet: cpus / sets, regularBuffers, regularBufferSize: Math.floor(o.maxMemoryBytes / regularBuffers) };
}

/** Events a second the session's buffers take before they are full. */
export function eventsPerSecond(o: BufferOptions, shape: BufferShape): number {
  const perSet = o.maxMemoryBytes / shape.sets / EVENT_BYTES / Math.max(1, shape.cpusPerSet / CPUS_PER_SET);
  return perSet * shape.sets;
}

export interface Loss {
  events: number;
  buffers: number;
  /** What the retention mode dropped, as events (kept = fired - this). */
  lostEvents: number;
}

/**
 * What `fired` events over `seconds` lose (cumulative; the caller keeps the highest seen, as the counters never fall).
 * The buffers hold a second's worth before the first dispatch, so a burst shorter than that loses nothing.
 */
export function loss(o: BufferOptions, shape: BufferShape, fired: number, seconds: number): Loss {
  const over = Math.max(0, Math.floor(fired - eventsPerSecond(o, shape) * (Math.max(0, seconds) + 1)));
  if (over === 0 || o.retention === 'NO_EVENT_LOSS') return { events: 0, buffers: 0, lostEvents: 0 };
  if (o.retention === 'ALLOW_MULTIPLE_EVENT_LOSS') {
    const perBuffer = Math.max(1, Math.floor(shape.regularBufferSize / EVENT_BYTES));
    const buffers = Math.ceil(over / perBuffer);
    return { events: 0, buffers, lostEvents: Math.min(fired, buffers * perBuffer) };
  }
  return { events: over, buffers: 0, lostEvents: over };
}

/** MAX_MEMORY's text ('4096 KB', '4 MB') in bytes; the documented default (4 MB) when absent. */
export function memoryBytes(v: string | undefined): number {
  if (!v) return 4 * 1024 * 1024;
  const [n, unit] = v.split(' ');
  return Number(n) * 1024 * (unit === 'MB' ? 1024 : 1);
}

/** MAX_DURATION's text ('40 SECONDS', 'UNLIMITED') in milliseconds; null: unlimited or absent. */
export function durationMs(v: string | undefined): number | null {
  if (!v || v === 'UNLIMITED') return null;
  const [n, unit] = v.split(' ');
  return Number(n) * 1000 * ({ SECONDS: 1, MINUTES: 60, HOURS: 3600, DAYS: 86_400 } as Record<string, number>)[unit];
}
