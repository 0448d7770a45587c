// sql/workload/*: a custom workload session's id, and the counters and waits of the run's own sessions (the synthetic
// per-call costs model/custom.ts charges), as sys.dm_exec_sessions and sys.dm_exec_session_wait_stats serve them.
import { serverStateDenied, SqlError } from '../errors';
import { sessionCost } from '../custom';
import { cols, T } from '../types';
import type { BatchHandler } from '../statements';
import { resultSet, strParam } from './util';

const sessionId: BatchHandler = (c) => [resultSet(cols([['session_id', T.smallint]]), [[c.session.spid]])];

const sessionStats: BatchHandler = (c) => {
  if (!c.model.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(c.model));
  const ids = (strParam(c, '@ids') ?? '')
    .split(',')
    .filter((x) => /^\d+$/.test(x))
    .map(Number);
  const live = ids.filter((id) => c.model.sessions.has(id));
  const sessions = live.map((id) => {
    const k = sessionCost(c.model, id);
    return [id, Math.round(k.cpuMs), String(Math.round(k.logicalReads)), '0', '0'];
  });
  const waits = live.flatMap((id) =>
    [...sessionCost(c.model, id).waits.entries()].map(([type, w]) => [
      id,
      type,
      String(Math.round(w.count)),
      String(Math.round(w.ms)),
      String(Math.round(w.signalMs)),
    ]),
  );
  return [
    resultSet(
      cols([
        ['session_id', T.smallint, false],
        ['cpu_time', T.int, false],
        ['logical_reads', T.bigint, false],
        ['reads', T.bigint, false],
        ['writes', T.bigint, false],
      ]),
      sessions,
    ),
    resultSet(
      cols([
        ['session_id', T.smallint, false],
        ['wait_type', T.nvarchar(60), false],
        ['waiting_tasks_count', T.bigint, false],
        ['wait_time_ms', T.bigint, false],
        ['signal_wait_time_ms', T.bigint, false],
      ]),
      waits,
    ),
  ];
};

export const CUSTOM_HANDLERS: Record<string, BatchHandler[]> = {
  'workload/session-id': [sessionId],
  'workload/session-stats': [sessionStats],
};
