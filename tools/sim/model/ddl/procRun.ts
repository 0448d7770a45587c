// Calling a stored procedure the executor created: its plan (procPlan.ts) is read from the stored body at each call,
// so the catalog as it is then (a table re-created with another durability) counts, and it drives the contention model.
import type { ResponseItem, SqlType } from '../../tds/contract';
import type { WorkloadProfile } from '../contention';
import { err, SqlError, unsupported } from '../errors';
import type { ProcCall, SimObject } from '../instance';
import { cols, T } from '../types';
import { BodyError } from './body';
import { Bound, planProcedure, ProcPlan, Unit } from './procPlan';

const value = (call: ProcCall, name: string): unknown => call.params.get(name)?.value ?? null;

/** A bound as the call gives it: null when the parameter is NULL (a loop bounded by NULL runs no iteration). */
function resolve(call: ProcCall, b: Bound): number | null {
  if ('literal' in b) return Number.isFinite(b.literal) ? b.literal : null;
  const v = value(call, b.param);
  return v === null ? null : Number(v);
}
const product = (call: ProcCall, bs: Bound[]): number => bs.reduce((n, b) => n * Math.max(0, resolve(call, b) ?? 0), 1);

const active = (call: ProcCall, u: Unit): boolean => u.guards.every((g) => (String(value(call, g.param) ?? '\0') === g.value) !== g.neg);

const sqlTypeOf = (t: string): SqlType => (t.startsWith('bigint') ? T.bigint : T.int);

function profileOf(u: Unit, call: ProcCall): WorkloadProfile {
  return {
    engine: u.table.memoryOptimized ? 'xtp' : 'disk',
    access: u.native ? 'native' : 'interpreted',
    operation: u.operation,
    rowsPerTxn: Math.max(1, product(call, u.rowsPerTxn)),
    slotSource: u.slotSource,
    tableDurability: u.table.durability ?? 'SCHEMA_AND_DATA',
  };
}

function plan(call: ProcCall, obj: SimObject): ProcPlan {
  try {
    return planProcedure(call.model, call.db, obj);
  } catch (e) {
    if (!(e instanceof BodyError)) throw e;
    if (e.message.startsWith('Invalid object name') || e.message.startsWith('Could not find')) {
      throw new SqlError([err(e.message.startsWith('Invalid') ? 208 : 2812, e.message, 16, 1)]);
    }
    throw new SqlError([unsupported(`procedure ${obj.name}: ${e.message}`)]);
  }
}

export async function runProcedure(call: ProcCall, obj: SimObject): Promise<ResponseItem[]> {
  const p = plan(call, obj);
  const units = p.units.filter((u) => active(call, u));
  const out: ResponseItem[] = [];
  let rows = 0;
  if (units.length > 0) {
    const profiles = units.map((u) => JSON.stringify({ ...profileOf(u, call), table: u.table.objectId }));
    if (new Set(profiles).size > 1) throw new SqlError([unsupported(`procedure ${obj.name}: writes of different kinds in one call`)]);
    const u = units[0];
    const prof = profileOf(u, call);
    const perCall = units.reduce((n, x) => n + product(call, x.txnsPerCall) * product(call, x.rowsPerTxn), 0);
    const target = p.server
      ? {
          rows: p.server.rows ? resolve(call, { param: p.server.rows }) : null,
          durationMs: p.server.durationMs ? resolve(call, { param: p.server.durationMs }) : null,
        }
      : { rows: perCall, durationMs: null, perCall: true };
    if (!p.server && perCall === 0) rows = 0;
    else {
      const r = await call.model.runWorkload(call.session, call.db, u.table.name, prof, target, call.signal);
      if (r.aborted) return [];
      rows = r.rows;
    }
  }
  if (p.result) {
    const big = p.result.type.startsWith('bigint');
    out.push({ kind: 'resultSet', columns: cols([[p.result.column, sqlTypeOf(p.result.type)]]), rows: [[big ? BigInt(rows) : rows]] });
  }
  // An OUTPUT parameter the body sets reports the operations the call made (@pushed, @ops).
  for (const o of p.outputs) out.push({ kind: 'outputValue', name: o.name, sqlType: sqlTypeOf(o.type), value: rows });
  out.push({ kind: 'returnStatus', value: 0 });
  return out;
}
