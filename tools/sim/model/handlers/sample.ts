// sql/dmv/sample: one monitor tick, nine result sets. The simple statements run through the mini SELECT engine; the
// three that join or aggregate are answered from the same data directly.
import { filesOf } from '../dmvDb';
import { checkViewPermission, findView } from '../select';
import { cols, T } from '../types';
import type { BatchCall, BatchHandler } from '../statements';
import type { ResultSet } from '../../tds/contract';
import { columnIndex, currentDb, resultSet, select, statements } from './util';

/** The statements of the sample that join or aggregate (log file I/O, pending I/O, row operations), answered directly. */
export function sampleParts(c: BatchCall): { logIo: ResultSet; pend: ResultSet; progress: ResultSet } {
  const m = c.model;
  const db = currentDb(c);
  const files = filesOf(m, db);
  const logIds = new Set(files.filter((f) => f.type === 1).map((f) => f.fileId));
  const vfsView = findView('sys.dm_io_virtual_file_stats')!;
  const vfs = vfsView.rows(c, [db.id, null]);
  const v = columnIndex(vfsView.columns(c));
  let writes = 0n,
    bytes = 0n,
    stall = 0n;
  for (const r of vfs) {
    if (!logIds.has(Number(r[v.file_id]))) continue;
    writes += BigInt(r[v.num_of_writes] as number);
    bytes += BigInt(r[v.num_of_bytes_written] as number);
    stall += BigInt(r[v.io_stall_write_ms] as number);
  }
  const logIo = resultSet(
    cols([
      ['num_of_writes', T.bigint],
      ['num_of_bytes_written', T.bigint],
      ['io_stall_write_ms', T.bigint],
    ]),
    [[writes, bytes, stall]],
  );
  const pendingView = findView('sys.dm_io_pending_io_requests')!;
  const p = columnIndex(pendingView.columns(c));
  // WHERE ior.io_pending = 1: completed requests not yet reaped are listed too (io_pending = 0).
  const pending = pendingView.rows(c, null).filter((r) => r[p.io_pending] === 1);
  const logHandles = vfs.filter((r) => logIds.has(Number(r[v.file_id]))).map((r) => (r[v.file_handle] as Buffer).toString('hex'));
  const pendingLog = pending.filter(
    (r) => r[p.io_handle] !== null && logHandles.includes((r[p.io_handle] as Buffer).toString('hex')),
  ).length;
  const pend = resultSet(
    cols([
      ['pending_total', T.int],
      ['pending_log', T.int],
    ]),
    [[pending.length, pendingLog]],
  );
  const progress = resultSet(
    cols([
      ['table_name', T.sysname],
      ['inserts', T.bigint],
      ['updates', T.bigint],
      ['deletes', T.bigint],
    ]),
    [...db.objects.values()]
      .filter((o) => o.type === 'U')
      .map((o) => {
        const ops = m.counters.table(db.name, o.name);
        return [o.name.split('.')[1], Math.floor(ops.inserts), Math.floor(ops.updates), Math.floor(ops.deletes)];
      }),
  );
  return { logIo, pend, progress };
}

export function checkSamplePermission(c: BatchCall): void {
  for (const v of ['sys.dm_os_spinlock_stats', 'sys.dm_db_index_operational_stats']) checkViewPermission(c, findView(v)!);
}

const sample: BatchHandler = (c) => {
  checkSamplePermission(c);
  c.model.advance();
  const st = statements(c.text);
  const { logIo, pend, progress } = sampleParts(c);
  return [
    select(c, st[0]),
    select(c, st[1]),
    select(c, st[2]),
    select(c, st[3]),
    select(c, st[4]),
    logIo,
    pend,
    select(c, st[7]),
    progress,
  ];
};

export const SAMPLE_HANDLERS: Record<string, BatchHandler[]> = { 'dmv/sample': [sample] };
