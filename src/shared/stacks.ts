// Spinlock backoff call stacks: what an Extended Events capture of sqlos.spinlock_backoff with the
// package0.callstack action into a histogram target returns, in the form the engine, the CLI, the panel, the
// experiment file and the notebook share. Pure data: no driver, no DOM.

/** One frame as the server gave it: an address as module+offset ("sqlmin.dll+0x1A2B3C"), or a resolved name when
 *  the server could symbolize it (trace flag 3656 with symbols on the server). The simulator's frames say so. */
export interface StackFrame {
  /** The text of the frame exactly as the server returned it. */
  raw: string;
  module: string | null;
  offset: string | null;
  /** Function name when the server resolved it; null for an address. */
  symbol: string | null;
}

/** One histogram bucket: a distinct call stack and how many backoff events it took. */
export interface StackBucket {
  count: number;
  /** Share of all counted events in this capture, 0..1. */
  share: number;
  /** Innermost frame first, as package0.callstack lists them. */
  frames: StackFrame[];
}

/** Stacks that share a prefix folded into a tree (outermost frame at the root), for the flame view. */
export interface StackNode {
  frame: string;
  count: number;
  children: StackNode[];
}

export interface StackCapture {
  spinlock: string;
  /** The map_key of the spinlock type in sys.dm_xe_map_values (name = 'spinlock_types'), read at capture time. */
  mapKey: number;
  /** Event session name, owned by Spinlock Lab (starts with 'SpinlockLab_'). */
  session: string;
  startedAt: string;
  durationMs: number;
  /** Backoff events counted by the histogram (sum of bucket counts). */
  events: number;
  /** The DMV's own backoffs delta for the same spinlock over the same window (sys.dm_os_spinlock_stats), to compare. */
  dmvBackoffs: number | null;
  /**
   * Events the session dropped because its buffers were full (sys.dm_xe_sessions.dropped_event_count, read while it
   * ran): fired but never counted in `events`. null: could not be read; absent in captures saved before it was read.
   */
  droppedEvents?: number | null;
  /** Whole buffers the session dropped (sys.dm_xe_sessions.dropped_buffer_count; 0 unless buffers may be dropped). */
  droppedBuffers?: number | null;
  /** How the event session was sized and bounded (absent in captures saved before it was recorded). */
  sessionOptions?: StackSessionOptions;
  /** True when the frames are the simulator's synthetic, labelled frames. */
  simulated: boolean;
  /** Top buckets, largest first. */
  buckets: StackBucket[];
  /** Buckets beyond the top N, summed. */
  otherCount: number;
  tree: StackNode;
  /** Plain words: when the event fired, when it did not and why (e.g. no backoffs, or backoffs the event does not see). */
  notes: string[];
}

export type XePartition = 'NONE' | 'PER_NODE' | 'PER_CPU';

/** The capture's event session options (CREATE EVENT SESSION ... WITH), and the buffers the server gave it. */
export interface StackSessionOptions {
  partition: XePartition;
  maxMemoryKb: number;
  retention: 'ALLOW_SINGLE_EVENT_LOSS';
  dispatchLatencyS: number;
  /** MAX_DURATION in seconds; null: not set (the server does not take it). */
  maxDurationS: number | null;
  /** The CPUs (schedulers VISIBLE ONLINE) and NUMA nodes the sizing was made for; null: not known. */
  cpus: number | null;
  numaNodes: number | null;
  /** sys.dm_xe_sessions.total_regular_buffers and regular_buffer_size (bytes), as the server allotted them. */
  regularBuffers: number | null;
  regularBufferBytes: number | null;
}

/**
 * What the session lost, in one line for every view (CLI, notebook, panel): "2547 events and 0 buffers dropped
 * (sys.dm_xe_sessions; MEMORY_PARTITION_MODE = NONE, MAX_MEMORY = 4 MB)". null for a capture saved before the
 * counters were read.
 */
export function lossSummary(c: Pick<StackCapture, 'droppedEvents' | 'droppedBuffers' | 'sessionOptions'>): string | null {
  if (c.droppedEvents === undefined && c.droppedBuffers === undefined) return null;
  const n = (v: number | null | undefined, one: string) =>
    v === null || v === undefined ? `unknown ${one}s` : `${v} ${one}${v === 1 ? '' : 's'}`;
  const o = c.sessionOptions;
  const opts = o
    ? `; MEMORY_PARTITION_MODE = ${o.partition}, MAX_MEMORY = ${o.maxMemoryKb / 1024} MB${o.maxDurationS === null ? '' : `, MAX_DURATION = ${o.maxDurationS} SECONDS`}`
    : '';
  return `${n(c.droppedEvents, 'event')} and ${n(c.droppedBuffers, 'buffer')} dropped for full buffers (sys.dm_xe_sessions${opts})`;
}

/** True when the session is known to have dropped something. */
export function lostAny(c: Pick<StackCapture, 'droppedEvents' | 'droppedBuffers'>): boolean {
  return (c.droppedEvents ?? 0) > 0 || (c.droppedBuffers ?? 0) > 0;
}

/** A frame as every view prints it: the resolved name when there is one, else module+offset, else the raw text. */
export function frameText(f: StackFrame): string {
  if (f.symbol) return f.symbol;
  if (f.module && f.offset) return `${f.module}+${f.offset}`;
  return f.raw;
}

/**
 * Each top stack's name for a summary: its leaf (innermost frame), and where other stacks end at the same leaf, the
 * first caller (counting out from the leaf) that sets it apart from each of them, so no two stacks read the same.
 */
export function stackNames(buckets: readonly Pick<StackBucket, 'frames'>[]): string[] {
  const texts = buckets.map((b) => b.frames.map(frameText));
  return texts.map((t, i) => {
    if (!t.length) return '(no frame)';
    const twins = texts.filter((o, j) => j !== i && o[0] === t[0]);
    if (!twins.length) return t[0];
    // The depth where this stack has parted from every twin: the deepest of the first differences.
    const apart = Math.max(
      ...twins.map((o) => {
        let k = 1;
        while (k < t.length && k < o.length && t[k] === o[k]) k++;
        return k;
      }),
    );
    return apart < t.length ? `${t[0]} via ${t[apart]} (caller ${apart})` : `${t[0]}, ${t.length} frames deep`;
  });
}
