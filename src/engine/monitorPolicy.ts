// What the monitor does when its ticks keep failing, so a failure that repeats every tick never becomes a storm on the
// watched server (a login, a dozen temp-table DDLs and a prepare per tick). A failed delta tick starts again on a new
// connection, as before, but only a few times: after FAILURES_BEFORE_FALLBACK failures in a row the monitor reads the
// full query instead (it keeps nothing in the session and creates nothing); if that fails as often too, it ticks less
// often, doubling the interval up to MAX_BACKOFF_MS, and every tick that succeeds is kept. Each failure is said once
// (identical repeats are counted), each fallback once with its reason; a success after a back-off returns to the
// interval asked for. Pure: no driver, no timers; the Sampler asks it what to do.
import type { MonitorStats } from '../shared/experiment';

export const FAILURES_BEFORE_FALLBACK = 3;
export const MAX_BACKOFF_MS = 60_000;

export interface FailureAction {
  /** Close the connection: the next tick opens a new one (and sets the delta tick up again on it). */
  reconnect: boolean;
  messages: string[];
}

/** Error text without what changes between two occurrences of one failure (handles, spids, times). */
function sameness(text: string): string {
  return text.replace(/\d+/g, '#');
}

export class MonitorPolicy {
  readonly stats: MonitorStats;
  private consecutive = 0;
  private interval: number;
  private readonly said = new Set<string>();

  /**
   * @param fullQuery the file read when the delta tick is given up (null: the monitor already reads in full)
   */
  constructor(
    private baseMs: number,
    private readonly fullQuery: string | null,
  ) {
    this.interval = baseMs;
    this.stats = { reconnects: 0, failedTicks: 0, fallbacks: 0, fullQuery: fullQuery === null, longestIntervalMs: baseMs };
  }

  /**
   * A new interval asked for (a watch over its cost budget lengthens it): taken at once unless the monitor is backing
   * off after failures, which then returns to it.
   */
  setBase(ms: number): void {
    if (this.interval === this.baseMs) this.interval = ms;
    this.baseMs = ms;
    this.stats.longestIntervalMs = Math.max(this.stats.longestIntervalMs, this.interval);
  }

  /** The interval to the next tick now (longer than asked while backing off). */
  get intervalMs(): number {
    return this.interval;
  }

  /** True once the delta tick was given up for the full query. */
  get readFull(): boolean {
    return this.stats.fullQuery;
  }

  /** True the first time `key` is seen: a message keyed by it is said once per run. */
  firstTime(key: string): boolean {
    if (this.said.has(key)) return false;
    this.said.add(key);
    return true;
  }

  failed(err: unknown): FailureAction {
    const text = err instanceof Error ? err.message : String(err);
    this.stats.failedTicks++;
    this.consecutive++;
    const messages: string[] = [];
    // The error in full (with its fix) is said by the first message about it; a fallback's "last:" quotes its first line.
    const last = text.split('\n')[0];
    // A delta tick keeps its snapshot in the session: after a failure it starts again, in full, on a new connection.
    let reconnect = !this.stats.fullQuery;
    if (this.firstTime(`failed:${sameness(text)}`))
      messages.push(`monitor sample failed: ${text}; ${reconnect ? 'reconnecting' : 'trying again at the next tick'}`);
    if (this.consecutive < FAILURES_BEFORE_FALLBACK) return { reconnect, messages };
    if (!this.stats.fullQuery) {
      this.stats.fullQuery = true;
      this.stats.fallbacks++;
      this.consecutive = 0;
      reconnect = true; // a clean session: the full query creates nothing, and the delta tick's #tables go with the old one
      messages.push(
        `the monitor's delta tick failed ${FAILURES_BEFORE_FALLBACK} times in a row (last: ${last}): reading sql/${this.fullQuery}.sql in full every tick from now on, which creates nothing on the server (more bytes per tick, same figures)`,
      );
      return { reconnect, messages };
    }
    const next = Math.min(MAX_BACKOFF_MS, this.interval * 2);
    if (next > this.interval) {
      if (this.interval === this.baseMs) {
        this.stats.fallbacks++;
        messages.push(
          `the monitor's ticks failed ${this.consecutive} times in a row (last: ${last}): ticking less often, every ${next} ms and doubling up to every ${MAX_BACKOFF_MS / 1000} s, until one succeeds; then back to every ${this.baseMs} ms`,
        );
      }
      this.interval = next;
      this.stats.longestIntervalMs = Math.max(this.stats.longestIntervalMs, next);
    }
    return { reconnect, messages };
  }

  /** A tick succeeded: the failures in a row end; after a back-off, the interval asked for again (said once each time). */
  succeeded(): string[] {
    const failed = this.consecutive;
    this.consecutive = 0;
    if (this.interval === this.baseMs) return [];
    this.interval = this.baseMs;
    this.stats.longestIntervalMs = Math.max(this.stats.longestIntervalMs, this.interval);
    return [`the monitor's ticks succeed again${failed ? ` after ${failed} failed in a row` : ''}: back to every ${this.baseMs} ms`];
  }

  /** A new connection was opened after the first one (by the monitor, or by the driver after a loss). */
  reconnected(): void {
    this.stats.reconnects++;
  }
}
