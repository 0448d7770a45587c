// What stands out in a watch: short verdicts computed from the numbers, each naming the threshold it used and the post
// by Chris Adkin it comes from. Honest by construction: a rule whose figures are missing says nothing. Pure.
import { isBenignWait } from './benign';
import type { RunTotals } from './experiment';
import type { Topology } from './types';
import type { WatchTick } from './watch';
import { AT_LIMIT_SHARE, logWriterQueueLimit, WAIT_OVER_STALL_RATIO } from './writelogDiagnosis';
import { thousands } from './numberText';

export const LOGCACHE_SPINS_PER_SEC = 1_000_000;
/** Share of the running requests off the log writer's NUMA node that counts as "the workers are elsewhere". */
export const OFF_NODE_SHARE = 0.5;
export const XDESMGR_SPINS_PER_TXN = 100;
/** A spinlock's backoffs "grow" when the last third of the window has this many times the first third's rate ... */
export const BACKOFF_GROWTH = 2;
/** ... and at least this many backoffs per second. */
export const BACKOFF_MIN_PER_SEC = 100;
/** A wait "jumped" when its recent ms/s is this many times its rate over the whole watch ... */
export const WAIT_JUMP_RATIO = 3;
/** ... and at least this many ms of waiting per second. */
export const WAIT_JUMP_MIN_MS_PER_SEC = 100;

/** The waits of optimized locking's transaction-id (TID) locks: to read, to modify, intent unknown (SQL Server 2025). */
export const OPTIMIZED_LOCKING_WAITS = ['LCK_M_S_XACT_READ', 'LCK_M_S_XACT_MODIFY', 'LCK_M_S_XACT'] as const;

export interface WatchVerdict {
  key: string;
  text: string;
}

const POSTS = {
  numa: '"NUMA, The LOGCACHE_ACCESS Spinlock and The Best Machine for OLTP Workloads" (Chris Adkin)',
  xdesmgr: '"Tuning The XDESMGR Spinlock On A "Big box"" (Chris Adkin)',
  writelog: '"WRITELOG At Scale: Going Beyond "You need faster disks"" (Chris Adkin)',
  ring: '"Ring Buffer Shock Absorb-er Pattern and SQL Server" (Chris Adkin)',
};

const fmt = (v: number) => (Math.abs(v) >= 100 ? thousands(v) : String(Number(v.toPrecision(3))));
const sec = (ticks: readonly WatchTick[]) => ticks.reduce((a, t) => a + t.intervalMs, 0) / 1000;

function rateIn(ticks: readonly WatchTick[], value: (t: WatchTick) => number): number {
  const s = sec(ticks);
  return s > 0 ? ticks.reduce((a, t) => a + value(t), 0) / s : 0;
}

/**
 * @param totals the whole watch (its baseline)
 * @param window the recent ticks at full resolution
 */
export function diagnoseWatch(
  totals: RunTotals,
  window: readonly WatchTick[],
  ctx: { topology: Topology | null; majorVersion: number | null },
): WatchVerdict[] {
  const out: WatchVerdict[] = [];
  if (window.length === 0 || totals.elapsedMs <= 0) return out;
  const spin = (name: string) => rateIn(window, (t) => t.spinlocks[name]?.spins ?? 0);

  const lwNode = ctx.topology?.logWriters.find((l) => l.nodeId !== null)?.nodeId ?? null;
  const logcache = spin('LOGCACHE_ACCESS');
  if (logcache >= LOGCACHE_SPINS_PER_SEC && lwNode !== null) {
    const placed = window.flatMap((t) => t.requests).filter((r) => r.nodeId !== null);
    const off = placed.filter((r) => r.nodeId !== lwNode).length;
    if (placed.length > 0 && off / placed.length >= OFF_NODE_SHARE) {
      out.push({
        key: 'logcache-off-node',
        text: `LOGCACHE_ACCESS spins ${fmt(logcache)}/s with ${Math.round((100 * off) / placed.length)}% of the running requests off the log writer's NUMA node ${lwNode} (thresholds: ${fmt(LOGCACHE_SPINS_PER_SEC)} spins/s, ${OFF_NODE_SHARE * 100}% off the node): workers on the log writer's node spin less, as in ${POSTS.numa}.`,
      });
    }
  }

  const txns = window.reduce((a, t) => a + t.transactions, 0);
  const xdes = window.reduce((a, t) => a + (t.spinlocks.XDESMGR?.spins ?? 0), 0);
  if (txns > 0 && xdes / txns >= XDESMGR_SPINS_PER_TXN) {
    out.push({
      key: 'xdesmgr-per-txn',
      text: `XDESMGR spins ${fmt(xdes / txns)} per transaction (threshold ${XDESMGR_SPINS_PER_TXN}): transaction ids are handed out and destroyed per transaction, so more rows per transaction relieve it, as in ${POSTS.xdesmgr}.`,
    });
  }

  const wl = window.reduce((a, t) => ({ ms: a.ms + (t.waits.WRITELOG?.waitMs ?? 0), n: a.n + (t.waits.WRITELOG?.count ?? 0) }), {
    ms: 0,
    n: 0,
  });
  let stallW = 0,
    stallSum = 0;
  for (const t of window)
    if (t.log.avgWriteStallMs !== null && t.log.flushes > 0) {
      stallW += t.log.flushes;
      stallSum += t.log.avgWriteStallMs * t.log.flushes;
    }
  if (wl.n > 0 && stallW > 0) {
    const avgWait = wl.ms / wl.n;
    const stall = stallSum / stallW;
    out.push(
      avgWait >= WAIT_OVER_STALL_RATIO * stall
        ? {
            key: 'writelog-over-stall',
            text: `WRITELOG averages ${fmt(avgWait)} ms per wait against a log write stall of ${fmt(stall)} ms (threshold: ${WAIT_OVER_STALL_RATIO}x the stall): commits wait on more than the storage (the log writer's queue, getting records into the log buffer), as in ${POSTS.writelog}.`,
          }
        : {
            key: 'writelog-is-storage',
            text: `WRITELOG averages ${fmt(avgWait)} ms per wait, within ${WAIT_OVER_STALL_RATIO}x of the log write stall (${fmt(stall)} ms): the wait follows the log storage.`,
          },
    );
  }

  const limit = logWriterQueueLimit(ctx.majorVersion);
  const atLimit = window.filter((t) => t.pendingLogIo >= AT_LIMIT_SHARE * limit).length;
  if (atLimit > 0) {
    out.push({
      key: 'pending-log-io',
      text: `Pending log I/O reached ${AT_LIMIT_SHARE * 100}% of the log writer's limit of ${limit} outstanding writes in ${atLimit} of ${window.length} ticks: the log writer's queue is near saturation, as in ${POSTS.writelog}.`,
    });
  }

  const seqMs = rateIn(window, (t) => t.latches.METADATA_SEQUENCE_GENERATOR?.waitMs ?? 0);
  if (seqMs > 0) {
    out.push({
      key: 'sequence-latch',
      text: `METADATA_SEQUENCE_GENERATOR latch waits ${fmt(seqMs)} ms/s (threshold: any): sessions queue for NEXT VALUE FOR a sequence; an identity-based slot generator removed it in ${POSTS.ring}.`,
    });
  }

  // Optimized locking (SQL Server 2025, Azure SQL): a writer keeps one lock on its transaction id (TID) instead of its
  // row locks, and a session that needs a row another open transaction modified waits on that TID.
  const tidWaits = OPTIMIZED_LOCKING_WAITS.map((w) => [w, rateIn(window, (t) => t.waits[w]?.waitMs ?? 0)] as const).filter(
    ([, ms]) => ms > 0,
  );
  if (tidWaits.length > 0) {
    const total = tidWaits.reduce((a, [, ms]) => a + ms, 0);
    out.push({
      key: 'optimized-locking-tid',
      text: `Transaction-id lock waits ${fmt(total)} ms/s (${tidWaits.map(([w, ms]) => `${w} ${fmt(ms)}`).join(', ')}; threshold: any): with optimized locking, sessions wait for the transaction that last modified a row to commit, so the open transactions' length, not lock escalation or row locks, decides this wait (Microsoft Learn, "Optimized locking").`,
    });
  }

  const blocker = rateIn(window, (t) => t.spinlocks.BLOCKER_ENUM?.spins ?? 0);
  if (blocker > 0) {
    out.push({
      key: 'blocker-enum',
      text: `BLOCKER_ENUM spins ${fmt(blocker)}/s (threshold: any): interpreted T-SQL reaching memory-optimized tables, which natively compiled procedures avoid, as in ${POSTS.xdesmgr}.`,
    });
  }

  if (window.length >= 6) {
    const third = Math.floor(window.length / 3);
    const first = window.slice(0, third),
      last = window.slice(-third);
    const names = new Set(last.flatMap((t) => Object.keys(t.spinlocks)));
    for (const name of names) {
      const a = rateIn(first, (t) => t.spinlocks[name]?.backoffs ?? 0);
      const b = rateIn(last, (t) => t.spinlocks[name]?.backoffs ?? 0);
      if (b >= BACKOFF_MIN_PER_SEC && b >= BACKOFF_GROWTH * a) {
        out.push({
          key: `backoffs-grow:${name}`,
          text: `${name} backoffs grew from ${fmt(a)}/s to ${fmt(b)}/s across the window (thresholds: ${BACKOFF_GROWTH}x and ${BACKOFF_MIN_PER_SEC}/s): threads give up spinning and sleep more and more often.`,
        });
      }
    }
  }

  // The baseline is the watch before the recent ticks (the whole watch's totals less the recent ticks).
  const recent = window.slice(-Math.max(1, Math.min(30, Math.floor(window.length / 3))));
  const earlierSec = totals.elapsedMs / 1000 - sec(recent);
  if (earlierSec > 0) {
    for (const [name, w] of Object.entries(totals.waits)) {
      if (isBenignWait(name)) continue;
      const recentMs = recent.reduce((a, t) => a + (t.waits[name]?.waitMs ?? 0), 0);
      const base = Math.max(0, w.waitMs - recentMs) / earlierSec;
      const now = recentMs / sec(recent);
      if (now >= WAIT_JUMP_MIN_MS_PER_SEC && now >= WAIT_JUMP_RATIO * base) {
        out.push({
          key: `wait-jump:${name}`,
          text: `${name} jumped to ${fmt(now)} ms/s in the last ${recent.length} ticks against ${fmt(base)} ms/s earlier in the watch (thresholds: ${WAIT_JUMP_RATIO}x and ${WAIT_JUMP_MIN_MS_PER_SEC} ms/s).`,
        });
      }
    }
  }
  return out;
}
