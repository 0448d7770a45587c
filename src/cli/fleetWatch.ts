// One watched server of `spinlab watch --servers`: its own runWatch (its own connection, interval and failure
// handling), started again with a capped exponential back-off whenever it cannot start or ends failed, forever until
// the process stops. Its state (up, connecting, down) is what /healthz and spinlab.watch.up show: up while ticks
// arrive on time, down when none came for three intervals and two seconds, or while it waits to start again.
import * as path from 'node:path';
import { runWatch, type WatchProgress } from '../engine/watch/run';
import type { ServerMetrics } from '../engine/metrics/watchMetrics';
import { describeTarget } from '../db/target';
import { categoryOf } from '../shared/spinlabError';
import type { FleetServer } from './fleetConfig';
import { plural } from '../shared/plural';
import { abortableSleep } from '../shared/abortableSleep';

export const BACKOFF_MS = { first: 1000, max: 60_000 } as const;
/** Ticks kept in memory per server (the watch's window): the rest is on disk and in the exported sums. */
const WINDOW_TICKS = 60;

export interface ServerHealth {
  name: string;
  server: string;
  state: 'up' | 'connecting' | 'down';
  ticks: number;
  lastTickAt: string | null;
  starts: number;
  lastError: string | null;
  outDir: string | null;
}

export interface FleetWatchOptions {
  outRoot: string;
  costBudgetMsPerSec: number;
  topRequests: number;
  textChars: number;
  log: (line: string) => void;
}

/** When the i-th of n servers starts: evenly across its interval (at most 1 s), so the fleet's ticks do not coincide. */
export function staggerMs(i: number, n: number, intervalMs: number): number {
  return n > 1 ? Math.round((i * Math.min(intervalMs, 1000)) / n) : 0;
}

export class ServerWatch {
  private lastTickMs: number | null = null;
  private lastTickAt: string | null = null;
  private waiting = false;
  private starts = 0;
  private lastError: string | null = null;
  private outDir: string | null = null;
  /** The failure last said in full: a retry that fails the same way says one short line instead. */
  private said: string | null = null;
  /** Failed starts in a row; while above 0, the status lines of each retry ("connecting to ...") are not said. */
  private failing = 0;

  constructor(
    readonly server: FleetServer,
    private readonly metrics: ServerMetrics,
    private readonly opts: FleetWatchOptions,
  ) {}

  /** Re-reads the state from the clock: called before every scrape, health check and export. */
  refresh(nowMs = Date.now()): void {
    const staleMs = 3 * this.metrics.intervalS * 1000 + 2000;
    if (this.waiting) this.metrics.state = 'down';
    else if (this.lastTickMs === null) this.metrics.state = this.starts > 1 ? 'down' : 'connecting';
    else this.metrics.state = nowMs - this.lastTickMs <= staleMs ? 'up' : 'down';
  }

  health(): ServerHealth {
    this.refresh();
    return {
      name: this.server.name,
      server: describeTarget(this.server.target),
      state: this.metrics.state,
      ticks: this.metrics.ticks,
      lastTickAt: this.lastTickAt,
      starts: this.starts,
      lastError: this.lastError,
      outDir: this.outDir,
    };
  }

  private onProgress(p: WatchProgress): void {
    const say = (s: string) => this.opts.log(`[${this.server.name}] ${s}`);
    if (p.kind === 'tick') {
      if (this.failing > 0) say(`watching again after ${plural(this.failing, 'failed start')}`);
      this.failing = 0;
      this.said = null;
      this.lastTickMs = Date.now();
      this.lastTickAt = new Date(this.lastTickMs).toISOString();
      this.metrics.tick(p.tick);
    } else if (p.kind === 'gap') {
      for (let i = 0; i < p.gap.failedTicks; i++) this.metrics.failure();
      say(`gap of ${((p.gap.toT - p.gap.fromT) / 1000).toFixed(1)} s: ${p.gap.detail}`);
    } else if (p.kind === 'status') {
      if (this.failing === 0) say(p.message);
    } else if (p.kind === 'event' && p.event.level !== 'info') {
      this.lastError = p.event.message;
      if (this.failing > 0 && p.event.message === this.said) return;
      if (p.event.level === 'error') this.said = p.event.message;
      say(`${p.event.level}: ${p.event.message}`);
    }
  }

  /**
   * Watches until the signal aborts, starting again after every failure. `startAfterMs` spreads a fleet's first
   * connections, and so its ticks' slots, across the interval (staggerMs): 50 servers ticking in the same millisecond
   * would make each wait for the others' replies to be parsed, on the client and on a server they share.
   */
  async run(signal: AbortSignal, startAfterMs = 0): Promise<void> {
    if (startAfterMs > 0) await abortableSleep(startAfterMs, signal);
    let failures = 0;
    while (!signal.aborted) {
      this.starts++;
      this.waiting = false;
      const ticksBefore = this.metrics.ticks;
      this.outDir = path.join(this.opts.outRoot, this.server.name, new Date().toISOString().replace(/[:.]/g, '-'));
      try {
        const { record } = await runWatch(
          {
            target: this.server.target,
            outDir: this.outDir,
            title: `Watch of ${this.server.name}`,
            // Each server its own state folder: `spinlab mark --dir` names the watch a mark is for.
            stateDir: path.join(this.opts.outRoot, this.server.name, 'state'),
            windowTicks: WINDOW_TICKS,
            settings: {
              intervalMs: this.server.intervalMs,
              durationMs: null,
              topRequests: this.opts.topRequests,
              textChars: this.opts.textChars,
              costBudgetMsPerSec: this.opts.costBudgetMsPerSec,
            },
          },
          signal,
          (p) => this.onProgress(p),
        );
        if (record.status === 'failed') this.lastError = record.events.at(-1)?.message ?? 'the watch failed';
      } catch (err) {
        // Its files cannot be written: starting again cannot help, and every server writes under the same folder.
        if (categoryOf(err) === 'files') throw err;
        this.lastError = err instanceof Error ? err.message : String(err);
        if (this.failing === 0 || this.lastError !== this.said) this.opts.log(`[${this.server.name}] cannot watch: ${this.lastError}`);
        this.said = this.lastError;
      }
      if (signal.aborted) break;
      this.metrics.failure();
      failures = this.metrics.ticks > ticksBefore ? 1 : failures + 1;
      const wait = Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** (failures - 1));
      // The same failure again is one line: the error and its fix were said in full the first time.
      const same = this.failing > 0 && this.lastError === this.said;
      this.failing++;
      this.opts.log(
        same
          ? `[${this.server.name}] still cannot watch (the same error, attempt ${this.failing}); starting again in ${wait / 1000} s`
          : `[${this.server.name}] starting again in ${wait / 1000} s`,
      );
      this.waiting = true;
      await abortableSleep(wait, signal);
    }
  }
}
