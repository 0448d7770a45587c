// One clock for the timeline of a run or a watch: the client's monotonic clock (performance.now()), anchored once at
// the baseline sample. The server's ms_ticks still gives each interval its length (the rates), but it starts again
// when SQL Server restarts and jumps on a failover to another machine, and the wall clock can be set back: neither
// may move a tick on the timeline, and a reconnect never starts it again.
import { performance } from 'node:perf_hooks';

export function monotonicMs(): number {
  return performance.now();
}

export class Timeline {
  constructor(readonly anchorMs: number) {}

  /** Whole ms from the anchor to a monotonic reading. */
  at(monoMs: number): number {
    return Math.round(monoMs - this.anchorMs);
  }
}
