// sql/server/leftovers: the lab database's presence and Spinlock Lab's event sessions (the simulator defines none;
// sys.dm_xe_sessions needs the server-state permission, as on SQL Server).
import { SqlError, serverStateDenied } from '../errors';
import { cols, T } from '../types';
import type { BatchHandler } from '../statements';
import { resultSet, strParam } from './util';

const leftovers: BatchHandler = (c) => {
  if (!c.model.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(c.model));
  const name = strParam(c, '@db');
  return [resultSet(cols([['lab_db_exists', T.int], ['event_sessions_defined', T.int], ['event_sessions_running', T.int]]),
    [[name !== null && c.model.database(name) ? 1 : 0, 0, 0]])];
};

export const LEFTOVER_HANDLERS: Record<string, BatchHandler[]> = { 'server/leftovers': [leftovers] };
