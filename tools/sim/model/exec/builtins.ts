// The built-in scalar functions and @@ variables the product's reading statements call, typed as SQL Server types
// them (docs of each function). A name not here is refused with SQL Server's Msg 195 rather than guessed at.
import type { SqlType } from '../../tds/contract';
import { appLockMode } from '../applocks';
import { hashBytes, substring } from '../binaryFns';
import { findView, systemView } from '../views';
import { serverGlobal, serverProperty } from '../serverInfo';
import { createHash } from 'node:crypto';
import { hasPermsByName } from './perms';
import { T } from '../types';
import type { ExecContext } from './context';
import { stringFn } from './stringFns';
import { databaseFn } from './dbScope';
import { compareTyped, fail, higher, Typed } from './values';

export function globalVar(ctx: ExecContext, name: string): Typed | undefined {
  return name === '@@rowcount' ? { v: ctx.rowCount, type: T.int } : serverGlobal(ctx, name);
}

/** Bytes per value of the fixed-length types (docs: each type's storage size). */
const FIXED: Record<string, number> = {
  bigint: 8,
  int: 4,
  smallint: 2,
  tinyint: 1,
  bit: 1,
  float: 8,
  real: 4,
  datetime: 8,
  date: 3,
  uniqueidentifier: 16,
};

/**
 * COL_LENGTH('table', 'column') of a catalog view: its defined length in bytes (nvarchar(128): 256; max: -1), NULL when
 * the view has no such column in this version (docs: COL_LENGTH). User tables are not modelled: refused.
 */
function colLength(ctx: ExecContext, table: string | null, column: string | null): Typed {
  if (table === null || column === null) return { v: null, type: T.smallint };
  const v = findView(table);
  if (!v) fail(50000, `The Spinlock Lab simulator (synthetic numbers, not a SQL Server) does not support COL_LENGTH of ${table}`);
  const c = v.columns(ctx).find((x) => x.name.toLowerCase() === column.toLowerCase());
  const t = c?.sqlType;
  if (!t) return { v: null, type: T.smallint };
  const len = 'length' in t ? t.length : undefined;
  const bytes =
    len === 'max'
      ? -1
      : len !== undefined
        ? t.type === 'nvarchar' || t.type === 'nchar'
          ? len * 2
          : len
        : t.type === 'decimal'
          ? 1 + 4 * Math.ceil(t.precision / 9.5)
          : (FIXED[t.type] ?? null);
  return { v: bytes, type: T.smallint };
}

/** ERROR_*() inside a CATCH block: the error it handles; NULL anywhere else (docs: ERROR_NUMBER). */
function errorFn(ctx: ExecContext, name: string): Typed {
  const e = ctx.errors[ctx.errors.length - 1];
  if (name === 'ERROR_MESSAGE') return { v: e?.message ?? null, type: T.nvarchar(4000) };
  if (name === 'ERROR_PROCEDURE') return { v: e?.procedure ?? null, type: T.nvarchar(128) };
  const v = !e ? null : name === 'ERROR_NUMBER' ? e.number : name === 'ERROR_SEVERITY' ? e.severity : e.state;
  return { v, type: T.int };
}

const str = (x: Typed | undefined): string | null => (x === undefined || x.v === null ? null : String(x.v));
/** RTRIM/LTRIM/UPPER/LOWER return varchar or nvarchar of the argument's length. */
const trimType = (t: SqlType): SqlType =>
  t.type === 'nchar' || t.type === 'nvarchar'
    ? T.nvarchar('length' in t ? t.length : 4000)
    : t.type === 'char' || t.type === 'varchar'
      ? ({ type: 'varchar', length: 'length' in t ? t.length : 8000 } as SqlType)
      : T.nvarchar(4000);

/**
 * OBJECT_ID('name' [, 'type']): a user object of the current database, or a system view this server has (at its version
 * and platform: sys.dm_os_host_info is not there before 2017), whose ids are negative. A type that does not match gives
 * NULL (docs: OBJECT_ID); system views are type V.
 */
function objectId(ctx: ExecContext, name: string | null, type: string | null | undefined): Typed {
  const out = (id: number | undefined, t: string) =>
    ({
      v: id !== undefined && (type === undefined || (type !== null && type.trim().toUpperCase() === t)) ? id : null,
      type: T.int,
    }) as Typed;
  if (name === null) return out(undefined, '');
  const parts = name.toLowerCase().split('.');
  if (parts.length >= 2 && parts[parts.length - 2] === 'sys') {
    const v = systemView(ctx, name);
    return out(v ? -(createHash('md5').update(v.name).digest().readUInt32BE(0) % 1_000_000_000) - 1 : undefined, 'V');
  }
  const d = ctx.model.database(ctx.session.database);
  const o = d ? ctx.model.findObject(d, name) : undefined;
  return out(o?.objectId, o?.type ?? '');
}

export function scalarFn(ctx: ExecContext, name: string, args: Typed[]): Typed {
  const m = ctx.model;
  const need = (n: number) => {
    if (args.length !== n) fail(174, `The ${name.toLowerCase()} function requires ${n} argument(s).`, 15, 1);
  };
  switch (name) {
    case 'SERVERPROPERTY': {
      need(1);
      const p = serverProperty(ctx, str(args[0]) ?? '');
      return { v: p.v, type: { type: 'sql_variant' } };
    }
    case 'DB_NAME': {
      const d =
        args.length && args[0].v !== null ? m.databaseById(Number(args[0].v)) : args.length ? undefined : m.database(ctx.session.database);
      return { v: d?.name ?? null, type: T.nvarchar(128) };
    }
    case 'DB_ID': {
      const d = args.length ? (args[0].v === null ? undefined : m.database(String(args[0].v))) : m.database(ctx.session.database);
      return { v: d?.id ?? null, type: T.int };
    }
    case 'OBJECT_ID':
      return objectId(ctx, str(args[0]), args.length > 1 ? str(args[1]) : undefined);
    case 'SUSER_SNAME':
    case 'SUSER_NAME':
    case 'ORIGINAL_LOGIN':
    case 'SYSTEM_USER':
      return { v: ctx.session.login, type: T.nvarchar(128) };
    case 'HAS_PERMS_BY_NAME':
      return hasPermsByName(ctx, args.map(str));
    case 'SYSUTCDATETIME':
    case 'SYSDATETIME':
      return { v: new Date(m.clock.now()), type: T.datetime2 };
    case 'GETDATE':
    case 'GETUTCDATE':
    case 'CURRENT_TIMESTAMP':
      return { v: new Date(m.clock.now()), type: T.datetime };
    case 'ISNULL':
      need(2);
      return { v: args[0].v === null ? args[1].v : args[0].v, type: args[0].type };
    case 'COALESCE': {
      const type = args.reduce((t, a) => higher(t, a.type), args[0].type);
      return { v: args.find((a) => a.v !== null)?.v ?? null, type };
    }
    case 'NULLIF':
      need(2);
      return { v: compareTyped(args[0], args[1]) === 0 ? null : args[0].v, type: args[0].type };
    case 'RTRIM':
      return { v: str(args[0])?.replace(/ +$/, '') ?? null, type: trimType(args[0].type) };
    case 'LTRIM':
      return { v: str(args[0])?.replace(/^ +/, '') ?? null, type: trimType(args[0].type) };
    case 'UPPER':
      return { v: str(args[0])?.toUpperCase() ?? null, type: trimType(args[0].type) };
    case 'LOWER':
      return { v: str(args[0])?.toLowerCase() ?? null, type: trimType(args[0].type) };
    case 'LEN':
      // Trailing blanks do not count (docs: LEN).
      return { v: str(args[0])?.replace(/ +$/, '').length ?? null, type: T.int };
    case 'CHARINDEX': {
      const find = str(args[0]),
        within = str(args[1]);
      const maxType = 'length' in args[1].type && args[1].type.length === 'max';
      const type = maxType ? T.bigint : T.int;
      if (find === null || within === null) return { v: null, type };
      const from = args[2] && args[2].v !== null ? Math.max(1, Number(args[2].v)) - 1 : 0;
      // The default collation is case-insensitive.
      const at = within.toLowerCase().indexOf(find.toLowerCase(), from) + 1;
      return { v: maxType ? BigInt(at) : at, type };
    }
    case 'HASHBYTES':
      need(2);
      return hashBytes(args[0], args[1]);
    case 'SUBSTRING':
      need(3);
      return substring(args[0], args[1], args[2]);
    case 'ABS': {
      const x = args[0];
      if (x.v === null) return x;
      return { v: typeof x.v === 'bigint' ? (x.v < 0n ? -x.v : x.v) : Math.abs(Number(x.v)), type: x.type };
    }
    case 'ERROR_NUMBER':
    case 'ERROR_SEVERITY':
    case 'ERROR_STATE':
    case 'ERROR_MESSAGE':
    case 'ERROR_PROCEDURE':
      return errorFn(ctx, name);
    case 'COL_LENGTH':
      need(2);
      return colLength(ctx, str(args[0]), str(args[1]));
    case 'APPLOCK_MODE': {
      need(3);
      const [p, r, o] = args.map(str);
      return { v: p === null || r === null || o === null ? null : appLockMode(m, ctx.session, p, r, o), type: T.nvarchar(32) };
    }
    default:
      return (
        stringFn(name, args) ?? databaseFn(ctx, name, args) ?? fail(195, `'${name}' is not a recognized built-in function name.`, 15, 10)
      );
  }
}
