// A custom workload's headline: what its own sessions did (calls/s, latency, their CPU, reads and waits), apart from
// the server-wide spinlocks and waits, which are every session's. A server-wide figure is divided by the workload's
// calls only when the workload owned the server (its own share of the server's work at or above OWNED_SHARE); below
// it, that figure per call would be mostly other sessions' work. One definition for the CLI, the panel and the notebook.
import { isBenignWait } from './benign';
import type { RunRecord } from './experiment';
import { runFigures } from './analysis';
import { othersBusy, shareText } from './ownShare';
import type { OwnShare } from './ownShareTypes';
import { serverWaitsOverOwnSpan } from './ownWaits';
import { estimate, type FigureEstimate } from './repeats';

/** The workload owned the server: its own sessions did at least this share of the server's CPU (and of its waits). */
export const OWNED_SHARE = 0.9;

/**
 * Whether the workload's sessions did at least OWNED_SHARE of the server's CPU, and of its waits when the server
 * waited at all; false when the share was not read (no permission, an older record): ownership is never assumed.
 */
export function ownedServer(s: OwnShare | null | undefined): boolean {
  if (!s || s.cpu === null) return false;
  return s.cpu >= OWNED_SHARE && (s.waits === null || s.waits >= OWNED_SHARE);
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Why a server-wide figure is not divided by the workload's calls: "n/a: the workload did 26% of the server's CPU, ...". */
export function perCallNa(s: OwnShare | null | undefined): string {
  if (!s) return `n/a: the workload's share of the server's work was not read (per call needs ${pct(OWNED_SHARE)})`;
  return `n/a: the workload did ${shareText(s)} (per call needs ${pct(OWNED_SHARE)})`;
}

/** The run's own share of the server's CPU and waits as a table cell ("13%, 0% (others busy)"), '-' when not read. */
export function shareCell(s: OwnShare | null | undefined): string {
  if (!s) return '-';
  const p = (x: number | null) => (x === null ? '-' : pct(x));
  return `${p(s.cpu)}, ${p(s.waits)}${othersBusy(s) ? ' (others busy)' : ''}`;
}

/** One wait type of the workload's own sessions: ms per second of the span they were read over, and per call. */
export interface OwnWait {
  type: string;
  msPerSec: number;
  msPerCall: number | null;
}

export interface CustomHeadline {
  calls: number;
  callsPerSec: number;
  p50Us: number | null;
  p99Us: number | null;
  /** The workload's own sessions' CPU and logical reads per call (sys.dm_exec_sessions), null when not read. */
  cpuUsPerCall: number | null;
  logicalReadsPerCall: number | null;
  /** The own sessions' waits, benign excluded, largest first; null when they were not read. */
  waits: OwnWait[] | null;
  share: OwnShare | null;
  owned: boolean;
}

type HeadlineRun = Pick<RunRecord, 'threads' | 'status' | 'totals' | 'latency' | 'timeline' | 'steady' | 'derived' | 'rows'> &
  Partial<Pick<RunRecord, 'custom' | 'sessionWaits' | 'share' | 'nativeProcedures'>>;

export function customHeadline(r: HeadlineRun): CustomHeadline {
  const f = runFigures(r);
  const calls = r.custom?.calls ?? f.rows;
  let waits: OwnWait[] | null = null;
  if (r.sessionWaits) {
    const sec = Math.max(serverWaitsOverOwnSpan(r).elapsedMs / 1000, 1e-9);
    waits = Object.entries(r.sessionWaits)
      .filter(([type, w]) => !isBenignWait(type) && w.waitMs > 0)
      .sort((a, b) => b[1].waitMs - a[1].waitMs)
      .map(([type, w]) => ({ type, msPerSec: w.waitMs / sec, msPerCall: calls > 0 ? w.waitMs / calls : null }));
  }
  const serverCpu = r.custom?.perCall.serverCpuSec;
  return {
    calls,
    callsPerSec: f.rowsPerSec,
    p50Us: f.p50Us,
    p99Us: f.p99Us,
    cpuUsPerCall: serverCpu === null || serverCpu === undefined ? null : serverCpu * 1e6,
    logicalReadsPerCall: r.custom?.perCall.logicalReads ?? null,
    waits,
    share: r.share ?? null,
    owned: ownedServer(r.share),
  };
}

/** "ASYNC_NETWORK_IO 1.2 ms/s", the own waits in a line; "none" when they waited on nothing but benign waits. */
export function ownWaitsText(waits: readonly OwnWait[] | null, n = 3, num: (v: number) => string = (v) => v.toFixed(1)): string {
  if (waits === null) return 'not read';
  if (!waits.length) return 'none';
  return waits
    .slice(0, n)
    .map((w) => `${w.type} ${num(w.msPerSec)} ms/s`)
    .join(', ');
}

/**
 * The WRITELOG diagnosis reasons about commits: it is offered for a custom workload only when its own sessions waited
 * on WRITELOG, or when it owned the server; otherwise the server's WRITELOG was other sessions' commits.
 */
export function offersWritelogDiagnosis(r: Partial<Pick<RunRecord, 'sessionWaits' | 'share'>>): boolean {
  return (r.sessionWaits?.WRITELOG?.waitMs ?? 0) > 0 || ownedServer(r.share);
}

/** What is said instead of a WRITELOG diagnosis the workload's own sessions gave no cause for. */
export const WRITELOG_OTHERS =
  "No WRITELOG diagnosis: the workload's own sessions did not wait on WRITELOG; the server-wide WRITELOG waits came from other sessions.";

/** A custom workload at one arm and thread count over its repetitions: each own figure with its interval. */
export interface CustomCell {
  arm: string;
  threads: number;
  n: number;
  callsPerSec: FigureEstimate;
  p50Us: FigureEstimate;
  p99Us: FigureEstimate;
  cpuUsPerCall: FigureEstimate;
  logicalReadsPerCall: FigureEstimate;
  /** The own waits, ms per second averaged over the cell's runs, largest first; null when no run read them. */
  waits: OwnWait[] | null;
  /** Every run of the cell owned the server. */
  owned: boolean;
}

/** The cells of a custom workload's runs, in the order they first ran; the estimates are the CLI's (shared/repeats). */
export function customCells(runs: readonly { arm: string; threads: number; head: CustomHeadline }[]): CustomCell[] {
  const byKey = new Map<string, { arm: string; threads: number; heads: CustomHeadline[] }>();
  for (const r of runs) {
    const key = `${r.arm}\u0000${r.threads}`;
    const c = byKey.get(key) ?? { arm: r.arm, threads: r.threads, heads: [] };
    c.heads.push(r.head);
    byKey.set(key, c);
  }
  return [...byKey.values()].map(({ arm, threads, heads }) => {
    const over = (pick: (h: CustomHeadline) => number | null) => estimate(heads.map(pick).filter((v): v is number => v !== null));
    const read = heads.filter((h) => h.waits);
    let waits: OwnWait[] | null = null;
    if (read.length) {
      const sum = new Map<string, { msPerSec: number; msPerCall: number }>();
      for (const h of read)
        for (const w of h.waits!) {
          const s = sum.get(w.type) ?? { msPerSec: 0, msPerCall: 0 };
          s.msPerSec += w.msPerSec / read.length;
          s.msPerCall += (w.msPerCall ?? 0) / read.length;
          sum.set(w.type, s);
        }
      waits = [...sum].map(([type, s]) => ({ type, ...s })).sort((a, b) => b.msPerSec - a.msPerSec);
    }
    return {
      arm,
      threads,
      n: heads.length,
      callsPerSec: over((h) => h.callsPerSec),
      p50Us: over((h) => h.p50Us),
      p99Us: over((h) => h.p99Us),
      cpuUsPerCall: over((h) => h.cpuUsPerCall),
      logicalReadsPerCall: over((h) => h.logicalReadsPerCall),
      waits,
      owned: heads.every((h) => h.owned),
    };
  });
}
