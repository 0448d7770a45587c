// The Watch mode's ticks as the live charts read them: one RunData (the charts' own model), bounded for hours: past
// WATCH_SCREEN_TICKS the newest half stays at full resolution and everything older is merged in neighbouring pairs
// (each merged tick covers twice the time), so the whole watch stays on the charts in bounded memory (every tick is
// on disk on the host side; a reloaded webview gets the host's recent ticks).
import type { WatchView } from '../../shared/protocol';
import type { WatchTick } from '../../shared/watch';
import { emptyRunTotals } from '../../shared/analysis';
import type { RunData } from './liveRuns';
import { RunTicks } from './runTicks';
import { WatchCompareModel } from './watchCompare';
import { halveWatchTicks } from '../../shared/tickMerge';

/** 10 minutes at 250 ms. */
export const WATCH_SCREEN_TICKS = 2400;

export type WatchChange = { kind: 'none' } | { kind: 'reset' } | { kind: 'ticks'; from: number };

export class WatchModel {
  id: string | null = null;
  run: RunData | null = null;
  last: WatchTick | null = null;
  /** The Watch form: what the user picked before starting, and the mark's name as typed. */
  intervalMs: 1000 | 500 | 250 = 1000;
  markName = '';
  /** The "Compare two windows" form and its last answer. */
  readonly compare = new WatchCompareModel();

  private fresh(ticks: WatchTick[], running: boolean): RunData {
    return {
      index: 0,
      threads: 0,
      status: running ? 'running' : 'completed',
      ticks,
      store: new RunTicks(ticks),
      totals: emptyRunTotals(),
      record: null,
      arm: null,
      derived: null,
      repetition: null,
    };
  }

  /** A state snapshot: a new watch (or a reloaded webview's recent ticks) resets the charts. */
  loadSnapshot(v: WatchView | null | undefined): WatchChange {
    if (!v) return { kind: 'none' };
    const running = v.status === 'starting' || v.status === 'running';
    if (v.id !== this.id || (v.recent.length && !this.run?.ticks.length)) {
      this.id = v.id;
      this.run = this.fresh([...v.recent], running);
      this.last = v.recent.at(-1) ?? null;
      return { kind: 'reset' };
    }
    if (this.run) this.run.status = running ? 'running' : 'completed';
    return { kind: 'none' };
  }

  tick(watchId: string, t: WatchTick): WatchChange {
    if (watchId !== this.id || !this.run) {
      this.id = watchId;
      this.run = this.fresh([t], true);
      this.last = t;
      return { kind: 'reset' };
    }
    this.last = t;
    this.run.ticks.push(t);
    if (this.run.ticks.length > WATCH_SCREEN_TICKS) {
      const ticks = this.run.ticks as WatchTick[];
      const keep = WATCH_SCREEN_TICKS / 2;
      this.run = this.fresh([...halveWatchTicks(ticks.slice(0, -keep)), ...ticks.slice(-keep)], true);
      return { kind: 'reset' };
    }
    return { kind: 'ticks', from: this.run.ticks.length - 1 };
  }
}
