// The monitor's per-connection snapshot files: sql/dmv/snapshot-setup (the session's #temp tables), and the ticks that
// compare with them, sql/dmv/sample-delta and sql/watch/tick-delta (each prepared once, then run by sp_execute).
// Statement by statement in order, as SQL Server runs a batch: SET options last for the call; what touches a #table is
// executed for real on this session's tables (model/temptables.ts: which rows come back is whatever the tables hold);
// the simple DMV SELECTs go through the mini SELECT engine; the few that join, apply or group are answered from the
// model as sql/dmv/sample and sql/watch/tick answer them.
import type { ResponseItem, ResultSet } from '../../tds/contract';
import { unsupported } from '../errors';
import type { BatchCall, BatchHandler } from '../statements';
import { codeOf, isTempStatement, runTempStatement } from '../temptables';
import { checkSamplePermission, sampleParts } from './sample';
import { select, statements } from './util';
import { checkWatch, watchParts } from './watch';

type Parts = Record<string, ResultSet>;

/** Which directly answered part a statement is, by the view it reads. */
function partOf(code: string): string | null {
  if (/\bsys\.dm_exec_requests\b/i.test(code)) return 'requests';
  if (/\bsys\.dm_os_waiting_tasks\b/i.test(code)) return 'waiting';
  if (/\bsys\.dm_io_pending_io_requests\b/i.test(code)) return 'pend';
  if (/\bsys\.dm_db_index_operational_stats\b/i.test(code)) return 'progress';
  if (/\bJOIN\b/i.test(code) && /\bsys\.dm_io_virtual_file_stats\b/i.test(code)) return 'logIo';
  if (/\bsys\.dm_exec_sessions\b/i.test(code) && /@@SPID/i.test(code)) return 'own';
  return null;
}

function runStatements(c: BatchCall, parts: () => Parts): ResponseItem[] {
  const out: ResponseItem[] = [];
  let direct: Parts | undefined;
  for (const s of statements(c.text)) {
    const code = codeOf(s);
    if (/^SET\s/i.test(code)) continue; // NOCOUNT, LOCK_TIMEOUT, DEADLOCK_PRIORITY: no rows either way
    if (isTempStatement(s)) {
      const rs = runTempStatement(c, s);
      if (rs) out.push(rs);
      continue;
    }
    const part = partOf(code);
    if (part) {
      direct ??= parts();
      const rs = direct[part];
      if (!rs) return [...out, unsupported(code)];
      out.push(rs);
      continue;
    }
    out.push(select(c, code));
  }
  return out;
}

const setup: BatchHandler = (c) => runStatements(c, () => ({}));

const sampleDelta: BatchHandler = (c) => {
  checkSamplePermission(c);
  c.model.advance();
  return runStatements(c, () => sampleParts(c) as unknown as Parts);
};

const tickDelta: BatchHandler = (c) => {
  const top = checkWatch(c);
  c.model.advance();
  return runStatements(c, () => watchParts(c, top) as unknown as Parts);
};

export const DELTA_HANDLERS: Record<string, BatchHandler[]> = {
  'dmv/snapshot-setup': [setup],
  'dmv/sample-delta': [sampleDelta],
  'watch/tick-delta': [tickDelta],
};
