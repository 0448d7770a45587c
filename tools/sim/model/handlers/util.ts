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
/** The batch's statements split on ';' (the sql/ files end each statement with one). */
export function statements(text: string): string[] {
  return text
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.replace(/--.*$/gm, '').trim() !== '');
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
