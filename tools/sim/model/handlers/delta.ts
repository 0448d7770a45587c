// sql/watch/tick-delta, the watch's tick that compares with the session's snapshot #temp tables (prepared once, then
// run by sp_execute). sql/dmv/snapshot-setup and sql/dmv/sample-delta are executed (exec/files.ts).
// Statement by statement in order, as SQL Server runs a batch: SET options last for the call; what touches a #table is
// executed for real on this session's tables (model/temptables.ts: which rows come back is whatever the tables hold);
// the simple DMV SELECTs go through the mini SELECT engine; the few that join, apply or group are answered from the
// model as sql/dmv/sample and sql/watch/tick answer them.
import type { ResponseItem, ResultSet } from '../../tds/contract';
import { sessionState } from '../sessionState';
import { sessionCost } from '../custom';
import { SqlError, unsupported } from '../errors';
import { charge, COST, pages } from '../planCost';
import { cols, T } from '../types';
import type { BatchCall, BatchHandler } from '../statements';
import { codeOf, isTempStatement, runTempStatement } from '../temptables';
import { resultSet, select, statements } from './util';
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

/** Errors that end the batch whatever the options: a name that does not resolve, a statement that does not compile. */
const ENDS_BATCH = new Set([205, 207, 208, 213, 2715, 50000]);
const ARITHMETIC = new Set([220, 232, 8115]);

/**
 * Whether a statement's error ends the batch, as SQL Server decides (docs: SET ARITHABORT, SET XACT_ABORT): with
 * ANSI_WARNINGS ON (every driver's default) an arithmetic error ends its statement and the batch goes on, unless
 * XACT_ABORT is ON; with ANSI_WARNINGS OFF and ARITHABORT ON it ends the batch. (With both OFF SQL Server stores NULL
 * with a warning; the simulator still ends the statement with the error: stricter, never looser.)
 */
function endsBatch(c: BatchCall, e: SqlError): boolean {
  const opts = sessionState(c.session).options;
  if (e.messages.some((m) => m.class !== 16 || ENDS_BATCH.has(m.number))) return true;
  if (opts.get('XACT_ABORT') === 'ON') return true;
  return e.messages.some((m) => ARITHMETIC.has(m.number)) && opts.get('ANSI_WARNINGS') === 'OFF' && opts.get('ARITHABORT') === 'ON';
}

/**
 * The session's own row of sys.dm_exec_sessions as the monitor's statement selects it: what the simulated statements
 * of this and earlier batches charged it (model/planCost.ts), cpu_time and total_scheduled_time int as documented.
 */
export function ownSession(c: BatchCall, code: string): ResultSet {
  const k = sessionCost(c.model, c.session.spid);
  const all: [string, ResultSet['columns'][number]['sqlType'], number | bigint][] = [
    ['cpu_time', T.int, Math.floor(k.cpuMs)],
    ['logical_reads', T.bigint, BigInt(Math.floor(k.logicalReads))],
    ['reads', T.bigint, BigInt(Math.floor(k.reads))],
    ['writes', T.bigint, BigInt(Math.floor(k.writes))],
    ['total_scheduled_time', T.int, Math.floor(k.scheduledMs)],
  ];
  const picked = all.filter(([name]) => new RegExp(`\\bs\\.${name}\\b`, 'i').test(code));
  return resultSet(cols(picked.map(([n, t]) => [n, t, false])), [picked.map(([, , v]) => v)]);
}

function runStatement(c: BatchCall, s: string, direct: () => Parts): ResultSet | ResponseItem | null {
  const code = codeOf(s);
  if (/^SET\s/i.test(code)) return null; // NOCOUNT, LOCK_TIMEOUT, DEADLOCK_PRIORITY: no rows either way
  if (isTempStatement(s)) return runTempStatement(c, s);
  const part = partOf(code);
  if (part === 'own') return ownSession(c, code);
  const rs = part ? (direct()[part] ?? unsupported(code)) : select(c, code);
  // A DMV read: a statement's CPU, a little per row, and the pages it touched.
  const rows = rs.kind === 'resultSet' ? rs.rows.length : 0;
  charge(c.model, c.session, { cpuMs: COST.statementMs + rows * COST.rowMs, logicalReads: 1 + pages(rows) });
  return rs;
}

/** The batch statement by statement: what each returned, its errors, and the rest unless an error ends the batch. */
function runStatements(c: BatchCall, parts: () => Parts): ResponseItem[] {
  const out: ResponseItem[] = [];
  let cached: Parts | undefined;
  const direct = () => (cached ??= parts());
  // The knob that makes a monitor expensive (--watcher-cost-ms), charged before the batch reads its own row.
  if (c.model.watcherCostMs > 0) charge(c.model, c.session, { cpuMs: c.model.watcherCostMs });
  for (const s of statements(c.text)) {
    try {
      const item = runStatement(c, s, direct);
      if (item) out.push(item);
      if (item?.kind === 'error') break;
    } catch (e) {
      if (!(e instanceof SqlError)) throw e;
      out.push(...e.messages);
      if (endsBatch(c, e)) break;
    }
  }
  return out;
}

const tickDelta: BatchHandler = (c) => {
  const top = checkWatch(c);
  c.model.advance();
  return runStatements(c, () => watchParts(c, top) as unknown as Parts);
};

export const DELTA_HANDLERS: Record<string, BatchHandler[]> = {
  'watch/tick-delta': [tickDelta],
};
