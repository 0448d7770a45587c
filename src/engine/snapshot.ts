// Delta ticks: the monitor's files that return only what moved (sql/dmv/sample-delta, sql/watch/tick-delta) rebuilt
// into the full result sets sql/dmv/sample and sql/watch/tick return, so the parsing and the deltas downstream are
// the same. The server keeps the previous tick's snapshot in the session's #temp tables (sql/dmv/snapshot-setup) and
// returns, for the keyed sets, only rows that are new or changed; here a row that stopped moving keeps its last values.
// The first result set says whether the tick is a full snapshot (the snapshot held 0 ticks: a new connection), which
// replaces everything kept; a reconnect therefore resets itself. Rows a full snapshot would no longer list (a
// database dropped, wait stats cleared to zero) are kept at their last values until the next full snapshot.
import { num, str, type DbSession, type PreparedFile, type Row } from '../db/client';

/** For each keyed result set (its index in the full layout), the columns that identify a row. */
export type KeyedSets = ReadonlyMap<number, readonly string[]>;

export const SAMPLE_KEYS: KeyedSets = new Map([
  [1, ['name']], [2, ['wait_type']], [3, ['latch_class']], [4, ['object_name', 'counter_name', 'instance_name']], [7, ['scheduler_id']],
]);
export const WATCH_KEYS: KeyedSets = new Map([
  [1, ['name']], [2, ['wait_type']], [3, ['latch_class']], [4, ['object_name', 'counter_name', 'instance_name']], [5, ['database_name']], [7, ['scheduler_id']],
]);

/** The last known row of every keyed set, updated by each tick's moved rows. */
export class SnapshotKeeper {
  private kept: Map<number, Map<string, Row>> | null = null;
  constructor(private readonly keyed: KeyedSets) {}

  /** The tick's sets (marker removed) rebuilt into full sets; `full` replaces what was kept. */
  apply(sets: Row[][], full: boolean): Row[][] {
    if (!full && !this.kept) throw new Error('a delta tick arrived before any full snapshot on this connection');
    if (full) this.kept = new Map();
    const kept = this.kept!;
    return sets.map((rows, i) => {
      const cols = this.keyed.get(i);
      if (!cols) return rows;
      let m = kept.get(i);
      if (!m) kept.set(i, (m = new Map()));
      for (const r of rows) m.set(cols.map((c) => str(r[c])).join('\u0000'), r);
      return [...m.values()];
    });
  }

  reset(): void {
    this.kept = null;
  }
}

export interface DeltaRead {
  sets: Row[][];
  /** True when the server's snapshot was empty: this tick listed everything. */
  full: boolean;
}

/** Server errors that mean the connection's prepared handle or #temp tables are gone (a new connection). */
const GONE = new Set([8179, 208]);

/**
 * One monitor connection's delta reader: sets up the #temp tables and prepares the tick file on first use and again on
 * a new connection, then runs the tick as one sp_execute and rebuilds the full sets.
 */
export class DeltaReader {
  private prepared: { db: DbSession; lost: number; p: PreparedFile } | undefined;
  private readonly keeper: SnapshotKeeper;

  constructor(private readonly fileId: string, keyed: KeyedSets) {
    this.keeper = new SnapshotKeeper(keyed);
  }

  private async prepare(db: DbSession): Promise<PreparedFile> {
    await db.runFile('dmv/snapshot-setup');
    const p = await db.prepare(this.fileId);
    this.prepared = { db, lost: db.connectionsLost, p };
    return p;
  }

  async read(db: DbSession, params: Record<string, unknown>): Promise<DeltaRead> {
    const current = this.prepared && this.prepared.db === db && this.prepared.lost === db.connectionsLost ? this.prepared.p : await this.prepare(db);
    let sets: Row[][];
    try {
      sets = await db.executePrepared(current, params);
    } catch (err) {
      // The pool may have replaced the connection without a socket error (idle close): set up again, once.
      if (!GONE.has((err as { number?: number }).number ?? 0)) throw err;
      sets = await db.executePrepared(await this.prepare(db), params);
    }
    const marker = sets[0]?.[0];
    if (!marker || !('ticks_kept' in marker)) throw new Error(`sql/${this.fileId}.sql returned no snapshot marker`);
    const full = num(marker.ticks_kept) === 0;
    return { sets: this.keeper.apply(sets.slice(1), full), full };
  }
}
