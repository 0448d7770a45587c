// A watch's samples in sequence: each interval between two samples becomes a tick, or a gap when the connection was
// lost, ticks failed, or the server restarted (or its counters were cleared) in it. No delta is taken across a gap
// (the sample after it is the new baseline), so a restart never yields a negative or a huge delta and an outage is
// never averaged into a rate; every tick and gap is placed on one monotonic clock anchored at the first sample, which
// a reconnect or a restarted server (whose ms_ticks starts again) never resets. Pure: no driver, no timers, no files.
import type { WatchGap, WatchGapReason, WatchTick } from '../../shared/watch';
import type { Outage } from '../sampler';
import { Timeline } from '../clock';
import { computeWatchTick, type WatchSample } from './tick';

/** One end of a gap: a sample's arrival on the monotonic clock and on the wall clock. */
interface GapEnd {
  atMs: number;
  wallMs: number;
}

/** Why the interval between two samples cannot be measured, or null when it can (the caller then takes deltas). */
export function gapBetween(
  prev: { startTime: string; msTicks: number },
  cur: { startTime: string; msTicks: number },
  outage: Outage | undefined,
): { reason: WatchGapReason; detail: string } | null {
  if (cur.startTime !== prev.startTime)
    return { reason: 'server-restart', detail: `sqlserver_start_time changed from ${prev.startTime} to ${cur.startTime}` };
  if (cur.msTicks < prev.msTicks)
    return { reason: 'server-restart', detail: `ms_ticks went backwards (${prev.msTicks} -> ${cur.msTicks})` };
  if (!outage) return null;
  return {
    reason: outage.connectionLost ? 'connection-lost' : 'failed-ticks',
    detail: outage.firstError ?? 'the monitor connection was found closed at the next tick',
  };
}

export type WatchStep =
  | { kind: 'tick'; tick: WatchTick; warnings: string[] }
  /** `warning`: what to say besides the gap (a restart, counters cleared), or null. */
  | { kind: 'gap'; gap: WatchGap; warning: string | null }
  | { kind: 'skip'; message: string };

export interface SampleArrival {
  sample: WatchSample;
  /** When it was asked for and when it arrived, on the monotonic clock (clock.ts): the server read it in between. */
  sentAtMs: number;
  atMs: number;
  outage?: Outage;
}

export class WatchSequence {
  readonly timeline: Timeline;
  readonly gaps: WatchGap[] = [];
  private prev: WatchSample;
  private prevEnd: GapEnd;

  // A tick is placed at its sample's arrival; the clock starts when the first sample was asked for, and a gap runs from
  // the arrival of the sample before it to the request of the sample after it. The server read each sample between its
  // request and its arrival, so the ticks' intervals (the server's) and the gaps never add up to more than the watch.
  constructor(
    first: SampleArrival,
    private readonly ctx: { topN: number; nodeOfScheduler: Map<number, number> },
  ) {
    this.timeline = new Timeline(first.sentAtMs);
    this.prev = first.sample;
    this.prevEnd = { atMs: first.atMs, wallMs: first.sample.raw.clientTime };
  }

  /** The arrival of the last sample taken (monotonic ms). */
  get lastAtMs(): number {
    return this.prevEnd.atMs;
  }

  /** The baseline now: the last sample a delta was, or will be, taken from. */
  get baseline(): WatchSample {
    return this.prev;
  }

  next(e: SampleArrival): WatchStep {
    const between = gapBetween(this.prev.raw, e.sample.raw, e.outage);
    const r = between ? null : computeWatchTick(this.prev, e.sample, { startMsTicks: this.prev.raw.msTicks, ...this.ctx });
    if (r?.kind === 'skip') return r; // same ms_ticks: the previous sample stays the baseline
    const from = this.prevEnd;
    const to = { atMs: e.sentAtMs, wallMs: e.sample.raw.clientTime - (e.atMs - e.sentAtMs) };
    this.prev = e.sample;
    this.prevEnd = { atMs: e.atMs, wallMs: e.sample.raw.clientTime };
    if (r?.kind === 'tick') {
      r.tick.t = this.timeline.at(e.atMs);
      return r;
    }
    const why = r ? { reason: r.cause, detail: r.message } : between!;
    const warning = r
      ? r.message
      : why.reason === 'server-restart'
        ? `SQL Server restarted between two samples (${why.detail}): its counters start again from zero, so the watch takes them again from the new values and counts the time between as a gap.`
        : null;
    return { kind: 'gap', gap: this.add(why.reason, from, to, e.outage?.failedTicks ?? 0, why.detail, true), warning };
  }

  /** The watch ended at `atMs`: an outage still under way is a gap to the end, not recovered. */
  end(atMs: number, wallMs: number, open: Outage | null): WatchGap | null {
    if (!open) return null;
    return this.add(
      open.connectionLost ? 'connection-lost' : 'failed-ticks',
      this.prevEnd,
      { atMs, wallMs },
      open.failedTicks,
      open.firstError ?? 'the monitor connection was lost',
      false,
    );
  }

  private add(reason: WatchGapReason, from: GapEnd, to: GapEnd, failedTicks: number, detail: string, recovered: boolean): WatchGap {
    const gap: WatchGap = {
      reason,
      fromT: this.timeline.at(from.atMs),
      toT: this.timeline.at(to.atMs),
      from: new Date(from.wallMs).toISOString(),
      to: new Date(to.wallMs).toISOString(),
      failedTicks,
      detail,
      recovered,
    };
    this.gaps.push(gap);
    return gap;
  }
}
