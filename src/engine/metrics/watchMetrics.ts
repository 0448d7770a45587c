// From a watch's ticks to OpenTelemetry instruments: each tick's deltas are added to cumulative counters (a sum that
// only grows, which both Prometheus and OTLP back ends turn into rates), one set of series per watched server.
// The sums are kept here, in series made once with their attributes, and observed (ObservableCounter) only when a
// reader collects (a scrape, an OTLP export): a tick is a few additions, not a hundred attribute sets hashed by the
// SDK, which a fleet of 50 servers at 1 s would pay 5,000 times a second.
// Cardinality is bounded per server and family: the first SERIES_LIMITS names to appear in a tick (a tick holds the
// top 15 by each measure, so these are names that once led) keep a series of their own for the life of the process;
// every other name adds to the series named `other`, computed from the tick's totals of everything, so the family's sum
// stays the server's whole figure. A series, once made, is never renamed (a cumulative sum must not jump).
import type { Attributes, Meter, ObservableResult } from '@opentelemetry/api';
import type { WatchTick } from '../../shared/watch';
import { isBenignWait } from '../../shared/benign';
import { METRICS, OTHER, SERIES_LIMITS, type MetricDef } from './catalog';
import { waitCategory } from './waitCategory';

export interface ServerLabels {
  /** The servers file's name for it: unique in the process. */
  name: string;
  address: string;
  port: number;
}

export type ServerState = 'connecting' | 'up' | 'down';

/** The gauges are observed (state), everything else is a counter fed by ticks. */
type CounterKey = Exclude<keyof typeof METRICS, 'watchUp' | 'watchInterval'>;

/** One series: its attributes, made once, and its sum so far. */
interface Series {
  attrs: Attributes;
  sum: number;
}

/** Names that keep a series of their own: the first `limit` seen; the rest are `other`. */
class StickyNames {
  private readonly named = new Set<string>();
  constructor(private readonly limit: number) {}
  has(name: string): boolean {
    if (this.named.has(name)) return true;
    if (this.named.size >= this.limit) return false;
    this.named.add(name);
    return true;
  }
}

/** One watched server's series. */
export class ServerMetrics {
  state: ServerState = 'connecting';
  intervalS: number;
  ticks = 0;
  private readonly base: Attributes;
  private readonly spinNames = new StickyNames(SERIES_LIMITS.spinlocks);
  private readonly waitNames = new StickyNames(SERIES_LIMITS.waits);
  private readonly latchNames = new StickyNames(SERIES_LIMITS.latches);
  /** Per metric, its series by the name that tells them apart ('' for a metric with the server's attributes only). */
  private readonly series = new Map<CounterKey, Map<string, Series>>();

  constructor(
    readonly labels: ServerLabels,
    intervalMs: number,
  ) {
    this.base = { 'spinlab.server': labels.name, 'server.address': labels.address, 'server.port': labels.port };
    this.intervalS = intervalMs / 1000;
  }

  get attributes(): Attributes {
    return this.base;
  }

  /** Reports every series of one metric that has counted something: called by the SDK when a reader collects. */
  observe(key: CounterKey, r: ObservableResult): void {
    for (const s of this.series.get(key)?.values() ?? []) r.observe(s.sum, s.attrs);
  }

  /** `name` tells the series apart; `extra` (made only for a new series) holds its attributes besides the server's. */
  private add(key: CounterKey, value: number, name = '', extra?: () => Attributes): void {
    // A counter only grows: a negative or non-finite delta (a counter reset the watch already turned into a gap) is
    // dropped, and a series is made by its first positive delta, as the SDK's own counters do.
    if (!(value > 0 && Number.isFinite(value))) return;
    let byName = this.series.get(key);
    if (!byName) this.series.set(key, (byName = new Map()));
    const s = byName.get(name);
    if (s) s.sum += value;
    else byName.set(name, { attrs: extra ? { ...this.base, ...extra() } : this.base, sum: value });
  }

  failure(): void {
    this.add('watchFailures', 1);
  }

  /** One tick of the watch: its deltas, as written to samples.jsonl. */
  tick(t: WatchTick): void {
    this.ticks++;
    this.add('watchTicks', 1);
    if (t.intervalSetMs) this.intervalS = t.intervalSetMs / 1000;
    const rest = { spins: t.all.spins, collisions: t.all.collisions, backoffs: t.all.backoffs, sleepTime: t.all.sleepTime ?? 0 };
    const spin = (name: string) => () => ({ 'sqlserver.spinlock.name': name });
    for (const [name, s] of Object.entries(t.spinlocks)) {
      if (!this.spinNames.has(name)) continue;
      const a = spin(name);
      this.add('spins', s.spins, name, a);
      this.add('collisions', s.collisions, name, a);
      this.add('backoffs', s.backoffs, name, a);
      this.add('sleepTime', s.sleepTime / 1000, name, a);
      rest.spins -= s.spins;
      rest.collisions -= s.collisions;
      rest.backoffs -= s.backoffs;
      rest.sleepTime -= s.sleepTime;
    }
    const other = spin(OTHER);
    this.add('spins', rest.spins, OTHER, other);
    this.add('collisions', rest.collisions, OTHER, other);
    this.add('backoffs', rest.backoffs, OTHER, other);
    this.add('sleepTime', rest.sleepTime / 1000, OTHER, other);

    // Benign waits (idle, background) are not exported; all.waitMs already leaves them out.
    let waitMs = t.all.waitMs;
    let waitCount = t.all.waitCount;
    for (const [type, w] of Object.entries(t.waits)) {
      if (isBenignWait(type) || !this.waitNames.has(type)) continue;
      const a = () => ({ 'wait.type': type, 'wait.category': waitCategory(type) });
      this.add('waitDuration', w.waitMs / 1000, type, a);
      this.add('waitCount', w.count, type, a);
      waitMs -= w.waitMs;
      waitCount -= w.count;
    }
    const otherWait = () => ({ 'wait.type': OTHER, 'wait.category': 'Other' });
    this.add('waitDuration', waitMs / 1000, OTHER, otherWait);
    this.add('waitCount', waitCount, OTHER, otherWait);

    let latchMs = t.all.latchMs;
    let latchCount = t.all.latchCount;
    for (const [cls, l] of Object.entries(t.latches)) {
      if (!this.latchNames.has(cls)) continue;
      const a = () => ({ 'sqlserver.latch.class': cls });
      this.add('latchDuration', l.waitMs / 1000, cls, a);
      this.add('latchCount', l.count, cls, a);
      latchMs -= l.waitMs;
      latchCount -= l.count;
    }
    const otherLatch = () => ({ 'sqlserver.latch.class': OTHER });
    this.add('latchDuration', latchMs / 1000, OTHER, otherLatch);
    this.add('latchCount', latchCount, OTHER, otherLatch);

    this.add('logFlushes', t.log.flushes);
    this.add('logBytes', t.log.bytesFlushed);
    this.add('logFlushWait', t.log.flushWaitTimeMs / 1000);
    let writes = 0;
    let stallMs = 0;
    for (const db of Object.values(t.logByDb ?? {})) {
      writes += db.writes;
      stallMs += db.writes * (db.avgWriteStallMs ?? 0);
    }
    this.add('logWrites', writes);
    this.add('logWriteStall', stallMs / 1000);
    if (t.monitor) {
      this.add('watchCpu', t.monitor.cpuMs / 1000);
      this.add('watchReads', t.monitor.logicalReads);
    }
  }
}

/** The instruments of one process, and the servers it watches. */
export class FleetMetrics {
  private readonly servers = new Map<string, ServerMetrics>();

  constructor(meter: Meter) {
    for (const [key, def] of Object.entries(METRICS) as [keyof typeof METRICS, MetricDef][]) {
      if (def.kind !== 'counter') continue;
      const c = meter.createObservableCounter(def.name, { unit: def.unit, description: def.description });
      c.addCallback((r: ObservableResult) => {
        for (const s of this.servers.values()) s.observe(key as CounterKey, r);
      });
    }
    const up = meter.createObservableGauge(METRICS.watchUp.name, { unit: METRICS.watchUp.unit, description: METRICS.watchUp.description });
    up.addCallback((r: ObservableResult) => {
      for (const s of this.servers.values()) r.observe(s.state === 'up' ? 1 : 0, s.attributes);
    });
    const interval = meter.createObservableGauge(METRICS.watchInterval.name, {
      unit: METRICS.watchInterval.unit,
      description: METRICS.watchInterval.description,
    });
    interval.addCallback((r: ObservableResult) => {
      for (const s of this.servers.values()) r.observe(s.intervalS, s.attributes);
    });
  }

  server(labels: ServerLabels, intervalMs: number): ServerMetrics {
    if (this.servers.has(labels.name)) throw new Error(`two servers are named "${labels.name}"`);
    const s = new ServerMetrics(labels, intervalMs);
    this.servers.set(labels.name, s);
    return s;
  }

  list(): ServerMetrics[] {
    return [...this.servers.values()];
  }
}
