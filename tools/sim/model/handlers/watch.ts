// The parts of sql/watch/tick-delta (handlers/delta.ts) still answered directly; sql/watch/tick itself is executed
// (exec/files.ts). `spinlab watch`'s tick. Strict like SQL Server on what it is sent: every
// alias.column in the batch must be a column of the view or function the alias names (Msg 207 otherwise), the login
// needs VIEW SERVER STATE (2022+: VIEW SERVER PERFORMANCE STATE), and the batch creates and changes nothing here
// either. The simple statements go through the mini SELECT engine; the joins and groupings are answered directly from
// the same model. Requests come from the workload calls running now (the --background sessions and any lab run).
import { createHash } from 'node:crypto';
import { err, SqlError } from '../errors';
import { checkViewPermission, findView } from '../select';
import { cols, T } from '../types';
import type { BatchCall, BatchHandler } from '../statements';
import type { ResultSet, Value } from '../../tds/contract';
import { columnIndex, param, resultSet, statements } from './util';
import { sessionCost } from '../custom';

// Columns of the views the tick reads that the mini engine does not model, as Microsoft documents them for 2016..2025
// (only those present in every version from 2016 on).
const EXTRA_COLUMNS: Record<string, readonly string[]> = {
  'sys.dm_exec_requests': [
    'session_id',
    'request_id',
    'start_time',
    'status',
    'command',
    'sql_handle',
    'statement_start_offset',
    'statement_end_offset',
    'plan_handle',
    'database_id',
    'user_id',
    'connection_id',
    'blocking_session_id',
    'wait_type',
    'wait_time',
    'last_wait_type',
    'wait_resource',
    'open_transaction_count',
    'open_resultset_count',
    'transaction_id',
    'context_info',
    'percent_complete',
    'estimated_completion_time',
    'cpu_time',
    'total_elapsed_time',
    'scheduler_id',
    'task_address',
    'reads',
    'writes',
    'logical_reads',
    'text_size',
    'language',
    'date_format',
    'date_first',
    'quoted_identifier',
    'arithabort',
    'ansi_null_dflt_on',
    'ansi_defaults',
    'ansi_warnings',
    'ansi_padding',
    'ansi_nulls',
    'concat_null_yields_null',
    'transaction_isolation_level',
    'lock_timeout',
    'deadlock_priority',
    'row_count',
    'prev_error',
    'nest_level',
    'granted_query_memory',
    'executing_managed_code',
    'group_id',
    'query_hash',
    'query_plan_hash',
    'statement_sql_handle',
    'statement_context_id',
    'dop',
    'parallel_worker_count',
    'external_script_request_id',
    'is_resumable',
  ],
  'sys.dm_exec_sessions': [
    'session_id',
    'login_time',
    'host_name',
    'program_name',
    'host_process_id',
    'client_version',
    'client_interface_name',
    'security_id',
    'login_name',
    'nt_domain',
    'nt_user_name',
    'status',
    'context_info',
    'cpu_time',
    'memory_usage',
    'total_scheduled_time',
    'total_elapsed_time',
    'endpoint_id',
    'last_request_start_time',
    'last_request_end_time',
    'reads',
    'writes',
    'logical_reads',
    'is_user_process',
    'text_size',
    'language',
    'date_format',
    'date_first',
    'quoted_identifier',
    'arithabort',
    'ansi_null_dflt_on',
    'ansi_defaults',
    'ansi_warnings',
    'ansi_padding',
    'ansi_nulls',
    'concat_null_yields_null',
    'transaction_isolation_level',
    'lock_timeout',
    'deadlock_priority',
    'row_count',
    'prev_error',
    'original_security_id',
    'original_login_name',
    'last_successful_logon',
    'last_unsuccessful_logon',
    'unsuccessful_logons',
    'group_id',
    'database_id',
    'authenticating_database_id',
    'open_transaction_count',
  ],
  'sys.dm_os_waiting_tasks': [
    'waiting_task_address',
    'session_id',
    'exec_context_id',
    'wait_duration_ms',
    'wait_type',
    'resource_address',
    'blocking_task_address',
    'blocking_session_id',
    'blocking_exec_context_id',
    'resource_description',
  ],
  'sys.dm_exec_sql_text': ['dbid', 'objectid', 'number', 'encrypted', 'text'],
};

/** Msg 207 for an alias.column that the aliased view or function does not have; aliases are per statement. */
export function checkColumns(c: BatchCall, text: string): void {
  for (const s of statements(text)) checkStatement(c, s);
}
function checkStatement(c: BatchCall, text: string): void {
  const aliases = new Map<string, string>();
  for (const m of text.matchAll(/\b(?:FROM|JOIN|APPLY)\s+(sys\.\w+)(?:\s*\([^)]*\))?\s+AS\s+(\w+)/gi))
    aliases.set(m[2].toLowerCase(), m[1].toLowerCase());
  const code = text.replace(/--.*$/gm, '').replace(/N?'(?:[^']|'')*'/g, "''");
  for (const m of code.matchAll(/\b(\w+)\.(\w+)\b/g)) {
    const view = aliases.get(m[1].toLowerCase());
    if (!view) continue;
    const known =
      EXTRA_COLUMNS[view] ??
      findView(view)
        ?.columns(c)
        .map((x) => x.name.toLowerCase());
    if (!known) throw new SqlError([err(208, `Invalid object name '${view}'.`)]);
    if (!known.includes(m[2].toLowerCase())) throw new SqlError([err(207, `Invalid column name '${m[2]}'.`)]);
  }
}

const f = Math.floor;

interface Req {
  spid: number;
  status: string;
  command: string;
  db: string;
  waitType: string | null;
  waitMs: number;
  lastWait: string;
  scheduler: number;
  cpuMs: number;
  elapsedMs: number;
  text: string;
}

/** The requests running now, each given a current wait drawn from the model's wait rates (synthetic). */
function requestsNow(c: BatchCall): Req[] {
  const m = c.model;
  const now = m.clock.now();
  const waits = [...m.currentRates().waits].filter(([, w]) => w.ms > 0).sort((a, b) => b[1].ms - a[1].ms);
  const totalMs = waits.reduce((a, [, w]) => a + w.ms, 0);
  const pick = (): string | null => {
    let r = m.random() * totalMs * 1.5; // a third of the time running, not waiting
    for (const [name, w] of waits) if ((r -= w.ms) <= 0) return name;
    return null;
  };
  return m.workloads
    .active()
    .filter((a) => a.spid !== c.session.spid)
    .map((a) => {
      const bg = m.background.get(a.spid);
      const waitType = pick();
      return {
        spid: a.spid,
        status: waitType ? 'suspended' : 'running',
        command: 'EXECUTE',
        db: a.database,
        waitType,
        waitMs: waitType ? f(m.random() * 3) : 0,
        lastWait: waitType ?? 'SOS_SCHEDULER_YIELD',
        scheduler: a.placement.cpu,
        cpuMs: f((now - a.startedAt) * 0.8),
        elapsedMs: f(now - a.startedAt),
        text: bg ? bg.text : `EXEC (a workload procedure writing ${a.table})`,
      };
    });
}

const queryHash = (text: string) => `0x${createHash('sha256').update(text).digest('hex').slice(0, 16).toUpperCase()}`;

/** The tick's @top_requests, checked as SQL Server checks a TOP row count. */
function topOf(c: BatchCall): number {
  const top = Number(param(c, '@top_requests'));
  if (!Number.isInteger(top) || top < 0)
    throw new SqlError([err(1014, 'The number of rows provided for a TOP or FETCH clauses row count parameter must be an integer.', 15)]);
  return top;
}

export function checkWatch(c: BatchCall): number {
  checkViewPermission(c, findView('sys.dm_os_spinlock_stats')!);
  checkColumns(c, c.text);
  return topOf(c);
}

/** The tick's statements that join, apply or group (log files, pending I/O, requests, waiting tasks, own CPU), answered directly. */
export function watchParts(
  c: BatchCall,
  top: number,
): { logIo: ResultSet; pend: ResultSet; requests: ResultSet; waiting: ResultSet; own: ResultSet } {
  const m = c.model;
  const chars = Number(param(c, '@text_chars'));
  // Columns by name: which columns the views serve (and in which order) follows the docs catalogue and --version.
  const vfsView = findView('sys.dm_io_virtual_file_stats')!;
  const v = columnIndex(vfsView.columns(c));
  const vfs = vfsView.rows(c, [null, null]);
  const logFiles = vfs.filter((r) => Number(r[v.file_id]) === 2);
  const dbName = (id: Value) => m.databaseById(Number(id))?.name ?? null;
  const logIo = resultSet(
    cols([
      ['database_name', T.nvarchar(128)],
      ['num_of_writes', T.bigint],
      ['num_of_bytes_written', T.bigint],
      ['io_stall_write_ms', T.bigint],
    ]),
    logFiles
      .filter((r) => Number(r[v.num_of_writes]) > 0)
      .map((r) => [dbName(r[v.database_id]), r[v.num_of_writes], r[v.num_of_bytes_written], r[v.io_stall_write_ms]]),
  );
  const pendingView = findView('sys.dm_io_pending_io_requests')!;
  const p = columnIndex(pendingView.columns(c));
  // A completed request its scheduler has not reaped yet is still listed (io_pending = 0): counted only by a batch
  // that does not filter it out, as SQL Server would count it.
  const stillPending = /\bio_pending\s*=\s*1\b/i.test(c.text);
  const pending = pendingView.rows(c, null).filter((r) => !stillPending || r[p.io_pending] === 1);
  const logHandles = new Set(logFiles.map((r) => (r[v.file_handle] as Buffer).toString('hex')));
  const pend = resultSet(
    cols([
      ['pending_total', T.int],
      ['pending_log', T.int],
    ]),
    [[pending.length, pending.filter((r) => r[p.io_handle] !== null && logHandles.has((r[p.io_handle] as Buffer).toString('hex'))).length]],
  );
  const reqs = requestsNow(c).sort((a, b) => b.waitMs - a.waitMs || b.elapsedMs - a.elapsedMs);
  const requests = resultSet(
    cols([
      ['session_id', T.smallint],
      ['status', T.nvarchar(30)],
      ['command', T.nvarchar(32)],
      ['database_name', T.nvarchar(128)],
      ['wait_type', T.nvarchar(60)],
      ['wait_time', T.int],
      ['last_wait_type', T.nvarchar(60)],
      ['blocking_session_id', T.smallint],
      ['scheduler_id', T.int],
      ['cpu_time', T.int],
      ['total_elapsed_time', T.int],
      ['query_hash', T.varchar(18)],
      ['statement_start', T.nvarchar('max')],
    ]),
    reqs
      .slice(0, top)
      .map((r) => [
        r.spid,
        r.status,
        r.command,
        r.db,
        r.waitType,
        r.waitMs,
        r.lastWait,
        0,
        r.scheduler,
        r.cpuMs,
        r.elapsedMs,
        queryHash(r.text),
        r.text.slice(0, Math.max(0, chars)),
      ]),
  );
  const byWait = new Map<string, { tasks: number; max: number; total: number }>();
  for (const r of reqs) {
    if (!r.waitType) continue;
    const w = byWait.get(r.waitType) ?? { tasks: 0, max: 0, total: 0 };
    w.tasks++;
    w.max = Math.max(w.max, r.waitMs);
    w.total += r.waitMs;
    byWait.set(r.waitType, w);
  }
  const waiting = resultSet(
    cols([
      ['wait_type', T.nvarchar(60)],
      ['tasks', T.int],
      ['max_wait_ms', T.bigint],
      ['total_wait_ms', T.bigint],
    ]),
    [...byWait]
      .sort((a, b) => b[1].tasks - a[1].tasks || (a[0] < b[0] ? -1 : 1))
      .slice(0, top)
      .map(([k, w]) => [k, w.tasks, BigInt(w.max), BigInt(w.total)]),
  );
  // The monitor's own CPU so far: what its batches were charged (synthetic).
  const own = resultSet(cols([['cpu_time', T.int, false]]), [[Math.floor(sessionCost(m, c.session.spid).cpuMs)]]);
  return { logIo, pend, requests, waiting, own };
}

export const WATCH_HANDLERS: Record<string, BatchHandler[]> = {};
