// The monitor: one connection (in the lab database), one round trip per tick. Each tick is a short sp_execute of
// sql/dmv/sample-delta.sql, prepared once per connection, which returns only the rows that moved since the previous
// tick (the snapshot is kept in the session's #temp tables; snapshot.ts rebuilds the full sets sql/dmv/sample.sql
// returns). Ticks are scheduled against a fixed timeline so they do not drift; a tick never overlaps the previous one.
// A lost connection is reported and re-opened, and the first sample after it is flagged so its interval is marked as
// a gap (its tick is a full snapshot again). Ticks that keep failing fall back (monitorPolicy.ts): to the full query,
// then to a longer interval, said once each; the run or watch records the reconnects and fallbacks (stats).
import { DbSession } from '../db/client';
import type { DbTarget } from '../db/target';
import type { MonitorStats } from '../shared/experiment';
import type { RawSample } from '../shared/types';
import { MonitorPolicy } from './monitorPolicy';
import { DeltaReader, SAMPLE_LAYOUT } from './snapshot';
import { LabCounterNames } from './databaseNames';
import { monotonicMs } from './clock';
import { parseSample } from './sampleRows';

export interface SampleEvent<T = RawSample> {
  sample: T;
  /** True when this sample follows a lost monitor connection: the interval before it spans a gap. */
  afterGap: boolean;
  /** Bytes the driver returned for this tick are not visible through mssql; round-trip time is. */
  roundTripMs: number;
  /**
   * When the sample arrived, and when it was asked for (a reconnect included), on the monotonic clock (clock.ts): the
   * one clock a timeline is drawn on. The server read its counters between the two.
   */
  atMs: number;
  sentAtMs: number;
  /** What came between this sample and the previous one, when the monitor lost its connection or ticks failed. */
  outage?: Outage;
}

/** A stretch without samples: the connection lost, or ticks that failed, between two samples. */
export interface Outage {
  /** The previous sample's arrival (monotonic ms); null before the first. */
  sinceAtMs: number | null;
  /** The monitor connection was lost (dropped, reset, refused), not only a statement that failed on it. */
  connectionLost: boolean;
  /** Tick slots that failed in it. */
  failedTicks: number;
  /** The first failure's message, or null when the loss was only seen at the next request. */
  firstError: string | null;
}

const CONNECTION_ERROR =
  /ECONNREFUSED|ECONNRESET|ECONNCLOSED|ESOCKET|ETIMEOUT|EPIPE|socket hang up|connection (was )?lost|connection is closed|Failed to connect|LoggedIn state/i;

export interface SamplerOptions<T = RawSample> {
  target: DbTarget;
  /** The database the monitor connection opens in (the lab database; master for a watch). */
  labDatabase: string;
  intervalMs: number;
  onSample: (e: SampleEvent<T>) => void;
  onProblem: (message: string) => void;
  /** One tick's round trip and its parsing; default: sql/dmv/sample-delta for the lab database. */
  read?: (db: DbSession) => Promise<T>;
  /**
   * The full query that replaces `read` after repeated failures, and its file id (default with the default read:
   * sql/dmv/sample); none when `read` already reads in full.
   */
  readFull?: { file: string; read: (db: DbSession) => Promise<T> };
  appName?: string;
}

/** The whole picture every tick (sql/dmv/sample.sql as one batch): the bench's comparison, and what notebooks run. */
export function readFullSample(labDatabase: string): (db: DbSession) => Promise<RawSample> {
  const names = new LabCounterNames(labDatabase);
  return async (db) => {
    const sample = parseSample(await db.runFile('dmv/sample', await names.params(db)), Date.now());
    names.rename(sample.counters);
    return sample;
  };
}

/** Only what moved (sql/dmv/sample-delta.sql), rebuilt into the full picture; one reader per monitor connection. */
export function readDeltaSample(
  labDatabase: string,
  onProblem: (message: string) => void = () => undefined,
): (db: DbSession) => Promise<RawSample> {
  const reader = new DeltaReader('dmv/sample-delta', SAMPLE_LAYOUT, 'dmv/sample', onProblem);
  const names = new LabCounterNames(labDatabase);
  return async (db) => {
    const sample = parseSample((await reader.read(db, await names.params(db))).sets, Date.now());
    names.rename(sample.counters);
    return sample;
  };
}

export class Sampler<T = RawSample> {
  private db: DbSession | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Closed for good: nothing (a late timer, a caller's stray start) opens a connection or ticks again. */
  private closed = false;
  private pendingGap = false;
  private running: Promise<void> | undefined;
  /** The next tick's slot, and the last slot a finishing watch takes, on the monotonic clock. */
  private nextAt = 0;
  private lastDueAt = Infinity;
  private lostSeen = 0;
  private warnedSlow = false;
  private opened = false;
  private lastAtMs: number | null = null;
  private outage: Outage | null = null;

  private readonly read: (db: DbSession) => Promise<T>;
  private readonly readFull: SamplerOptions<T>['readFull'];
  private readonly policy: MonitorPolicy;

  constructor(private readonly opts: SamplerOptions<T>) {
    this.read = opts.read ?? (readDeltaSample(opts.labDatabase, (m) => opts.onProblem(m)) as unknown as (db: DbSession) => Promise<T>);
    this.readFull =
      opts.readFull ??
      (opts.read ? undefined : { file: 'dmv/sample', read: readFullSample(opts.labDatabase) as unknown as (db: DbSession) => Promise<T> });
    this.policy = new MonitorPolicy(opts.intervalMs, this.readFull?.file ?? null);
  }

  /** Reconnects, failed ticks and fallbacks so far. */
  get stats(): MonitorStats {
    return { ...this.policy.stats };
  }

  private async connection(): Promise<DbSession> {
    if (this.db && this.db.connectionsLost > this.lostSeen) {
      // Dropped between two ticks: the driver opens a new connection on the next request without a word, so say it
      // (once per run) here, and mark the interval it ends, which spans the reconnect.
      this.lostSeen = this.db.connectionsLost;
      this.pendingGap = true;
      this.policy.reconnected();
      this.noteOutage(true, null);
      if (this.policy.firstTime('lost'))
        this.opts.onProblem('the monitor connection was lost between two samples; reconnecting (the time between is marked as a gap)');
    }
    if (!this.db || !this.db.connected) {
      await this.db?.close();
      this.db = undefined;
      if (this.opened) this.policy.reconnected();
      this.opened = true;
      this.db = await DbSession.open(this.opts.target, {
        database: this.opts.labDatabase,
        appName: this.opts.appName ?? 'Spinlock Lab monitor',
      });
      this.lostSeen = 0;
    }
    return this.db;
  }

  private noteOutage(connectionLost: boolean, error: string | null, failed = 0): void {
    const o = (this.outage ??= { sinceAtMs: this.lastAtMs, connectionLost: false, failedTicks: 0, firstError: null });
    o.connectionLost ||= connectionLost;
    o.failedTicks += failed;
    o.firstError ??= error;
  }

  /** The outage under way now (ticks failing, no sample since), or null. */
  get currentOutage(): Outage | null {
    return this.outage ? { ...this.outage } : null;
  }

  /** A new interval from the next tick on (a watch over its cost budget lengthens it). */
  setIntervalMs(ms: number): void {
    this.opts.intervalMs = ms;
    this.policy.setBase(ms);
  }

  /** One sample now (used for baselines); reconnects if needed. */
  async sampleNow(): Promise<SampleEvent<T>> {
    if (this.closed) throw new Error('the sampler is closed');
    const started = Date.now();
    const sentAtMs = monotonicMs();
    const db = await this.connection();
    const sample = this.policy.readFull && this.readFull ? await this.readFull.read(db) : await this.read(db);
    const atMs = monotonicMs();
    const afterGap = this.pendingGap;
    this.pendingGap = false;
    const outage = this.outage ?? undefined;
    this.outage = null;
    this.lastAtMs = atMs;
    return { sample, afterGap, roundTripMs: Date.now() - started, atMs, sentAtMs, ...(outage ? { outage } : {}) };
  }

  /** Connects and runs `ready` (a delta tick's set-up) before the first sample: a watch's clock starts at its request. */
  async connect(ready?: (db: DbSession) => Promise<unknown>): Promise<void> {
    if (this.closed) throw new Error('the sampler is closed');
    await ready?.(await this.connection());
  }

  /** Ticks every intervalMs on a grid from `anchorMs` (monotonic; default now): a watch's ticks on its own clock. */
  start(anchorMs = monotonicMs()): void {
    if (this.closed) return;
    this.stopped = false;
    this.nextAt = anchorMs;
    this.advance();
    this.schedule();
  }

  /**
   * Ticks no more after the slot due at `lastDueMs` (monotonic), which is still taken: fired now if its timer has not
   * (it may fire a moment after the caller's own); a tick in flight is waited for.
   */
  async finish(lastDueMs: number): Promise<void> {
    this.lastDueAt = lastDueMs + 1; // a grid summed interval by interval may land a rounding error past the end
    if (this.timer && !this.stopped && this.nextAt <= this.lastDueAt) {
      clearTimeout(this.timer);
      this.fire();
    }
    while (this.running) await this.running;
    await this.stop();
  }

  /** The next slot after now: overrun slots are skipped, not fired in a burst (backing off, slots are farther apart). */
  private advance(): void {
    const now = monotonicMs();
    do this.nextAt += this.policy.intervalMs;
    while (this.nextAt <= now);
  }

  private schedule(): void {
    if (this.stopped || this.nextAt > this.lastDueAt) return;
    this.timer = setTimeout(() => this.fire(), Math.max(0, this.nextAt - monotonicMs()));
  }

  private fire(): void {
    this.timer = undefined;
    this.running = this.tick().finally(() => {
      this.running = undefined;
      this.advance();
      this.schedule();
    });
  }

  private async tick(): Promise<void> {
    try {
      const e = await this.sampleNow();
      if (e.roundTripMs > this.opts.intervalMs && !this.warnedSlow && !this.stopped) {
        this.warnedSlow = true; // once per run: the timeline shows every stretched interval
        this.opts.onProblem(
          `a monitor sample took ${e.roundTripMs} ms, longer than the ${this.opts.intervalMs} ms interval: the server or the network is slow, so ticks come late and their intervals stretch to fit`,
        );
      }
      for (const m of this.policy.succeeded()) this.opts.onProblem(m);
      this.opts.onSample(e);
    } catch (err) {
      if (this.stopped) return;
      this.pendingGap = true;
      const text = err instanceof Error ? err.message : String(err);
      const code = (err as { code?: unknown })?.code;
      this.noteOutage(!this.db?.connected || CONNECTION_ERROR.test(`${text} ${typeof code === 'string' ? code : ''}`), text, 1);
      const action = this.policy.failed(err);
      for (const m of action.messages) this.opts.onProblem(m);
      if (action.reconnect) {
        await this.db?.close();
        this.db = undefined;
      }
    }
  }

  /** Stops ticking and waits for a tick in flight; the connection stays open for a final sample. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
    await this.db?.close();
    this.db = undefined;
  }
}
