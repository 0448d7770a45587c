// The run's own workload sessions as the server counts them: CPU, logical reads and waits per session
// (sys.dm_exec_sessions, sys.dm_exec_session_wait_stats, 2016+), read through a short-lived monitor connection at the
// start and end of the measured phase. For custom workloads and built-in scenarios alike; a failure to read is not
// fatal (the run keeps its server-wide figures and says these are missing).
import { DbSession } from '../../db/client';
import type { DbTarget } from '../../db/target';
import { num } from '../../db/rows';
import type { WaitDelta } from '../../shared/experiment';

export interface OwnCounters {
  cpuMs: number;
  logicalReads: number;
  waits: Map<string, WaitDelta>;
}

/** Each session's id, as the session itself reports it. */
export async function sessionIdOf(s: DbSession): Promise<number> {
  const [[row] = []] = await s.runFile('workload/session-id');
  return num(row?.session_id);
}

export async function readOwnCounters(target: DbTarget, ids: number[]): Promise<OwnCounters | null> {
  if (!ids.length) return null;
  const monitor = await DbSession.open(target, { database: 'master', appName: 'Spinlock Lab' }).catch(() => null);
  if (!monitor) return null;
  try {
    const [sessions = [], waits = []] = await monitor.runFile('workload/session-stats', { ids: `,${ids.join(',')},` });
    const c: OwnCounters = { cpuMs: 0, logicalReads: 0, waits: new Map() };
    for (const r of sessions) {
      c.cpuMs += num(r.cpu_time);
      c.logicalReads += num(r.logical_reads);
    }
    for (const r of waits) {
      const w = c.waits.get(String(r.wait_type)) ?? { waitMs: 0, count: 0, signalMs: 0 };
      w.waitMs += num(r.wait_time_ms);
      w.count += num(r.waiting_tasks_count);
      w.signalMs += num(r.signal_wait_time_ms);
      c.waits.set(String(r.wait_type), w);
    }
    return c;
  } catch {
    return null;
  } finally {
    await monitor.close();
  }
}

export function waitDeltas(before: Map<string, WaitDelta>, after: Map<string, WaitDelta>): Record<string, WaitDelta> {
  const out: Record<string, WaitDelta> = {};
  for (const [type, a] of after) {
    const b = before.get(type) ?? { waitMs: 0, count: 0, signalMs: 0 };
    const d = { waitMs: a.waitMs - b.waitMs, count: a.count - b.count, signalMs: a.signalMs - b.signalMs };
    if (d.count > 0 || d.waitMs > 0) out[type] = d;
  }
  return out;
}
