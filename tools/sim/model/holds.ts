// Who holds a database open, as sys.dm_exec_sessions and sys.dm_tran_locks would show it: user sessions whose current
// database it is; user sessions elsewhere whose open transaction did work in it (their locks there last until the
// transaction ends); and system sessions that live in it (In-Memory OLTP's checkpoint workers, in every database with
// a memory-optimized filegroup), which are not user processes and which KILL refuses.
import type { SessionContext } from '../tds/contract';
import { sessionState } from './sessionState';
import type { Database, SimModel } from './instance';

export interface DbHolder {
  spid: number;
  /** sys.dm_exec_sessions.is_user_process */
  user: boolean;
  /** The holder's current database (sys.dm_exec_sessions.database_id). */
  database: string;
  /** It holds locks in the database from another one (sys.dm_tran_locks.resource_database_id). */
  viaLocks: boolean;
}

/** Sessions whose open transaction left a database it worked in, with the databases: spid -> (session, names). */
const left = new WeakMap<SimModel, Map<number, { session: SessionContext; dbs: Set<string> }>>();

/** A session changes database: inside an open transaction it keeps its locks in the one it leaves. */
export function noteDatabaseChange(model: SimModel, session: SessionContext, from: string): void {
  if (sessionState(session).tranCount === 0) return;
  let bySpid = left.get(model);
  if (!bySpid) left.set(model, (bySpid = new Map()));
  const entry = bySpid.get(session.spid);
  if (entry && entry.session === session) entry.dbs.add(from.toLowerCase());
  else bySpid.set(session.spid, { session, dbs: new Set([from.toLowerCase()]) });
}

/** The system sessions living in a database: two checkpoint workers where it has a memory-optimized filegroup. */
export function systemSessionsIn(db: Database): number[] {
  return db.hasXtpFilegroup ? [20 + (db.id % 10) * 2, 21 + (db.id % 10) * 2] : [];
}

/** Every session holding `db`, system ones included, lowest spid first. */
export function holdersOf(model: SimModel, db: Database): DbHolder[] {
  const name = db.name.toLowerCase();
  const out: DbHolder[] = systemSessionsIn(db).map((spid) => ({ spid, user: false, database: db.name, viaLocks: false }));
  const live = model.connections.list();
  const bySpid = left.get(model);
  for (const c of live) {
    const inDb = c.database.toLowerCase() === name;
    const entry = bySpid?.get(c.spid);
    const viaLocks = !inDb && !!entry && entry.dbs.has(name) && sessionState(entry.session).tranCount > 0;
    if (inDb || viaLocks) out.push({ spid: c.spid, user: true, database: c.database, viaLocks });
  }
  return out.sort((a, b) => a.spid - b.spid);
}

/** KILL's view of a session id: a system session (Msg 6107) or not. */
export function isSystemSession(model: SimModel, spid: number): boolean {
  return [...model.databases.values()].some((d) => systemSessionsIn(d).includes(spid));
}
