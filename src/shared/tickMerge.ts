// Two neighbouring watch ticks as one covering both intervals: what the panel's downsampled history is made of, so
// an 8-hour watch stays on its charts in bounded memory. Deltas add up; rates and percentages are means weighted by
// the time each tick covers; point-in-time lists (requests, waiting tasks) are the later tick's.
import type { WatchDbLog, WatchTick } from './watch';

type Numbers = Record<string, number>;

function sumNamed<T extends object>(a: Record<string, T>, b: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[k] as unknown as Numbers | undefined,
      y = b[k] as unknown as Numbers | undefined;
    if (!x || !y) {
      out[k] = { ...(x ?? y) } as unknown as T;
      continue;
    }
    const m: Numbers = {};
    for (const f of Object.keys(x)) m[f] = (x[f] ?? 0) + (y[f] ?? 0);
    out[k] = m as unknown as T;
  }
  return out;
}

export function mergeWatchTicks(a: WatchTick, b: WatchTick): WatchTick {
  const wa = a.intervalMs,
    wb = b.intervalMs,
    w = wa + wb || 1;
  const mean = (x: number, y: number) => (x * wa + y * wb) / w;
  const meanNamed = (x: Numbers, y: Numbers): Numbers => {
    const m: Numbers = {};
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) m[k] = mean(x[k] ?? 0, y[k] ?? 0);
    return m;
  };
  /** A mean stall weighted by the writes each tick had; null when neither had one. */
  const stall = (x: number | null, xw: number, y: number | null, yw: number): number | null =>
    x === null && y === null ? null : ((x ?? 0) * xw + (y ?? 0) * yw) / (xw + yw || 1);
  const logByDb: Record<string, WatchDbLog> = {};
  for (const db of new Set([...Object.keys(a.logByDb), ...Object.keys(b.logByDb)])) {
    const x = a.logByDb[db],
      y = b.logByDb[db];
    if (!x || !y) {
      logByDb[db] = { ...(x ?? y) };
      continue;
    }
    logByDb[db] = {
      transactions: x.transactions + y.transactions,
      flushes: x.flushes + y.flushes,
      bytesFlushed: x.bytesFlushed + y.bytesFlushed,
      flushWaitTimeMs: x.flushWaitTimeMs + y.flushWaitTimeMs,
      writes: x.writes + y.writes,
      avgWriteStallMs: stall(x.avgWriteStallMs, x.writes, y.avgWriteStallMs, y.writes),
    };
  }
  const merged: WatchTick = {
    ...b,
    t: b.t,
    intervalMs: wa + wb,
    rows: a.rows + b.rows,
    rowsPerSec: mean(a.rowsPerSec, b.rowsPerSec),
    transactions: a.transactions + b.transactions,
    transactionsPerSec: mean(a.transactionsPerSec, b.transactionsPerSec),
    writeTransactionsPerSec: mean(a.writeTransactionsPerSec, b.writeTransactionsPerSec),
    batchRequestsPerSec: mean(a.batchRequestsPerSec, b.batchRequestsPerSec),
    spinlocks: sumNamed(a.spinlocks, b.spinlocks),
    waits: sumNamed(a.waits, b.waits),
    latches: sumNamed(a.latches, b.latches),
    log: {
      flushes: a.log.flushes + b.log.flushes,
      bytesFlushed: a.log.bytesFlushed + b.log.bytesFlushed,
      flushesPerSec: mean(a.log.flushesPerSec, b.log.flushesPerSec),
      bytesFlushedPerSec: mean(a.log.bytesFlushedPerSec, b.log.bytesFlushedPerSec),
      flushWaitsPerSec: mean(a.log.flushWaitsPerSec, b.log.flushWaitsPerSec),
      flushWaitTimeMs: a.log.flushWaitTimeMs + b.log.flushWaitTimeMs,
      avgWriteStallMs: stall(a.log.avgWriteStallMs, a.log.flushes, b.log.avgWriteStallMs, b.log.flushes),
    },
    pendingLogIo: mean(a.pendingLogIo, b.pendingLogIo),
    cpuByNode: meanNamed(a.cpuByNode, b.cpuByNode),
    cpuMs: a.cpuMs + b.cpuMs,
    runnableTasks: mean(a.runnableTasks, b.runnableTasks),
    all: {
      spins: a.all.spins + b.all.spins,
      backoffs: a.all.backoffs + b.all.backoffs,
      collisions: a.all.collisions + b.all.collisions,
      waitMs: a.all.waitMs + b.all.waitMs,
      waitCount: a.all.waitCount + b.all.waitCount,
      latchMs: a.all.latchMs + b.all.latchMs,
      latchCount: a.all.latchCount + b.all.latchCount,
    },
    logByDb,
    cpuByScheduler: meanNamed(a.cpuByScheduler, b.cpuByScheduler),
    pendingIo: mean(a.pendingIo, b.pendingIo),
  };
  if (a.hiddenCpuMs !== undefined || b.hiddenCpuMs !== undefined) merged.hiddenCpuMs = (a.hiddenCpuMs ?? 0) + (b.hiddenCpuMs ?? 0);
  if (a.all.sleepTime !== undefined || b.all.sleepTime !== undefined)
    merged.all.sleepTime = (a.all.sleepTime ?? 0) + (b.all.sleepTime ?? 0);
  if (a.gap || b.gap) merged.gap = true;
  const marks = [...(a.marks ?? []), ...(b.marks ?? [])];
  if (marks.length) merged.marks = marks;
  else delete merged.marks;
  return merged;
}

/** Neighbours merged in pairs (an odd last one kept as it is): half the ticks, the same time covered. */
export function halveWatchTicks(ticks: readonly WatchTick[]): WatchTick[] {
  const out: WatchTick[] = [];
  for (let i = 0; i + 1 < ticks.length; i += 2) out.push(mergeWatchTicks(ticks[i], ticks[i + 1]));
  if (ticks.length % 2) out.push(ticks[ticks.length - 1]);
  return out;
}
