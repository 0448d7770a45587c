// Helpers shared by the per-file handlers.
import { SqlError, err } from '../errors';
import type { Database } from '../instance';
import { runSelect } from '../select';
import { parseStatement } from '../sqlparse';
import type { BatchCall } from '../statements';
import type { Column, ResultSet, Value } from '../../tds/contract';

export function param(call: BatchCall, name: string): Value {
  return call.params.get(name.toLowerCase()) ?? null;
}
export function strParam(call: BatchCall, name: string): string | null {
  const v = param(call, name);
  return v === null ? null : String(v);
}
export function throwUser(number: number, message: string): never {
  throw new SqlError([err(number, message, 16, 1)]);
}
/** Runs one simple statement of a file through the mini SELECT engine (same permission checks as ad hoc). */
export function select(call: BatchCall, sql: string): ResultSet {
  const st = parseStatement(sql);
  if (st.kind !== 'select') throw new Error('select() expects a SELECT');
  return runSelect(call, st);
}
export function resultSet(columns: Column[], rows: Value[][]): ResultSet {
  return { kind: 'resultSet', columns, rows };
}
export function requireDb(call: BatchCall, name: string | null): Database {
  const db = name ? call.model.database(name) : undefined;
  if (!db) throwUser(911, `Database '${name ?? ''}' does not exist. Make sure that the name is entered correctly.`);
  return db;
}
export function currentDb(call: BatchCall): Database {
  return requireDb(call, call.session.database);
}
/** DROP ... IF EXISTS for the named objects of the current database. */
export function dropObjects(call: BatchCall, names: string[]): void {
  const db = currentDb(call);
  for (const n of names) db.objects.delete(call.model.findObject(db, n) ? normalise(n) : normalise(n));
}
function normalise(n: string): string {
  const parts = n.toLowerCase().split('.');
  return parts.length === 1 ? `dbo.${parts[0]}` : parts.slice(-2).join('.');
}
