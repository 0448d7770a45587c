// sql/workload/*: the counters and waits of the run's own sessions (the synthetic
// per-call costs model/custom.ts charges), as sys.dm_exec_sessions and sys.dm_exec_session_wait_stats serve them.
import { serverStateDenied, SqlError } from '../errors';
import { sessionCost } from '../custom';
import { cols, T } from '../types';
import type { BatchHandler } from '../statements';
import { resultSet, strParam } from './util';

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

/** The ids in an @ids list (',51,52,'), as the file's CHARINDEX match reads them. */
const idList = (c: Parameters<BatchHandler>[0]): number[] =>
  (strParam(c, '@ids') ?? '')
    .split(',')
    .filter((x) => /^\d+$/.test(x))
    .map(Number);

/**
 * The run's own sessions against the rest (sql/workload/session-share): their CPU so far and waits by type (the
 * synthetic costs model/custom.ts charges), and the other user requests running now (the --background sessions and
 * any other workload call in the model).
 */
const sessionShare: BatchHandler = (c) => {
  if (!c.model.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(c.model));
  const ids = new Set(idList(c));
  const live = [...ids].filter((id) => c.model.sessions.has(id));
  const cpu = live.reduce((s, id) => s + Math.round(sessionCost(c.model, id).cpuMs), 0);
  const others = c.model.workloads.active().filter((a) => !ids.has(a.spid) && a.spid !== c.session.spid).length;
  const waits = new Map<string, { count: number; ms: number }>();
  for (const id of live)
    for (const [type, w] of sessionCost(c.model, id).waits) {
      const acc = waits.get(type) ?? { count: 0, ms: 0 };
      acc.count += w.count;
      acc.ms += w.ms;
      waits.set(type, acc);
    }
  return [
    resultSet(
      cols([
        ['sessions_cpu_ms', T.bigint, true],
        ['running_cpu_ms', T.bigint, true],
        ['other_requests', T.int, true],
      ]),
      [[String(cpu), '0', others]],
    ),
    resultSet(
      cols([
        ['wait_type', T.nvarchar(60), false],
        ['waiting_tasks_count', T.bigint, true],
        ['wait_time_ms', T.bigint, true],
      ]),
      [...waits].map(([type, w]) => [type, String(Math.round(w.count)), String(Math.round(w.ms))]),
    ),
  ];
};

export const CUSTOM_HANDLERS: Record<string, BatchHandler[]> = {
  'workload/session-stats': [sessionStats],
  'workload/session-share': [sessionShare],
};
