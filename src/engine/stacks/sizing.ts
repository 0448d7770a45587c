// How the capture's event session is sized and bounded. One buffer set (MEMORY_PARTITION_MODE = NONE, 4 MB) serves
// every CPU: on a box of 128 to 256 CPUs under load its buffers fill faster than they are dispatched and events are
// dropped. The SQLCAT whitepaper ("Diagnose and resolve spinlock contention on SQL Server") captures with
// MEMORY_PARTITION_MODE = PER_NODE and MAX_MEMORY = 50 MB on an 8-node box; Ignacio Alonso's example uses PER_CPU and
// 256 MB. CREATE EVENT SESSION's docs: a partitioned session has more buffers and more memory, and avoids contention on
// larger machines. So: one set while few CPUs share it, one per NUMA node while nodes are small, else one per CPU,
// with MAX_MEMORY scaled to the number of sets and capped far below the docs' 2 GB.
import type { DbSession } from '../../db/client';
import { num } from '../../db/rows';
import type { ServerIdentity } from '../../shared/types';
import type { StackSessionOptions, XePartition } from '../../shared/stacks';

/** CPUs one buffer set serves before it is split (the whitepaper's nodes: 8 cores, 16 logical CPUs). */
export const CPUS_PER_BUFFER_SET = 16;
const MB = 1024;
/** Per NUMA node: the whitepaper's 50 MB over 8 nodes, rounded. */
export const KB_PER_NODE = 6 * MB;
export const KB_PER_CPU = 1 * MB;
export const MIN_KB = 4 * MB;
export const MAX_KB = 256 * MB;
/** MAX_DURATION's documented maximum, in seconds. */
export const MAX_DURATION_LIMIT_S = 2_147_483;
/** How much longer than the capture the session may live on its own: the target is read about a second after the end. */
export const MAX_DURATION_MARGIN_S = 30;

export interface BufferTopology {
  /** CPUs that run user work (schedulers VISIBLE ONLINE). */
  cpus: number;
  /** The NUMA nodes those CPUs sit on. */
  numaNodes: number;
}

export interface SessionSizing {
  partition: XePartition;
  maxMemoryKb: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The partition mode and MAX_MEMORY for a server of this shape (null: shape unknown, the documented defaults). */
export function sessionSizing(t: BufferTopology | null): SessionSizing {
  if (!t || t.cpus <= CPUS_PER_BUFFER_SET) return { partition: 'NONE', maxMemoryKb: MIN_KB };
  const nodes = Math.max(1, t.numaNodes);
  if (nodes > 1 && t.cpus / nodes <= CPUS_PER_BUFFER_SET)
    return { partition: 'PER_NODE', maxMemoryKb: clamp(nodes * KB_PER_NODE, 2 * MIN_KB, MAX_KB) };
  return { partition: 'PER_CPU', maxMemoryKb: clamp(t.cpus * KB_PER_CPU, 4 * MIN_KB, MAX_KB) };
}

/**
 * Whether the server takes MAX_DURATION. CREATE EVENT SESSION's docs: SQL Server 2025 (17.x) and later, Azure SQL
 * Database, and Azure SQL Managed Instance with the Always-up-to-date update policy. A Managed Instance's product
 * version (12.x) says nothing about its update policy, which this login cannot read: there the caller decides
 * (`managedInstanceHasIt`), and without it the option is left out.
 */
export function supportsMaxDuration(
  identity: Pick<ServerIdentity, 'majorVersion' | 'engineEdition'>,
  managedInstanceHasIt?: boolean,
): boolean {
  if (identity.engineEdition === 8) return managedInstanceHasIt === true;
  return identity.majorVersion >= 17;
}

/** MAX_DURATION for a capture of `durationMs`: a little longer, so the session outlives the read but not a dead client. */
export function maxDurationSeconds(durationMs: number): number {
  return Math.min(MAX_DURATION_LIMIT_S, Math.ceil(durationMs / 1000) + MAX_DURATION_MARGIN_S);
}

/** The CPUs and nodes from sql/xe/cpus.sql; null when they could not be read (the session then gets the defaults). */
export async function readBufferTopology(db: DbSession): Promise<BufferTopology | null> {
  try {
    const [rows = []] = await db.runFile('xe/cpus');
    if (!rows.length) return null;
    return { cpus: rows.length, numaNodes: new Set(rows.map((r) => num(r.parent_node_id))).size };
  } catch {
    return null;
  }
}

/** What is recorded with the capture. */
export function sessionOptions(s: SessionSizing, t: BufferTopology | null, maxDurationS: number | null): StackSessionOptions {
  return {
    partition: s.partition,
    maxMemoryKb: s.maxMemoryKb,
    retention: 'ALLOW_SINGLE_EVENT_LOSS',
    dispatchLatencyS: 1,
    maxDurationS,
    cpus: t?.cpus ?? null,
    numaNodes: t?.numaNodes ?? null,
    regularBuffers: null,
    regularBufferBytes: null,
  };
}
