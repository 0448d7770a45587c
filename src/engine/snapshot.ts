// Delta ticks: the monitor's files that return only what moved (sql/dmv/sample-delta, sql/watch/tick-delta) rebuilt
// into the full result sets sql/dmv/sample and sql/watch/tick return, so the parsing and the deltas downstream are
// the same. The server keeps the previous tick's snapshot in the session's #temp tables (sql/dmv/snapshot-setup) and
// returns, for the keyed sets, only rows that are new or changed; here a row that stopped moving keeps its last values.
// A keyed set may come in parts that share its key: a name part (the name and what never moves, sent when first seen)
// and a value part (the figures, sent when they move), merged here into one row. Names are keyed by the first 4 bytes
// of their SHA-256; two names on one key would merge wrongly, so it is caught and the reader falls back to the full
// file on that connection. The first result set says whether the tick is a full snapshot (the snapshot held 0 ticks:
// a new connection), which replaces everything kept; a reconnect therefore resets itself. Rows a full snapshot would no
// longer list (a database dropped, wait stats cleared to zero) are kept at their last values until the next full one.
import type { DbSession, PreparedFile } from '../db/client';
import { num, str, type Row } from '../db/rows';
import { SpinlabError } from '../shared/spinlabError';

/** One result set of a delta file (after its marker): which set of the full file it builds, and how. */
export interface DeltaPart {
  /** Index of the set in the full file's layout. */
  target: number;
  /** Columns that identify a row; none: the set is taken as sent. */
  key?: readonly string[];
  /** A name part: a key it already holds under another name is a key collision. */
  names?: boolean;
  /** A value part of a named set: its keys must have arrived by name first. */
  named?: boolean;
  /** The file's short column aliases and the full file's names they stand for (key columns are named after renaming). */
  as?: Readonly<Record<string, string>>;
  /**
   * Columns sent as the change since the kept row, by the full file's column they add to: where one is not NULL, the
   * column's value is the kept value plus it (a row sends either the change or, new to the snapshot, the value).
   */
  adds?: Readonly<Record<string, string>>;
}
/** The parts in the order the file returns them; sets past the end build the full sets that follow, as sent. */
export type DeltaLayout = readonly DeltaPart[];

/** A synthetic key column the full file does not have, removed from rebuilt rows. */
const HASH_KEY = 'k';
type Aliases = Readonly<Record<string, string>>;
const named = (target: number, name: string, values: Aliases): DeltaPart[] => [
  { target, key: [HASH_KEY], names: true, as: { n: name } },
  { target, key: [HASH_KEY], named: true, as: values },
];
const SCHED_ID = { id: 'scheduler_id' };
const KEYED: DeltaPart[] = [
  { target: 0, as: { t: 'server_time_utc', ms: 'ms_ticks', cpu: 'cpu_ticks', st: 'sqlserver_start_time' } },
  ...named(1, 'name', { c: 'collisions', s: 'spins', sl: 'sleep_time', b: 'backoffs' }),
  ...named(2, 'wait_type', { c: 'waiting_tasks_count', ms: 'wait_time_ms', mx: 'max_wait_time_ms', sg: 'signal_wait_time_ms' }),
  ...named(3, 'latch_class', { c: 'waiting_requests_count', ms: 'wait_time_ms', mx: 'max_wait_time_ms' }),
  { target: 4, key: [HASH_KEY], names: true, as: { o: 'object_name', c: 'counter_name', i: 'instance_name', ty: 'cntr_type' } },
  { target: 4, key: [HASH_KEY], named: true, as: { v: 'cntr_value' } },
];
const SCHEDULERS = (target: number): DeltaPart[] => [
  { target, key: ['scheduler_id'], as: { ...SCHED_ID, cpu: 'cpu_id', node: 'parent_node_id', up: 'is_online' } },
  {
    target,
    key: ['scheduler_id'],
    as: { ...SCHED_ID, ms: 'total_cpu_usage_ms', r: 'runnable_tasks_count' },
    adds: { dms: 'total_cpu_usage_ms' },
  },
];

/**
 * sql/dmv/sample-delta: clock, spinlocks, waits, latches, counters, then as sent (short aliases named back): the log
 * file, pending I/O, schedulers (keyed), tables, and the monitor's own session row with the server's compilations.
 */
export const SAMPLE_LAYOUT: DeltaLayout = [
  ...KEYED,
  { target: 5, as: { w: 'num_of_writes', b: 'num_of_bytes_written', st: 'io_stall_write_ms' } },
  { target: 6, as: { pt: 'pending_total', pl: 'pending_log' } },
  ...SCHEDULERS(7),
  { target: 8, as: { n: 'table_name', i: 'inserts', u: 'updates', d: 'deletes' } },
  {
    target: 9,
    as: {
      c: 'cpu_time',
      lr: 'logical_reads',
      r: 'reads',
      w: 'writes',
      ts: 'total_scheduled_time',
      cp: 'sql_compilations',
      rc: 'sql_recompilations',
    },
  },
];
/** sql/watch/tick-delta: the same keyed sets, the log files by database, then requests and the rest as sent. */
export const WATCH_LAYOUT: DeltaLayout = [
  ...KEYED,
  {
    target: 5,
    key: ['database_name'],
    as: { db: 'database_name', w: 'num_of_writes', b: 'num_of_bytes_written', st: 'io_stall_write_ms' },
  },
  { target: 6 },
  ...SCHEDULERS(7),
];

/** A row with the part's aliases replaced by the full file's column names. */
function renamed(r: Row, as: Aliases | undefined): Row {
  if (!as) return r;
  const out: Row = {};
  for (const c in r) out[as[c] ?? c] = r[c];
  return out;
}

/** Thrown when the key of a name is held by another name, or a value arrives for a key never named. */
export class KeyMismatch extends SpinlabError {
  constructor(message: string) {
    super('internal', message);
  }
}

/** The column of the sent row that holds the full file's column `column` (its alias, or itself). */
function sourceOf(part: DeltaPart, column: string): string {
  for (const alias in part.as ?? {}) if (part.as![alias] === column) return alias;
  return column;
}

function partAt(layout: DeltaLayout, i: number): DeltaPart {
  if (i < layout.length) return layout[i];
  return { target: layout[layout.length - 1].target + (i - layout.length + 1) };
}

/** The last known row of every keyed set, updated by each tick's moved rows. */
export class SnapshotKeeper {
  private kept: Map<number, Map<string, Row>> | null = null;
  constructor(private readonly layout: DeltaLayout) {}

  /** The tick's sets (marker removed) rebuilt into full sets; `full` replaces what was kept. */
  apply(sets: Row[][], full: boolean): Row[][] {
    if (!full && !this.kept) throw new Error('a delta tick arrived before any full snapshot on this connection');
    const kept = full ? new Map<number, Map<string, Row>>() : this.kept!;
    const out: Row[][] = [];
    sets.forEach((rows, i) => {
      const part = partAt(this.layout, i);
      if (!part.key) {
        out[part.target] = part.as ? rows.map((r) => renamed(r, part.as)) : rows;
        return;
      }
      let m = kept.get(part.target);
      if (!m) kept.set(part.target, (m = new Map()));
      const as = part.as ?? {};
      const adds = part.adds ?? {};
      const keyFrom = part.key.map((c) => sourceOf(part, c));
      for (const sent of rows) {
        // One new object per moved row: the kept row's columns, then the sent ones under the full file's names, without
        // the hash key the full file does not have; then each change column added to the kept value.
        const id = keyFrom.length === 1 ? str(sent[keyFrom[0]]) : keyFrom.map((c) => str(sent[c])).join('\u0000');
        const before = m.get(id);
        if (part.named && !before) throw new KeyMismatch(`values arrived for key ${id} in result set ${part.target} before its name`);
        const merged: Row = before ? { ...before } : {};
        for (const c in sent) {
          if (c in adds) continue;
          const column = as[c] ?? c;
          if (column === HASH_KEY) continue;
          if (part.names && before && column in before && str(before[column]) !== str(sent[c]))
            throw new KeyMismatch(`two names share the key ${id} in result set ${part.target}`);
          merged[column] = sent[c];
        }
        for (const change in adds) {
          const d = sent[change];
          if (d === null || d === undefined) continue;
          if (!before) throw new KeyMismatch(`a change arrived for key ${id} in result set ${part.target} with no value kept`);
          merged[adds[change]] = num(before[adds[change]]) + num(d);
        }
        m.set(id, merged);
      }
    });
    for (const [target, m] of kept) out[target] = [...m.values()];
    this.kept = kept;
    return out;
  }

  reset(): void {
    this.kept = null;
  }
}

export interface DeltaRead {
  sets: Row[][];
  /** True when the server's snapshot was empty, or the full file was read: this tick listed everything. */
  full: boolean;
}

/** Server errors that mean the connection's prepared handle or #temp tables are gone (a new connection). */
const GONE = new Set([8179, 208]);

/**
 * One monitor connection's delta reader: sets up the #temp tables and prepares the tick file on first use and again on
 * a new connection, then runs the tick as one sp_execute and rebuilds the full sets. After a key mismatch it reads the
 * full file every tick instead, and says so once through onFallback.
 */
export class DeltaReader {
  private prepared: { db: DbSession; lost: number; p: PreparedFile } | undefined;
  private readonly keeper: SnapshotKeeper;
  private fallback = false;

  constructor(
    private readonly fileId: string,
    layout: DeltaLayout,
    private readonly fullFileId: string,
    private readonly onFallback: (why: string) => void = () => undefined,
  ) {
    this.keeper = new SnapshotKeeper(layout);
  }

  private async prepare(db: DbSession): Promise<PreparedFile> {
    await db.runFile('dmv/snapshot-setup');
    const p = await db.prepare(this.fileId);
    this.prepared = { db, lost: db.connectionsLost, p };
    return p;
  }

  /** Sets up and prepares on this connection unless done already (a watch does it before its clock starts). */
  async ready(db: DbSession): Promise<PreparedFile> {
    const p = this.prepared;
    return p && p.db === db && p.lost === db.connectionsLost ? p.p : this.prepare(db);
  }

  async read(db: DbSession, params: Record<string, unknown>): Promise<DeltaRead> {
    if (this.fallback) return { sets: await db.runFile(this.fullFileId, params), full: true };
    const current = await this.ready(db);
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
    try {
      return { sets: this.keeper.apply(sets.slice(1), full), full };
    } catch (err) {
      if (!(err instanceof KeyMismatch)) throw err;
      this.fallback = true;
      this.onFallback(
        `${err.message}: reading sql/${this.fullFileId}.sql in full every tick from now on (more bytes per tick, same figures)`,
      );
      return { sets: await db.runFile(this.fullFileId, params), full: true };
    }
  }
}
