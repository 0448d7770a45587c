// The workload's own share of the server's work. Spinlock, wait and latch statistics are server-wide: every session
// and the server's own tasks add to them. Each tick the monitor also reads the run's own sessions (their CPU and waits,
// sql/workload/session-share.sql) and the other user requests running, so a run can say how much of what the server
// counted was its own, and a per-row figure is never read as the workload's alone when others were busy.
// One definition, used by the CLI, the panel and the notebook alike.
import { isBenignWait } from './benign';
import type { OwnActivity, OwnReading, OwnShare } from './ownShareTypes';

export type { OwnActivity, OwnReading, OwnShare } from './ownShareTypes';

/** Others did a meaningful part of the work: at least this share of the server's CPU or waits... */
export const OTHERS_SHARE = 0.2;
/** ...and at least this much CPU per second (a twentieth of a CPU), so an idle server's housekeeping is not "others". */
const OTHERS_MIN_CPU_MS_PER_SEC = 50;
/** Below this much server CPU or wait per second there is nothing to share. */
const NOTHING_MS_PER_SEC = 1;
/** Whole-millisecond readings at both ends of a tick: what rounding can put in one. */
const ROUNDING_MS = 2;

/** The tick's own activity from two cumulative readings; null when either is missing. */
export function ownDelta(prev: OwnReading | null | undefined, cur: OwnReading | null | undefined): OwnActivity | null {
  if (!prev || !cur) return null;
  let waitMs = 0;
  for (const [type, ms] of Object.entries(cur.waits)) if (!isBenignWait(type)) waitMs += Math.max(0, ms - (prev.waits[type] ?? 0));
  return { cpuMs: Math.max(0, cur.cpuMs - prev.cpuMs), waitMs, otherRequests: cur.otherRequests };
}

interface ShareTick {
  intervalMs: number;
  cpuMs: number;
  waits: Record<string, { waitMs: number }>;
  own?: OwnActivity | null;
  /** Spinlock Lab's own monitor session in the interval: ours, so never counted as others' work. */
  monitor?: { cpuMs: number } | null;
}

const serverWaitMs = (t: ShareTick): number => Object.entries(t.waits).reduce((s, [type, w]) => (isBenignWait(type) ? s : s + w.waitMs), 0);

/** The run's share over the ticks that carry the sessions' own figures; null when none does. */
export function ownShare(ticks: readonly ShareTick[]): OwnShare | null {
  const withOwn = ticks.filter((t) => t.own);
  if (!withOwn.length) return null;
  let ownCpu = 0;
  let serverCpu = 0;
  let ownWait = 0;
  let serverWait = 0;
  let others = 0;
  let ms = 0;
  for (const t of withOwn) {
    ownCpu += t.own!.cpuMs;
    // The monitor's ticks are Spinlock Lab's, not other sessions': on an idle server they were most of what else ran.
    serverCpu += Math.max(0, t.cpuMs - (t.monitor?.cpuMs ?? 0));
    ownWait += t.own!.waitMs;
    serverWait += serverWaitMs(t);
    others += t.own!.otherRequests;
    ms += t.intervalMs;
  }
  const sec = Math.max(ms / 1000, 1e-9);
  // The figures are whole milliseconds read at each end of every tick: a couple of ms a tick is rounding, not work
  // (in a run of a few ms it would read as hundreds of ms per second).
  const slack = ROUNDING_MS * withOwn.length;
  const ratio = (own: number, all: number) => ((all - slack) / sec < NOTHING_MS_PER_SEC ? null : Math.min(1, own / all));
  return {
    cpu: ratio(ownCpu, serverCpu),
    waits: ratio(ownWait, serverWait),
    otherRequests: others / withOwn.length,
    othersCpuMsPerSec: Math.max(0, serverCpu - ownCpu - slack) / sec,
    ticks: withOwn.length,
    of: ticks.length,
  };
}

/** Others did a meaningful part of the server's work during the run: its per-row figures carry their work too. */
export function othersBusy(s: OwnShare | null | undefined): boolean {
  if (!s) return false;
  const cpuOthers = s.cpu !== null && 1 - s.cpu >= OTHERS_SHARE && s.othersCpuMsPerSec >= OTHERS_MIN_CPU_MS_PER_SEC;
  const waitOthers = s.waits !== null && 1 - s.waits >= OTHERS_SHARE && s.otherRequests >= 0.5;
  return cpuOthers || waitOthers;
}

const pct = (x: number | null): string => (x === null ? 'n/a' : `${Math.round(x * 100)}%`);

/** "96% of the server's CPU, 91% of its waits": the short form beside a figure. */
export function shareText(s: OwnShare | null | undefined): string {
  if (!s) return 'share unknown';
  return `${pct(s.cpu)} of the server's CPU, ${pct(s.waits)} of its waits`;
}

/** The warning a run carries when others were busy, or null. */
export function othersWarning(s: OwnShare | null | undefined): string | null {
  if (!s || !othersBusy(s)) return null;
  const reqs = s.otherRequests >= 0.5 ? ` (${s.otherRequests.toFixed(1)} other requests running on average)` : '';
  return (
    `other sessions did a meaningful part of the server's work during this run${reqs}: the workload's own sessions used ` +
    `${shareText(s)}. Spinlock, wait and latch figures are server-wide, so their figures per row or call include the others' work; ` +
    'read them as the server under this load, not as the workload alone'
  );
}

/** What reading the workload's own sessions needs; without it the share is not read. */
export const SHARE_PERMISSION = 'VIEW SERVER STATE (VIEW SERVER PERFORMANCE STATE on SQL Server 2022+)';
