// I/O, request and XTP views, and the catalog views (server-wide and per current database) the sql/ files read.
import { logWriterSchedulers } from './dmvOs';
import { BINARY8, callText, currentWait, queryHash } from './dmvRequests';
import type { Database, SimModel } from './instance';
import { addr, cols, SystemView, T } from './types';
import type { SqlType, Value } from '../tds/contract';

const f = Math.floor;
const DATA_PATH = 'C:\\Program Files\\Microsoft SQL Server\\MSSQL16.MSSQLSERVER\\MSSQL\\DATA\\';

export function dataPath(m: SimModel): string {
  return DATA_PATH.replace('MSSQL16', `MSSQL${m.version}`);
}

interface FileRow {
  fileId: number;
  type: number;
  typeDesc: string;
  dataSpace: number;
  name: string;
  physical: string;
  sizePages: number;
}
export function filesOf(m: SimModel, db: Database): FileRow[] {
  const base = db.name === 'tempdb' ? 'temp' : db.name;
  const out: FileRow[] = [
    {
      fileId: 1,
      type: 0,
      typeDesc: 'ROWS',
      dataSpace: 1,
      name: db.name === 'master' ? 'master' : db.name === 'tempdb' ? 'tempdev' : db.name,
      physical: `${dataPath(m)}${base}.mdf`,
      sizePages: 1024,
    },
    {
      fileId: 2,
      type: 1,
      typeDesc: 'LOG',
      dataSpace: 0,
      name: db.name === 'master' ? 'mastlog' : db.name === 'tempdb' ? 'templog' : `${db.name}_log`,
      physical: `${dataPath(m)}${base}_log.ldf`,
      sizePages: 1024,
    },
  ];
  if (db.hasXtpFilegroup)
    out.push({
      fileId: 65537,
      type: 2,
      typeDesc: 'FILESTREAM',
      dataSpace: 65537,
      name: `${db.name}_xtp_container`,
      physical: `${dataPath(m)}${db.name}_xtp`,
      sizePages: 0,
    });
  return out;
}

function fileHandle(db: Database, fileId: number): Buffer {
  return addr(db.id * 1000 + fileId);
}

const virtualFileStats: SystemView = {
  name: 'sys.dm_io_virtual_file_stats',
  scope: 'server',
  columns: () =>
    cols([
      ['database_id', T.smallint],
      ['file_id', T.smallint],
      ['sample_ms', T.bigint],
      ['num_of_reads', T.bigint],
      ['num_of_bytes_read', T.bigint],
      ['io_stall_read_ms', T.bigint],
      ['io_stall_queued_read_ms', T.bigint],
      ['num_of_writes', T.bigint],
      ['num_of_bytes_written', T.bigint],
      ['io_stall_write_ms', T.bigint],
      ['io_stall_queued_write_ms', T.bigint],
      ['io_stall', T.bigint],
      ['size_on_disk_bytes', T.bigint],
      ['file_handle', T.varbinary(8)],
    ]),
  rows: (c, args) => {
    const m = c.model;
    const dbArg = args?.[0] ?? null;
    const fileArg = args?.[1] ?? null;
    const out: Value[][] = [];
    for (const db of m.databases.values()) {
      if (dbArg !== null && Number(dbArg) !== db.id) continue;
      for (const file of filesOf(m, db)) {
        if (fileArg !== null && Number(fileArg) !== file.fileId) continue;
        const d = m.counters.db(db.name);
        const io = m.counters.io(db.name);
        const up = m.msTicks() / 1000;
        let r = [f(20 + up * 0.01), f((20 + up * 0.01) * 65536), f(3 + up * 0.005)];
        let w = [0, 0, 0];
        if (file.type === 1) w = [f(d.logFlushes + up * 0.05), f(d.logBytes + up * 0.05 * 4096), f(d.flushWriteMs + up * 0.05 * 0.1)];
        else if (file.type === 0) w = [f(io.writes + up * 0.01), f(io.bytesWritten + up * 0.01 * 8192), f(io.writeStallMs + up * 0.002)];
        else r = [0, 0, 0];
        out.push([
          db.id,
          file.fileId,
          m.msTicks(),
          r[0],
          r[1],
          r[2],
          0,
          w[0],
          w[1],
          w[2],
          0,
          r[2] + w[2],
          BigInt(file.sizePages) * 8192n,
          fileHandle(db, file.fileId),
        ]);
      }
    }
    return out;
  },
};

const pendingIo: SystemView = {
  name: 'sys.dm_io_pending_io_requests',
  scope: 'server',
  columns: (c) => {
    const modern = c.model.version >= 15;
    return cols([
      ['io_completion_request_address', T.varbinary(8)],
      ['io_type', modern ? T.nvarchar(60) : T.varchar(7)],
      ['io_pending_ms_ticks', modern ? T.bigint : T.int],
      ['io_pending', T.int],
      ['io_completion_routine_address', T.varbinary(8)],
      ['io_user_data_address', T.varbinary(8)],
      ['scheduler_address', T.varbinary(8)],
      ['io_handle', T.varbinary(8)],
      ['io_offset', T.bigint],
      ['io_parent_request_address', T.varbinary(8)],
      ...(modern ? ([['io_handle_path', T.nvarchar(256)]] as [string, SqlType][]) : []),
    ]);
  },
  rows: (c) => {
    const m = c.model;
    const busyDbs = [...new Set(m.workloads.active().map((a) => a.database.toLowerCase()))];
    const out: Value[][] = [];
    for (const name of busyDbs) {
      const db = m.database(name);
      if (!db) continue;
      const n = f(m.counters.pendingLogIo / busyDbs.length + m.random());
      for (let i = 0; i < Math.min(n, 112); i++) {
        const row: Value[] = [
          addr(5000 + i),
          'disk',
          f(m.random() * 2),
          1,
          addr(6000),
          addr(7000 + i),
          addr(logWriterSchedulers(c)[0]),
          fileHandle(db, 2),
          BigInt(f(m.random() * 1e9)),
          null,
        ];
        if (m.version >= 15) row.push(filesOf(m, db)[1].physical);
        out.push(row);
      }
      // A write the OS has completed but its scheduler has not yet reaped stays listed with io_pending = 0 (the
      // docs: "1 = pending with Windows, 0 = completed"); it is not an I/O in flight.
      const done: Value[] = [
        addr(4000),
        'disk',
        0,
        0,
        addr(6000),
        addr(7999),
        addr(logWriterSchedulers(c)[0]),
        fileHandle(db, 2),
        0n,
        null,
      ];
      if (m.version >= 15) done.push(filesOf(m, db)[1].physical);
      out.push(done);
    }
    return out;
  },
};

const execRequests: SystemView = {
  name: 'sys.dm_exec_requests',
  scope: 'public', // without VIEW SERVER STATE it shows only the caller's own request (filtered below)
  columns: () =>
    cols([
      ['session_id', T.smallint],
      ['request_id', T.int],
      ['start_time', T.datetime],
      ['status', T.nvarchar(30)],
      ['command', T.nvarchar(32)],
      ['sql_handle', T.varbinary(64)],
      ['database_id', T.smallint],
      ['user_id', T.int],
      ['blocking_session_id', T.smallint],
      ['wait_type', T.nvarchar(60)],
      ['wait_time', T.int],
      ['last_wait_type', T.nvarchar(60)],
      ['wait_resource', T.nvarchar(256)],
      ['open_transaction_count', T.int],
      ['cpu_time', T.int],
      ['total_elapsed_time', T.int],
      ['scheduler_id', T.int],
      ['task_address', T.varbinary(8)],
      ['reads', T.bigint],
      ['writes', T.bigint],
      ['logical_reads', T.bigint],
      ['row_count', T.bigint],
      ['statement_start_offset', T.int],
      ['query_hash', BINARY8],
    ]),
  rows: (c) => {
    const m = c.model;
    const now = m.clock.now();
    const up = m.msTicks();
    const out: Value[][] = [];
    const all = m.canViewServerState(c.session.login);
    if (all) {
      logWriterSchedulers(c).forEach((sched, i) =>
        out.push([
          2 + i,
          0,
          m.startTime,
          'background',
          'LOG WRITER',
          null,
          1,
          1,
          0,
          'LOGMGR_QUEUE',
          f(m.random() * 5),
          'LOGMGR_QUEUE',
          '',
          0,
          f(up / 100) % 2147483647,
          up % 2147483647,
          sched,
          addr(sched),
          0n,
          0n,
          0n,
          1n,
          null,
          null,
        ]),
      );
      for (const a of m.workloads.active()) {
        if (a.spid === c.session.spid) continue;
        const w = currentWait(m, a.id);
        out.push([
          a.spid,
          0,
          new Date(a.startedAt),
          w.waitType ? 'suspended' : 'running',
          'EXECUTE',
          addr(a.id),
          m.database(a.database)?.id ?? 1,
          1,
          0,
          w.waitType,
          w.waitMs,
          w.waitType ?? 'SOS_SCHEDULER_YIELD',
          '',
          1,
          // What the session's CPU grew by since the request started (model/custom.ts charges it as it runs).
          f(m.cpuUsedMs(a.spid) - a.cpuAtStart),
          f(now - a.startedAt),
          a.placement.cpu,
          addr(a.id + 11),
          0n,
          BigInt(f(a.rows)),
          BigInt(f(a.rows * 3)),
          1n,
          0,
          queryHash(callText(m, a)),
        ]);
      }
    }
    const me = m.database(c.session.database);
    out.push([
      c.session.spid,
      0,
      new Date(now),
      'running',
      'SELECT',
      addr(1),
      me?.id ?? 1,
      1,
      0,
      null,
      0,
      'MEMORY_ALLOCATION_EXT',
      '',
      0,
      0,
      0,
      m.onlineCpus()[0] ?? 0,
      addr(2),
      0n,
      0n,
      0n,
      1n,
      0,
      null,
    ]);
    return out;
  },
};

const XTP_COUNTERS = [
  'total_count',
  'read_only_count',
  'total_aborts',
  'user_aborts',
  'validation_failures',
  'dependencies_taken',
  'dependencies_failed',
  'savepoint_create',
  'savepoint_rollbacks',
  'savepoint_refreshes',
  'log_bytes_written',
  'log_IO_count',
  'scans_started',
  'scans_retried',
  'rows_returned',
  'rows_touched',
  'row_insert_attempts',
  'row_update_attempts',
  'row_delete_attempts',
  'write_conflicts',
  'unique_constraint_violations',
];
const xtpTransactionStats: SystemView = {
  name: 'sys.dm_xtp_transaction_stats',
  scope: 'server',
  columns: () => cols(XTP_COUNTERS.map((n) => [n, T.bigint] as [string, SqlType])),
  rows: (c) => {
    const m = c.model;
    const v: Record<string, number> = Object.fromEntries(XTP_COUNTERS.map((n) => [n, 0]));
    for (const db of m.databases.values()) {
      for (const o of db.objects.values()) {
        if (o.type !== 'U' || !o.memoryOptimized) continue;
        const ops = m.counters.table(db.name, o.name);
        v.total_count += ops.inserts + ops.updates;
        v.row_insert_attempts += ops.inserts;
        v.row_update_attempts += ops.updates;
        v.row_delete_attempts += ops.deletes;
        v.rows_touched += ops.updates;
        if (o.durability === 'SCHEMA_AND_DATA') {
          v.log_bytes_written += (ops.inserts + ops.updates) * 160;
          v.log_IO_count += (ops.inserts + ops.updates) / 400;
        }
      }
    }
    return [XTP_COUNTERS.map((n) => BigInt(f(v[n])))];
  },
};

export const IO_VIEWS: SystemView[] = [virtualFileStats, pendingIo, execRequests, xtpTransactionStats];
