// sql/workload/session-share: the run's own sessions against the rest (the synthetic per-call costs model/custom.ts
// charges). sql/workload/session-stats is executed (exec/files.ts) over the views of model/dmvSessions.ts.
import { serverStateDenied, SqlError } from '../errors';
import { sessionCost } from '../custom';
import { cols, T } from '../types';
import type { BatchHandler } from '../statements';
import { resultSet, strParam } from './util';

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
  'workload/session-share': [sessionShare],
};
