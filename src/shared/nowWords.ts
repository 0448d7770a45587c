// The Now view in words first: what stands out on the server in the last minute ("LOGCACHE_ACCESS: 1,200,000
// spins/s, 4x its hour's median; the log writer's node 0 is 93% busy"), each with its evidence and next steps, or
// "The server is quiet: ..." naming the thresholds. Every figure is server-wide and per second, with its unit. Pure.
import type { NowFigures, RankedItem } from './nowHistory';
import { guideFor, nextSteps } from './nowSteps';
import type { NowFinding, NowItemView, NowView } from './nowMessages';
import { quantityText } from './units';
import { plainNumber } from './numberText';

/** A spinlock stands out from this many spins/s server-wide ... */
export const SPINS_LOUD = 100_000;
/** ... or from this many when it is at least NOW_RISE_RATIO times its basis (median or the minute before). */
export const SPINS_FLOOR = 10_000;
/** A non-benign wait or a latch class stands out from this many ms of waiting per second. */
export const WAIT_LOUD_MS = 100;
export const LATCH_LOUD_MS = 100;
export const NOW_RISE_RATIO = 4;
/** A NUMA node this busy is "busy" in the words. */
export const NODE_BUSY_PCT = 80;
export const MAX_FINDINGS = 5;

const UNIT = { spinlock: 'spins/s', wait: 'ms/s', latch: 'ms/s' } as const;

/** "14:02:11" on this machine's clock. */
export function clockText(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

function ratioText(r: number): string {
  return `${plainNumber(r, r >= 10 ? 3 : 2)}x`;
}

/** The trend in words, honest about what it was measured against. */
export function trendText(item: RankedItem, f: Pick<NowFigures, 'fullHour' | 'since'>): string {
  const against =
    item.basis === 'median'
      ? f.fullHour
        ? "its hour's median"
        : `its median since ${f.since === null ? 'the first sample' : clockText(f.since)}`
      : 'the minute before';
  switch (item.trend) {
    case 'rising':
    case 'falling':
      return item.ratio === null ? against : `${ratioText(item.ratio)} ${against}`;
    case 'steady':
      return item.ratio === null ? `steady against ${against}` : `steady, ${ratioText(item.ratio)} ${against}`;
    case 'new':
      return `new: ${against} was 0`;
    default:
      return `no trend yet: history since ${f.since === null ? 'now' : clockText(f.since)}`;
  }
}

export function itemView(item: RankedItem, f: NowFigures): NowItemView {
  return {
    kind: item.kind,
    name: item.name,
    perSec: item.perSec,
    unit: UNIT[item.kind],
    backoffsPerSec: item.backoffsPerSec,
    trend: item.trend,
    // In the tables the line under them says since when; a row says only that there is no trend yet.
    trendText: item.trend === 'unknown' ? 'no trend yet' : trendText(item, f),
  };
}

function loudness(item: RankedItem): number {
  const rising = item.ratio !== null && item.ratio >= NOW_RISE_RATIO;
  if (item.kind === 'spinlock') {
    if (item.perSec >= SPINS_LOUD) return item.perSec / SPINS_LOUD;
    return rising && item.perSec >= SPINS_FLOOR ? item.perSec / SPINS_LOUD + 0.5 : 0;
  }
  const loud = item.kind === 'wait' ? WAIT_LOUD_MS : LATCH_LOUD_MS;
  return item.perSec >= loud ? item.perSec / loud : 0;
}

/** The log writer's node and how busy it was, when it is busy (for LOGCACHE_ACCESS and WRITELOG). */
function logWriterClause(item: RankedItem, f: NowFigures, logWriterNode: number | null): string {
  if (logWriterNode === null || (item.name !== 'LOGCACHE_ACCESS' && item.name !== 'WRITELOG')) return '';
  const pct = f.cpuByNode[String(logWriterNode)];
  if (pct === undefined || pct < NODE_BUSY_PCT) return '';
  return `; the log writer's node ${logWriterNode} is busy (${Math.round(pct)}% CPU)`;
}

/** The findings, loudest first (at most MAX_FINDINGS). */
export function findings(f: NowFigures, ctx: { logWriterNode: number | null }): NowFinding[] {
  const all = [...f.spinlocks, ...f.waits, ...f.latches]
    .map((item) => ({ item, loud: loudness(item) }))
    .filter((x) => x.loud > 0)
    .sort((a, b) => b.loud - a.loud);
  const windowWords = f.windowSec >= 59 ? 'the last minute' : `the last ${Math.round(f.windowSec)} s`;
  return all.slice(0, MAX_FINDINGS).map(({ item }) => {
    const g = guideFor(item.kind, item.name);
    const backoffs = item.backoffsPerSec !== null && item.backoffsPerSec > 0 ? ` (${quantityText(item.backoffsPerSec, 'backoffs/s')})` : '';
    const trend = trendText(item, f);
    const text = `${item.name}: ${quantityText(item.perSec, UNIT[item.kind])}${backoffs}, ${trend}${logWriterClause(item, f, ctx.logWriterNode)}`;
    const threshold =
      item.kind === 'spinlock'
        ? `threshold ${quantityText(SPINS_LOUD, 'spins/s')}, or ${quantityText(SPINS_FLOOR, 'spins/s')} at ${NOW_RISE_RATIO}x its trend basis`
        : `threshold ${quantityText(item.kind === 'wait' ? WAIT_LOUD_MS : LATCH_LOUD_MS, 'ms/s')}`;
    const kindWords = item.kind === 'spinlock' ? 'spinlock' : item.kind === 'wait' ? 'wait (benign waits left out)' : 'latch class';
    return {
      key: `${item.kind}:${item.name}`,
      kind: item.kind,
      name: item.name,
      text,
      evidence: `Server-wide ${kindWords} over ${windowWords} (${threshold}).${g ? ` Usually: ${g.means}.` : ''}`,
      steps: nextSteps(item.kind, item.name),
    };
  });
}

/** The sentence when nothing stands out: the thresholds it used and what it looked at. */
export function quietText(f: NowFigures): string {
  const over = f.windowSec >= 59 ? 'in the last minute' : `in the last ${Math.round(f.windowSec)} s`;
  return `The server is quiet: no spinlock above ${quantityText(SPINS_LOUD, 'spins/s')}, no non-benign wait above ${quantityText(WAIT_LOUD_MS, 'ms/s')} and no latch above ${quantityText(LATCH_LOUD_MS, 'ms/s')} ${over}.`;
}

/** Before the first delta. */
export const FIRST_READ_TEXT = 'Reading the server (first figures in about 1 s)';

/** The headline: how many things stand out, or the quiet sentence. */
export function headline(f: NowFigures, found: readonly NowFinding[]): string {
  if (f.windowSec <= 0) return FIRST_READ_TEXT;
  if (!found.length) return quietText(f);
  const names = found.slice(0, 3).map((x) => x.name);
  return `${found.length === 1 ? 'One thing stands out' : `${found.length} things stand out`}: ${names.join(', ')}${found.length > 3 ? ', ...' : ''}.`;
}

/** The whole view from the figures: what the host sends about once a second. */
export function buildNowView(f: NowFigures, ctx: { serverName: string | null; logWriterNode: number | null; now: number }): NowView {
  const found = f.windowSec > 0 ? findings(f, ctx) : [];
  return {
    status: f.windowSec > 0 ? 'live' : 'reading',
    serverName: ctx.serverName,
    headline: headline(f, found),
    findings: found,
    spinlocks: f.spinlocks.map((i) => itemView(i, f)),
    waits: f.waits.map((i) => itemView(i, f)),
    latches: f.latches.map((i) => itemView(i, f)),
    windowSec: f.windowSec,
    since: f.since === null ? null : new Date(f.since).toISOString(),
    fullHour: f.fullHour,
    updatedAt: new Date(ctx.now).toISOString(),
    error: null,
  };
}
