// sql/server/leftovers: the lab database's presence and Spinlock Lab's event sessions (model/xe.ts; sys.dm_xe_sessions
// needs the server-state permission, as on SQL Server).
import { SqlError, serverStateDenied } from '../errors';
import { cols, T } from '../types';
import type { BatchHandler } from '../statements';
import { resultSet, strParam } from './util';

const leftovers: BatchHandler = (c) => {
  if (!c.model.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(c.model));
  const name = strParam(c, '@db');
  // LIKE N'spinlab%' OR LIKE N'SpinlockLab[_]%', case-insensitive as the default collation compares.
  const ours = [...c.model.xe.sessions.values()].filter((s) => /^spinlab/i.test(s.name) || /^spinlocklab_/i.test(s.name));
  return [
    resultSet(
      cols([
        ['lab_db_exists', T.int],
        ['event_sessions_defined', T.int],
        ['event_sessions_running', T.int],
      ]),
      [[name !== null && c.model.database(name) ? 1 : 0, ours.length, ours.filter((s) => s.running).length]],
    ),
  ];
};

export const LEFTOVER_HANDLERS: Record<string, BatchHandler[]> = { 'server/leftovers': [leftovers] };
