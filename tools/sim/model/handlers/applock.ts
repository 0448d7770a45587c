// sql/lab/lock-holder: who holds one of Spinlock Lab's application locks (sys.dm_tran_locks is not a view of the
// simulator yet). Taking, releasing and testing a lock are executed (exec/sysprocs.ts); the locks live in ../applocks.ts.
import type { Value } from '../../tds/contract';
import { appLocks, describeResource, SHORT } from '../applocks';
import type { BatchHandler } from '../statements';
import { cols, T } from '../types';
import { resultSet, strParam } from './util';

/**
 * The holders of one resource as the file's join of sys.dm_tran_locks and sys.dm_exec_sessions returns them: in the
 * caller's current database, granted (the model has no waiters at timeout 0), other sessions only, exclusive first.
 * Without VIEW SERVER STATE a login sees only its own session's locks, which the file leaves out.
 */
const holder: BatchHandler = (c) => {
  const resource = strParam(c, '@resource') ?? '';
  const dbId = c.model.database(c.session.database)?.id ?? 1;
  const visible = c.model.canViewServerState(c.session.login);
  const rows: Value[][] = [];
  for (const r of appLocks(c.model)) {
    if (r.databaseId !== dbId || !resource || !describeResource(r).includes(resource)) continue;
    for (const h of r.holds.values()) {
      if (h.session === c.session || !visible) continue;
      rows.push([
        h.session.spid,
        SHORT[h.mode],
        h.session.hostName,
        h.session.clientPid ?? 0,
        h.session.appName,
        h.session.login,
        c.model.sessions.get(h.session.spid)?.loginTime ?? h.since,
      ]);
    }
  }
  rows.sort((a, b) => Number(a[1] !== 'X') - Number(b[1] !== 'X') || (a[6] as Date).getTime() - (b[6] as Date).getTime());
  return [
    resultSet(
      cols([
        ['session_id', T.int],
        ['request_mode', T.nvarchar(60)],
        ['host_name', T.nvarchar(128)],
        ['host_process_id', T.int],
        ['program_name', T.nvarchar(128)],
        ['login_name', T.nvarchar(128)],
        ['login_time', T.datetime],
      ]),
      rows,
    ),
  ];
};

export const APPLOCK_HANDLERS: Record<string, BatchHandler[]> = {
  'lab/lock-holder': [holder],
};
