// The runs of the active experiment as the panel has them: rebuilt from a state snapshot (after a reload), then
// grown by runStart / tick / runEnd. A snapshot repeating ticks the panel already has changes nothing, so a state
// message in the middle of a run does not redraw the charts from scratch.
import { addTickToTotals, emptyRunTotals } from '../../shared/analysis';
import type { RunDerived, RunRecord, RunTotals, Tick } from '../../shared/experiment';
import type { ActiveExperimentView, ArmRef, RunTickColumns } from '../../shared/protocol';
import { RunTicks } from './runTicks';

export interface RunData {
  index: number;
  threads: number;
  status: 'running' | RunRecord['status'];
  /** Every tick as objects: decoded from the snapshot's columns when first read (prefer `store` for hours of them). */
  readonly ticks: Tick[];
  /** The ticks as held: a snapshot's columns, then live ticks (runTicks.ts). */
  store: RunTicks;
  /** Folded as ticks arrive (the record's totals once it ended). */
  totals: RunTotals;
  record: RunRecord | null;
  /** The arm the run belongs to (a preset runs several), once known. */
  arm: ArmRef | null;
  /** The run's derived figures once it ended (from its record, or from a snapshot). */
  derived: RunDerived | null;
  /** Which repetition of its arm at its thread count, when the experiment repeats them (null: not said). */
  repetition: number | null;
}

/** A live run as the views name it: "8 threads", with its arm and repetition when the experiment has them. */
export function liveRunName(r: RunData, runs: readonly RunData[]): string {
  const arms = new Set(runs.map((x) => x.arm?.id)).size > 1;
  const repeated = runs.some((x) => (x.repetition ?? 1) > 1);
  return [
    ...(arms && r.arm ? [r.arm.label] : []),
    `${r.threads} thread${r.threads === 1 ? '' : 's'}`,
    ...(repeated && r.repetition !== null ? [`repetition ${r.repetition}`] : []),
  ].join(', ');
}

export type LiveEvent =
  { kind: 'reset' } | { kind: 'run'; index: number } | { kind: 'ticks'; index: number; from: number } | { kind: 'none' };

export class LiveRuns {
  experimentKey: string | null = null;
  readonly runs = new Map<number, RunData>();

  /** The run the live charts follow: the highest index seen. */
  get currentIndex(): number | null {
    let max: number | null = null;
    for (const k of this.runs.keys()) if (max === null || k > max) max = k;
    return max;
  }

  ordered(): RunData[] {
    return [...this.runs.values()].sort((a, b) => a.index - b.index);
  }

  private static keyOf(active: ActiveExperimentView): string {
    return active.experimentId ?? `starting:${active.title}`;
  }

  private ensure(index: number, threads: number): RunData {
    let r = this.runs.get(index);
    if (!r) {
      const store = new RunTicks();
      r = {
        index,
        threads,
        status: 'running',
        store,
        // Decoded only when a view reads the ticks as objects.
        get ticks() {
          return store.all();
        },
        totals: emptyRunTotals(),
        record: null,
        arm: null,
        derived: null,
        repetition: null,
      };
      this.runs.set(index, r);
    }
    return r;
  }

  /**
   * Merges a snapshot; returns what the charts must do. A full snapshot's ticks come as columns (`columns`, checked
   * by the caller) with each run's totals beside them; a run that has ticks already keeps them.
   */
  loadSnapshot(active: ActiveExperimentView | null, columns: readonly RunTickColumns[] = []): LiveEvent[] {
    if (!active) {
      if (this.experimentKey === null) return [];
      this.experimentKey = null;
      this.runs.clear();
      return [{ kind: 'reset' }];
    }
    const key = LiveRuns.keyOf(active);
    const events: LiveEvent[] = [];
    // An id arriving for the experiment that was starting is the same experiment, not a new one.
    const sameStarting = this.experimentKey?.startsWith('starting:') && active.experimentId !== null;
    if (key !== this.experimentKey && !sameStarting) {
      this.runs.clear();
      events.push({ kind: 'reset' });
    }
    this.experimentKey = key;
    for (const lr of active.runs) {
      const known = this.runs.has(lr.index);
      const r = this.ensure(lr.index, lr.threads);
      if (!known) events.push({ kind: 'run', index: lr.index });
      const from = r.store.length;
      const cols = columns.find((c) => c.index === lr.index)?.columns;
      if (cols && from === 0 && cols.length > 0) {
        r.store.load(cols);
        if (!r.record) r.totals = lr.totals ?? r.store.all().reduce(addTickToTotals, emptyRunTotals());
      }
      for (let i = from; i < lr.ticks.length; i++) {
        r.store.push(lr.ticks[i]);
        if (!r.record) addTickToTotals(r.totals, lr.ticks[i]);
      }
      if (r.store.length > from) events.push({ kind: 'ticks', index: lr.index, from });
      if (lr.status !== 'running') r.status = lr.status;
      if (lr.arm) r.arm = lr.arm;
      if (lr.repetition !== undefined) r.repetition = lr.repetition;
      if (lr.derived) r.derived = lr.derived;
    }
    return events;
  }

  runStart(experimentId: string, index: number, threads: number, arm?: ArmRef, repetition?: number): boolean {
    if (!this.accepts(experimentId)) return false;
    const r = this.ensure(index, threads);
    if (arm) r.arm = arm;
    if (repetition !== undefined) r.repetition = repetition;
    return true;
  }

  /** Adds a live tick; false when it belongs to another experiment or repeats one already held. */
  tick(experimentId: string, index: number, tick: Tick): RunData | null {
    if (!this.accepts(experimentId)) return null;
    const r = this.runs.get(index) ?? this.ensure(index, 0);
    const last = r.store.last();
    if (last && tick.t <= last.t) return null;
    r.store.push(tick);
    addTickToTotals(r.totals, tick);
    return r;
  }

  runEnd(experimentId: string, record: RunRecord): RunData | null {
    if (!this.accepts(experimentId)) return null;
    const r = this.ensure(record.index, record.threads);
    r.threads = record.threads;
    r.status = record.status;
    r.record = record;
    r.totals = record.totals;
    r.arm = { id: record.arm.id, label: record.arm.label };
    if (record.repetition !== undefined) r.repetition = record.repetition;
    r.derived = record.derived;
    // The record's timeline is the whole run: take the ticks this panel missed.
    for (let i = r.store.length; i < record.timeline.length; i++) r.store.push(record.timeline[i]);
    return r;
  }

  private accepts(experimentId: string): boolean {
    if (this.experimentKey === null || this.experimentKey.startsWith('starting:')) {
      if (this.experimentKey === null) this.runs.clear();
      this.experimentKey = experimentId;
      return true;
    }
    return this.experimentKey === experimentId;
  }
}
