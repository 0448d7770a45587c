// What the requests running now are doing, for sys.dm_exec_requests, sys.dm_os_waiting_tasks and
// sys.dm_exec_sql_text: each workload call's current wait drawn from the model's wait rates (synthetic; a third of the
// time running), drawn once per instant so that every view read at the same time tells the same story, and the text
// behind each request's sql_handle.
import { createHash } from 'node:crypto';
import type { SqlType, Value } from '../tds/contract';
import type { SimModel } from './instance';
import { logWriterSchedulers } from './dmvOs';
import { addr, cols, QueryContext, SystemView, T } from './types';

export interface Drawn {
  waitType: string | null;
  waitMs: number;
}

const draws = new WeakMap<SimModel, { at: number; by: Map<number, Drawn> }>();

/** The current wait of the workload call with this id, drawn once per model instant. */
export function currentWait(m: SimModel, callId: number): Drawn {
  const now = m.clock.now();
  let d = draws.get(m);
  if (!d || d.at !== now) draws.set(m, (d = { at: now, by: new Map() }));
  let w = d.by.get(callId);
  if (!w) {
    const waits = [...m.currentRates().waits].filter(([, x]) => x.ms > 0).sort((a, b) => b[1].ms - a[1].ms);
    const totalMs = waits.reduce((a, [, x]) => a + x.ms, 0);
    let r = m.random() * totalMs * 1.5; // a third of the time running, not waiting
    let waitType: string | null = null;
    for (const [name, x] of waits) {
      r -= x.ms;
      if (r <= 0) {
        waitType = name;
        break;
      }
    }
    w = { waitType, waitMs: waitType ? Math.floor(m.random() * 3) : 0 };
    d.by.set(callId, w);
  }
  return w;
}

/** The statement text of a workload call: a --background session's, or its procedure call. */
export function callText(m: SimModel, call: { spid: number; table: string }): string {
  return m.background.get(call.spid)?.text ?? `EXEC (a workload procedure writing ${call.table})`;
}

/** query_hash: 8 bytes of the text's SHA-256 (synthetic: SQL Server hashes the plan's shape). */
export const queryHash = (text: string): Buffer => createHash('sha256').update(text).digest().subarray(0, 8);

export const BINARY8: SqlType = { type: 'binary', length: 8 } as SqlType;

/** The system sessions with requests of their own (the log writers), ids from 2: never user processes. */
export function systemSpids(c: QueryContext): number[] {
  return logWriterSchedulers(c).map((_, i) => 2 + i);
}

const sqlText: SystemView = {
  name: 'sys.dm_exec_sql_text',
  scope: 'server',
  columns: () =>
    cols([
      ['dbid', T.smallint],
      ['objectid', T.int],
      ['number', T.smallint],
      ['encrypted', T.bit],
      ['text', T.nvarchar('max')],
    ]),
  rows: (c, args) => {
    const m = c.model;
    const handle = args?.[0];
    if (!Buffer.isBuffer(handle)) return [];
    const call = m.workloads.active().find((a) => addr(a.id).equals(handle));
    return call ? [[m.database(call.database)?.id ?? null, null, null, false, callText(m, call)]] : [];
  },
};

const waitingTasks: SystemView = {
  name: 'sys.dm_os_waiting_tasks',
  scope: 'server',
  columns: () =>
    cols([
      ['waiting_task_address', T.varbinary(8)],
      ['session_id', T.smallint],
      ['exec_context_id', T.int],
      ['wait_duration_ms', T.bigint],
      ['wait_type', T.nvarchar(60)],
      ['resource_address', T.varbinary(8)],
      ['blocking_task_address', T.varbinary(8)],
      ['blocking_session_id', T.smallint],
    ]),
  rows: (c) => {
    const m = c.model;
    const out: Value[][] = systemSpids(c).map((spid, i) => [
      addr(900 + i),
      spid,
      0,
      BigInt(Math.floor(m.random() * 5)),
      'LOGMGR_QUEUE',
      null,
      null,
      null,
    ]);
    for (const a of m.workloads.active()) {
      if (a.spid === c.session.spid) continue;
      const w = currentWait(m, a.id);
      if (w.waitType) out.push([addr(a.id + 11), a.spid, 0, BigInt(w.waitMs), w.waitType, null, null, null]);
    }
    return out;
  },
};

export const REQUEST_VIEWS: SystemView[] = [sqlText, waitingTasks];
