// Column-type shorthands and the shape of a modelled system view.
import type { Column, SqlType, Value } from '../tds/contract';
import type { SessionContext } from '../tds/contract';
import type { SimModel } from './instance';

export const T = {
  bit: { type: 'bit' } as SqlType,
  tinyint: { type: 'tinyint' } as SqlType,
  smallint: { type: 'smallint' } as SqlType,
  int: { type: 'int' } as SqlType,
  bigint: { type: 'bigint' } as SqlType,
  real: { type: 'real' } as SqlType,
  float: { type: 'float' } as SqlType,
  datetime: { type: 'datetime' } as SqlType,
  datetime2: { type: 'datetime2', scale: 7 } as SqlType,
  nvarchar: (length: number | 'max'): SqlType => ({ type: 'nvarchar', length }),
  nchar: (length: number): SqlType => ({ type: 'nchar', length }),
  varchar: (length: number): SqlType => ({ type: 'varchar', length }),
  char: (length: number): SqlType => ({ type: 'char', length }),
  varbinary: (length: number | 'max'): SqlType => ({ type: 'varbinary', length }),
  sysname: { type: 'nvarchar', length: 128 } as SqlType,
};

export function cols(spec: [string, SqlType, boolean?][]): Column[] {
  return spec.map(([name, sqlType, nullable]) => ({ name, sqlType, nullable: nullable ?? true }));
}

export interface QueryContext {
  model: SimModel;
  session: SessionContext;
}

/** Who may read a view: server state, database state, or anyone. */
export type ViewScope = 'server' | 'database' | 'public';

export interface SystemView {
  name: string; // lower case, 'sys.dm_os_spinlock_stats'
  scope: ViewScope;
  columns(ctx: QueryContext): Column[];
  /** args: the table-valued function's evaluated arguments (null for a view). */
  rows(ctx: QueryContext, args: Value[] | null): Value[][];
}

/** The type a parameter's value arrives with (RPC parameters are typed on the wire): a number stays a number. */
export function wireType(v: Value): SqlType {
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? T.int : T.float;
  if (typeof v === 'bigint') return T.bigint;
  if (typeof v === 'boolean') return T.bit;
  if (v instanceof Date) return T.datetime2;
  if (Buffer.isBuffer(v)) return T.varbinary('max');
  return T.nvarchar(4000);
}

/** An 8-byte address-looking varbinary, stable per key. */
export function addr(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(0x000001a2_00000000n + BigInt(n) * 0x40n);
  return b;
}

export function pad(s: string, n = 128): string {
  return s.padEnd(n, ' ');
}
