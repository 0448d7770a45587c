// Database names in performance counters. Azure SQL Managed Instance names a database's counters (instance_name of the
// *:Databases object) by its sys.databases.physical_database_name, a GUID, instead of its name (Managed Instance's
// "Known issues": several views and performance counters show GUID identifiers; the names may come back later), so the
// sampler's files match both (@db_physical) and the engine maps the GUID back to the name wherever it reads
// instance_name (sql/server/database-names.sql, read once per monitor session).
import type { DbSession } from '../db/client';
import { str } from '../db/rows';
import type { CounterRow } from '../shared/types';

const isDatabasesObject = (object: string) => /(^|:)Databases$/i.test(object.trim());
const key = (name: string) => name.trim().toLowerCase();

/** physical_database_name (lower case) -> name, for the databases where the two differ. */
export async function readPhysicalNames(db: DbSession): Promise<Map<string, string>> {
  const [rows = []] = await db.runFile('server/database-names');
  return new Map(rows.map((r) => [key(str(r.physical_database_name)), str(r.name)]));
}

/** The *:Databases counters named by a physical name get the database's name instead (in place). */
export function renameDatabaseCounters(counters: CounterRow[], names: ReadonlyMap<string, string>): void {
  if (!names.size) return;
  for (const c of counters) {
    if (!isDatabasesObject(c.object)) continue;
    const name = names.get(key(c.instance));
    if (name !== undefined) c.instance = name;
  }
}

/**
 * The lab database's counters for the sampler: the parameters of sql/dmv/sample(-delta).sql (@db and its physical
 * name, read once per session) and the renaming of what they return.
 */
export class LabCounterNames {
  private names: Map<string, string> | undefined;
  private readFrom: DbSession | undefined;

  constructor(private readonly labDatabase: string) {}

  async params(db: DbSession): Promise<{ db: string; db_physical: string | null }> {
    if (!this.names || this.readFrom !== db) {
      this.names = await readPhysicalNames(db);
      this.readFrom = db;
    }
    return { db: this.labDatabase, db_physical: this.physical() };
  }

  private physical(): string | null {
    for (const [physical, name] of this.names ?? []) if (key(name) === key(this.labDatabase)) return physical;
    return null;
  }

  rename(counters: CounterRow[]): void {
    renameDatabaseCounters(counters, this.names ?? new Map());
  }
}

/**
 * Every database's counters for a watch: the names read once, and again (once per unknown name) when a counter names
 * a database the map does not know (one created during the watch).
 */
export class WatchCounterNames {
  private names: Map<string, string> | undefined;
  private readFrom: DbSession | undefined;
  private readonly unknown = new Set<string>();

  async apply(db: DbSession, counters: CounterRow[]): Promise<void> {
    if (!this.names || this.readFrom !== db) {
      this.names = await readPhysicalNames(db);
      this.readFrom = db;
    }
    const fresh = counters.filter(
      (c) =>
        isDatabasesObject(c.object) &&
        GUID.test(c.instance.trim()) &&
        !this.names!.has(key(c.instance)) &&
        !this.unknown.has(key(c.instance)),
    );
    if (fresh.length) {
      this.names = await readPhysicalNames(db);
      for (const c of fresh) if (!this.names.has(key(c.instance))) this.unknown.add(key(c.instance));
    }
    renameDatabaseCounters(counters, this.names);
  }
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
