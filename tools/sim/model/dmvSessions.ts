// sys.dm_exec_sessions and sys.dm_exec_session_wait_stats as views over the simulator's session state: the wire
// sessions (model.sessions), the --background workload sessions, and what each was charged (model/custom.ts's
// sessionCost: CPU, reads, writes, scheduled time, waits; model/planCost.ts charges a monitor's statements). Columns
// and types follow the catalogue (conformToCatalog fills the documented columns the model does not compute).
// Permissions as the docs give them: anyone sees their own session's row; VIEW SERVER STATE (2022+: VIEW SERVER
// PERFORMANCE STATE) sees every session; sys.dm_exec_session_wait_stats on 2022+ needs that permission outright.
import type { Value } from '../tds/contract';
import { sessionCost } from './custom';
import { serverStateDenied, SqlError } from './errors';
import { systemSpids } from './dmvRequests';
import { systemSessionsIn } from './holds';
import { cols, QueryContext, SystemView, T } from './types';

interface Live {
  spid: number;
  login: string;
  loginTime: Date;
  database: string | null;
  system?: boolean;
  hostName?: string;
  appName?: string;
  clientPid?: number;
}

/** The sessions the caller may see: every user session with the permission, else only its own. */
function visible(c: QueryContext): Live[] {
  const m = c.model;
  // The wire sessions' current database and client (the caller's own from its session, others' from the server).
  const wire = new Map(m.connections.list().map((x) => [x.spid, x]));
  const all: Live[] = [...m.sessions.values()].map((s) => {
    const own = s.spid === c.session.spid;
    const w = wire.get(s.spid);
    return {
      spid: s.spid,
      login: s.login,
      loginTime: s.loginTime,
      database: own ? c.session.database : (w?.database ?? m.background.get(s.spid)?.database ?? null),
      hostName: own ? c.session.hostName : w?.hostName,
      appName: own ? c.session.appName : w?.appName,
      clientPid: own ? c.session.clientPid : w?.clientPid,
    };
  });
  for (const b of m.background.values())
    if (!m.sessions.has(b.spid)) all.push({ spid: b.spid, login: 'sa', loginTime: b.startedAt, database: b.database });
  // The system sessions with requests (the log writers), up since the server started: not user processes.
  for (const spid of systemSpids(c)) all.push({ spid, login: 'sa', loginTime: m.startTime, database: 'master', system: true });
  // In-Memory OLTP's checkpoint workers, in each database with a memory-optimized filegroup (holds.ts).
  for (const db of m.databases.values())
    for (const spid of systemSessionsIn(db)) all.push({ spid, login: 'sa', loginTime: m.startTime, database: db.name, system: true });
  const own = (s: Live) => s.spid === c.session.spid;
  return (m.canViewServerState(c.session.login) ? all : all.filter(own)).sort((a, b) => a.spid - b.spid);
}

const execSessions: SystemView = {
  name: 'sys.dm_exec_sessions',
  scope: 'public',
  columns: () =>
    cols([
      ['session_id', T.smallint],
      ['login_time', T.datetime],
      ['login_name', T.nvarchar(128)],
      ['status', T.nvarchar(30)],
      ['cpu_time', T.int],
      ['total_scheduled_time', T.int],
      ['total_elapsed_time', T.int],
      ['last_request_start_time', T.datetime],
      ['reads', T.bigint],
      ['writes', T.bigint],
      ['logical_reads', T.bigint],
      ['is_user_process', T.bit],
      ['original_login_name', T.nvarchar(128)],
      ['database_id', T.smallint],
      ['host_name', T.nvarchar(128)],
      ['program_name', T.nvarchar(128)],
      ['host_process_id', T.int],
    ]),
  rows: (c) => {
    const m = c.model;
    const now = m.clock.now();
    const running = new Map(m.workloads.active().map((a) => [a.spid, a.cpuAtStart]));
    return visible(c).map((s): Value[] => {
      const k = sessionCost(m, s.spid);
      const db = s.database === null ? undefined : m.database(s.database);
      return [
        s.spid,
        s.loginTime,
        s.login,
        s.system ? 'background' : s.spid === c.session.spid || m.background.has(s.spid) ? 'running' : 'sleeping',
        // cpu_time counts a request's CPU when it completes: the running server-loop call's is the request's (dmvDb.ts),
        // and so is the batch running now (the caller's own among them: a monitor reading its cost mid-tick).
        Math.round(running.get(s.spid) ?? k.atBatchStart?.cpuMs ?? k.cpuMs),
        Math.round(k.atBatchStart?.scheduledMs ?? k.scheduledMs),
        Math.max(0, Math.round(now - s.loginTime.getTime())),
        s.loginTime,
        BigInt(Math.round(k.reads)),
        BigInt(Math.round(k.writes)),
        BigInt(Math.round(k.logicalReads)),
        !s.system,
        s.login,
        db?.id ?? null,
        s.system ? null : (s.hostName ?? null),
        s.system ? null : (s.appName ?? null),
        s.system ? null : (s.clientPid ?? null),
      ];
    });
  },
};

const sessionWaitStats: SystemView = {
  name: 'sys.dm_exec_session_wait_stats',
  scope: 'public',
  columns: () =>
    cols([
      ['session_id', T.smallint],
      ['wait_type', T.nvarchar(60)],
      ['waiting_tasks_count', T.bigint],
      ['wait_time_ms', T.bigint],
      ['signal_wait_time_ms', T.bigint],
    ]),
  rows: (c) => {
    const m = c.model;
    if (m.version >= 16 && !m.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(m));
    return visible(c).flatMap((s) =>
      [...sessionCost(m, s.spid).waits.entries()].map(([type, w]): Value[] => [
        s.spid,
        type,
        // Whole units, as the server-wide rows count the same waits (CounterStore.chargeOwn).
        BigInt(Math.floor(w.count)),
        BigInt(Math.floor(w.ms)),
        BigInt(Math.floor(w.signalMs)),
      ]),
    );
  },
};

export const SESSION_VIEWS: SystemView[] = [execSessions, sessionWaitStats];
