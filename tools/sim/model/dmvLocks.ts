// sys.dm_tran_locks over the locks the model keeps: every user session's shared DATABASE lock on its current database
// (owner SHARED_TRANSACTION_WORKSPACE), the DATABASE lock an open transaction keeps in a database it left (holds.ts),
// and the application locks of applocks.ts, granted and waiting (resource_description "<principal id>:[name]:(hash)").
// Anyone sees their own session's rows; VIEW SERVER STATE (2022+: VIEW SERVER PERFORMANCE STATE) sees every session's.
import type { Value } from '../tds/contract';
import { appLocks, describeResource, SHORT } from './applocks';
import { holdersOf } from './holds';
import { cols, QueryContext, SystemView, T } from './types';

interface LockRow {
  type: 'DATABASE' | 'APPLICATION';
  databaseId: number;
  description: string;
  mode: string;
  status: 'GRANT' | 'WAIT';
  spid: number;
  owner: 'SHARED_TRANSACTION_WORKSPACE' | 'TRANSACTION' | 'SESSION';
}

function lockRows(c: QueryContext): LockRow[] {
  const m = c.model;
  const out: LockRow[] = [];
  const dbLock = (spid: number, databaseId: number, owner: LockRow['owner']) =>
    out.push({ type: 'DATABASE', databaseId, description: '', mode: 'S', status: 'GRANT', spid, owner });
  const own = m.database(c.session.database);
  if (own) dbLock(c.session.spid, own.id, 'SHARED_TRANSACTION_WORKSPACE');
  for (const db of m.databases.values())
    for (const h of holdersOf(m, db))
      if (h.user && h.spid !== c.session.spid) dbLock(h.spid, db.id, h.viaLocks ? 'TRANSACTION' : 'SHARED_TRANSACTION_WORKSPACE');
  for (const r of appLocks(m)) {
    const base = { type: 'APPLICATION' as const, databaseId: r.databaseId, description: describeResource(r), owner: 'SESSION' as const };
    for (const h of r.holds.values()) out.push({ ...base, mode: SHORT[h.mode], status: 'GRANT', spid: h.session.spid });
    for (const w of r.waits?.values() ?? []) out.push({ ...base, mode: SHORT[w.mode], status: 'WAIT', spid: w.session.spid });
  }
  const all = m.canViewServerState(c.session.login);
  return out.filter((l) => all || l.spid === c.session.spid);
}

const tranLocks: SystemView = {
  name: 'sys.dm_tran_locks',
  scope: 'public',
  columns: () =>
    cols([
      ['resource_type', T.nvarchar(60)],
      ['resource_database_id', T.int],
      ['resource_description', T.nvarchar(256)],
      ['request_mode', T.nvarchar(60)],
      ['request_type', T.nvarchar(60)],
      ['request_status', T.nvarchar(60)],
      ['request_session_id', T.int],
      ['request_owner_type', T.nvarchar(60)],
    ]),
  rows: (c) => lockRows(c).map((l): Value[] => [l.type, l.databaseId, l.description, l.mode, 'LOCK', l.status, l.spid, l.owner]),
};

export const LOCK_VIEWS: SystemView[] = [tranLocks];
