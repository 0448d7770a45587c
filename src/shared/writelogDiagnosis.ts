// The WRITELOG diagnosis of Chris Adkin's WRITELOG post (src/shared/posts.ts): the numbers it reasons with, side by side with the figures it names, and a
// verdict computed from them. Its argument: when the average WRITELOG wait is well above the average write stall of
// the log file, commits are waiting on something beyond the storage (the log writer's queue, or getting log records
// into the log buffer); when the log file's pending I/O sits at the log writer's limit of outstanding writes, the
// queue is saturated. Pure: no DOM, no Node.
import type { RunTotals, Tick } from './experiment';
import { othersBusy, shareText, type OwnShare } from './ownShare';

/** Outstanding log writes the log writer allows (the WRITELOG post, as corrected there): 32 up to 2008 R2, 112 from 2012 (11.x). */
export function logWriterQueueLimit(majorVersion: number | null): number {
  return majorVersion !== null && majorVersion > 0 && majorVersion <= 10 ? 32 : 112;
}

/** What the WRITELOG post measured on its flash card at about 500,000 inserts/s, 2 rows per transaction. */
export const WRITELOG_POST_REFERENCE = {
  logFlushesPerSec: 15_000,
  logBytesPerSec: 100 * 1024 * 1024,
  avgWriteStallMs: 0.1,
} as const;

/** WRITELOG wait above this many times the write stall counts as "well above" (the WRITELOG post's mind map question). */
export const WAIT_OVER_STALL_RATIO = 1.5;
/** Fewer WRITELOG waits than this per transaction: commits do not wait for the log (delayed durability). */
export const RARE_WAITS_PER_COMMIT = 0.05;
/** Share of samples at the queue limit that counts as "consistently" at it. */
export const AT_LIMIT_SHARE = 0.8;

export interface DiagnosisLine {
  key: 'logFlushes' | 'logBytes' | 'waitVsStall' | 'pendingLogIo';
  label: string;
  /** The run's figures, formatted by the view. */
  values: Record<string, number | null>;
  /** The figure the WRITELOG post names for this line, in words. */
  threshold: string;
  verdict: string;
  /** attention: the numbers point at this line; ok: they do not; info: a figure beside the post's, not a sign either way; unknown: not enough data. */
  flag: 'attention' | 'ok' | 'info' | 'unknown';
}

export interface WritelogDiagnosis {
  lines: DiagnosisLine[];
  /** The lines that need attention, as one sentence; or that none does. */
  summary: string;
}

export interface WritelogInput {
  totals: Pick<RunTotals, 'elapsedMs' | 'rows' | 'transactions' | 'waits' | 'logFlushes' | 'logBytesFlushed'>;
  timeline: readonly Pick<Tick, 'log' | 'pendingLogIo'>[];
  majorVersion: number | null;
  /** The workload's own share of the server's work: with others busy, the signs are the server's, not the workload's. */
  share?: OwnShare | null;
}

function n(v: number, digits = 0): string {
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** Average write stall of the log file over a run: each sample's average weighted by that sample's flushes. */
export function averageWriteStallMs(timeline: WritelogInput['timeline']): number | null {
  let weight = 0;
  let sum = 0;
  for (const t of timeline) {
    if (t.log.avgWriteStallMs === null) continue;
    const w = Math.max(t.log.flushes, 0);
    weight += w;
    sum += w * t.log.avgWriteStallMs;
  }
  return weight > 0 ? sum / weight : null;
}

export function diagnoseWritelog(input: WritelogInput): WritelogDiagnosis {
  const { totals, timeline } = input;
  const sec = totals.elapsedMs / 1000;
  const lines: DiagnosisLine[] = [];

  const flushesPerSec = sec > 0 ? totals.logFlushes / sec : null;
  const flushesPerRow = totals.rows > 0 ? totals.logFlushes / totals.rows : null;
  const flushesPerTxn = totals.transactions > 0 ? totals.logFlushes / totals.transactions : null;
  lines.push({
    key: 'logFlushes',
    label: 'Log flushes',
    values: { perSec: flushesPerSec, perRow: flushesPerRow, perTransaction: flushesPerTxn },
    threshold: `the WRITELOG post: about ${n(WRITELOG_POST_REFERENCE.logFlushesPerSec)}/s at its peak (one flush per commit unless commits are grouped or delayed)`,
    verdict:
      flushesPerSec === null
        ? 'no elapsed time to rate the flushes over'
        : `${n(flushesPerSec)}/s, ${flushesPerSec >= WRITELOG_POST_REFERENCE.logFlushesPerSec ? 'at or above' : `${n((flushesPerSec / WRITELOG_POST_REFERENCE.logFlushesPerSec) * 100)}% of`} the post's rate` +
          (flushesPerTxn !== null
            ? `; ${n(flushesPerTxn, 2)} per transaction${flushesPerTxn < 0.5 ? ' (commits share flushes: grouped or delayed)' : ''}`
            : ''),
    flag: flushesPerSec === null ? 'unknown' : 'info',
  });

  const bytesPerSec = sec > 0 ? totals.logBytesFlushed / sec : null;
  const bytesPerFlush = totals.logFlushes > 0 ? totals.logBytesFlushed / totals.logFlushes : null;
  const mb = (b: number) => b / (1024 * 1024);
  lines.push({
    key: 'logBytes',
    label: 'Log bytes flushed',
    values: { perSec: bytesPerSec, perFlush: bytesPerFlush },
    threshold: `the WRITELOG post: about ${n(mb(WRITELOG_POST_REFERENCE.logBytesPerSec))} MB/s at its peak`,
    verdict:
      bytesPerSec === null
        ? 'no elapsed time to rate the bytes over'
        : `${n(mb(bytesPerSec), 1)} MB/s${bytesPerFlush !== null ? ` in flushes of ${n(bytesPerFlush / 1024, 1)} KB on average` : ''}, ` +
          `${bytesPerSec >= WRITELOG_POST_REFERENCE.logBytesPerSec ? 'at or above' : `${n((bytesPerSec / WRITELOG_POST_REFERENCE.logBytesPerSec) * 100)}% of`} the post's rate`,
    flag: bytesPerSec === null ? 'unknown' : 'info',
  });

  const wl = totals.waits.WRITELOG;
  const avgWait = wl && wl.count > 0 ? wl.waitMs / wl.count : null;
  const stall = averageWriteStallMs(timeline);
  // Waits per commit: under delayed durability a few stragglers wait, which says nothing about the commits.
  const commits = totals.transactions > 0 ? totals.transactions : totals.rows;
  const waitsPerCommit = wl && commits > 0 ? wl.count / commits : null;
  let verdict: string;
  let flag: DiagnosisLine['flag'];
  if (avgWait === null) {
    verdict = 'no WRITELOG waits: commits did not wait for the log (delayed durability, or nothing committed)';
    flag = 'ok';
  } else if (waitsPerCommit !== null && waitsPerCommit < RARE_WAITS_PER_COMMIT) {
    verdict = `WRITELOG waits are rare (${n(waitsPerCommit * 1000, 1)} per 1,000 transactions, ${n(avgWait, 3)} ms each): commits do not wait for the log`;
    flag = 'ok';
  } else if (stall === null || stall === 0) {
    verdict = `average WRITELOG wait ${n(avgWait, 3)} ms; the log file's write stall could not be measured`;
    flag = 'unknown';
  } else {
    const ratio = avgWait / stall;
    flag = ratio >= WAIT_OVER_STALL_RATIO ? 'attention' : 'ok';
    verdict =
      ratio >= WAIT_OVER_STALL_RATIO
        ? `the average WRITELOG wait (${n(avgWait, 3)} ms) is ${n(ratio, 1)}x the log write stall (${n(stall, 3)} ms): commits wait on more than the storage (the log writer's queue, or copying records into the log buffer)`
        : `the average WRITELOG wait (${n(avgWait, 3)} ms) is close to the log write stall (${n(stall, 3)} ms): commits wait on the storage's latency`;
  }
  lines.push({
    key: 'waitVsStall',
    label: 'Average WRITELOG wait vs log write stall',
    values: {
      avgWritelogWaitMs: avgWait,
      avgWriteStallMs: stall,
      ratio: avgWait !== null && stall ? avgWait / stall : null,
      waitsPerTransaction: waitsPerCommit,
    },
    threshold: `the WRITELOG post: a WRITELOG wait above the average log write stall (it measured ${WRITELOG_POST_REFERENCE.avgWriteStallMs} ms) points beyond the storage; here "above" is ${WAIT_OVER_STALL_RATIO}x or more`,
    verdict,
    flag,
  });

  const limit = logWriterQueueLimit(input.majorVersion);
  const pending = timeline.map((t) => t.pendingLogIo);
  const maxPending = pending.length ? Math.max(...pending) : null;
  const meanPending = pending.length ? pending.reduce((s, v) => s + v, 0) / pending.length : null;
  const atLimit = pending.length ? pending.filter((v) => v >= limit).length / pending.length : null;
  lines.push({
    key: 'pendingLogIo',
    label: "Pending log I/O vs the log writer's limit",
    values: { max: maxPending, mean: meanPending, limit, shareAtLimit: atLimit },
    threshold: `the WRITELOG post: consistently ${limit} outstanding log writes (${limit === 32 ? 'SQL Server 2008/2008 R2' : 'SQL Server 2012 and later'}) means the log writer's queue is full`,
    verdict:
      atLimit === null
        ? 'no samples of pending I/O'
        : atLimit >= AT_LIMIT_SHARE
          ? `at the limit of ${limit} in ${n(atLimit * 100)}% of the samples: the log writer's queue is saturated`
          : `at most ${n(maxPending as number)} (mean ${n(meanPending as number, 1)}) of ${limit}: the queue is not the limit`,
    flag: atLimit === null ? 'unknown' : atLimit >= AT_LIMIT_SHARE ? 'attention' : 'ok',
  });

  const attention = lines.filter((l) => l.flag === 'attention');
  const base = attention.length
    ? `Look at: ${attention.map((l) => l.label.toLowerCase()).join('; ')}.`
    : lines.every((l) => l.flag === 'unknown')
      ? 'Not enough data for a diagnosis.'
      : "None of the WRITELOG post's signs of a log bottleneck shows in this run.";
  // WRITELOG waits are server-wide: when other sessions did much of the work, they are mostly theirs.
  const summary = othersBusy(input.share)
    ? `Server-wide: other sessions did a meaningful part of the server's work (the workload's own sessions: ${shareText(input.share)}), so these signs are the server's under their load, not the workload's alone. ${base}`
    : base;
  return { lines, summary };
}
