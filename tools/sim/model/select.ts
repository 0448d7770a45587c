// Evaluates the small SELECTs sqlparse.ts understands: probes without FROM, and one modelled view or function.
import { sessionState } from './sessionState';
import { CATALOG_VIEWS } from './dmvCatalog';
import { IO_VIEWS, dataPath } from './dmvDb';
import { OS_VIEWS } from './dmvOs';
import { SESSION_VIEWS } from './dmvSessions';
import { REQUEST_VIEWS } from './dmvRequests';
import { XE_VIEWS } from './dmvXe';
import { LOCK_VIEWS } from './dmvLocks';
import { HOST_VIEWS } from './dmvHost';
import { databaseStateDenied, err, serverStateDenied, SqlError } from './errors';
import type { Permission } from './instance';
import type { Expr, Select } from './sqlparse';
import { QueryContext, SystemView, T, wireType } from './types';
import type { Column, ResultSet, SqlType, Value } from '../tds/contract';
import { conformToCatalog } from '../catalog';
import { tempView } from './tempstore';
import { binaryToInteger, hashBytes, substring } from './binaryFns';

// Each view serves the columns Microsoft's docs give it at the simulator's version (tools/sim/catalog/columns.json).
export const VIEWS = new Map<string, SystemView>(
  [...OS_VIEWS, ...IO_VIEWS, ...CATALOG_VIEWS, ...XE_VIEWS, ...SESSION_VIEWS, ...REQUEST_VIEWS, ...LOCK_VIEWS, ...HOST_VIEWS].map((v) => [
    v.name,
    conformToCatalog(v),
  ]),
);

export function findView(name: string): SystemView | undefined {
  const n = name
    .toLowerCase()
    .replace(/^master\./, '')
    .replace(/^\w+\.sys\./, 'sys.');
  return VIEWS.get(n.startsWith('sys.') ? n : `sys.${n}`);
}

/** A system view as this server has it: none where the catalogue gives it no columns at its version or platform. */
export function systemView(ctx: QueryContext, name: string): SystemView | undefined {
  const v = findView(name);
  return v && v.columns(ctx).length > 0 ? v : undefined;
}

/** Checks the caller may read the view; throws the Msg 300/297 pair otherwise. */
export function checkViewPermission(ctx: QueryContext, v: SystemView): void {
  if (v.scope === 'server' && !ctx.model.canViewServerState(ctx.session.login)) throw new SqlError(serverStateDenied(ctx.model));
  if (v.scope === 'database') {
    const perm: Permission = ctx.model.version >= 16 ? 'VIEW DATABASE PERFORMANCE STATE' : 'VIEW DATABASE STATE';
    if (!ctx.model.hasPermission(ctx.session.login, perm)) throw new SqlError(databaseStateDenied(ctx.model, ctx.session.database));
  }
}

interface Row {
  cols: Column[];
  vals: Value[];
  alias?: string;
  view?: string;
}

export function runSelect(ctx: QueryContext, q: Select): ResultSet {
  let source: Row[] = [{ cols: [], vals: [] }];
  let viewCols: Column[] = [];
  if (q.from) {
    const v = q.from.name.startsWith('#') ? tempView(ctx.session, q.from.name) : findView(q.from.name);
    if (!v) throw new SqlError([err(208, `Invalid object name '${q.from.name}'.`)]);
    checkViewPermission(ctx, v);
    ctx.model.advance();
    const args = q.from.args ? q.from.args.map((a) => evalExpr(ctx, a, { cols: [], vals: [] }).v) : null;
    viewCols = v.columns(ctx);
    source = v.rows(ctx, args).map((vals) => ({ cols: viewCols, vals, alias: q.from!.alias?.toLowerCase(), view: v.name }));
  }
  let rows = q.where ? source.filter((r) => truthy(evalExpr(ctx, q.where!, r).v)) : source;
  if (q.orderBy.length) {
    const keyed = rows.map((r) => ({ r, k: q.orderBy.map((o) => evalExpr(ctx, o.expr, r).v) }));
    keyed.sort((a, b) => {
      for (let i = 0; i < q.orderBy.length; i++) {
        const c = compare(a.k[i], b.k[i]);
        if (c !== 0) return q.orderBy[i].desc ? -c : c;
      }
      return 0;
    });
    rows = keyed.map((x) => x.r);
  }
  if (q.top !== null) rows = rows.slice(0, q.top);
  // Output columns: * expands to the view's columns; an expression takes its alias, its column name, or ''.
  const outCols: Column[] = [];
  const getters: ((r: Row) => Value)[] = [];
  const sample: Row = rows[0] ?? { cols: viewCols, vals: viewCols.map(() => null) };
  for (const item of q.items) {
    if (item.star) {
      if (!q.from) throw new SqlError([err(263, 'Must specify table to select from.')]);
      viewCols.forEach((c, i) => {
        outCols.push(c);
        getters.push((r) => r.vals[i]);
      });
      continue;
    }
    const e = item.expr!;
    const typed = evalExpr(ctx, e, sample);
    outCols.push({
      name: item.alias ?? (e.t === 'col' ? (typed.name ?? e.name) : ''),
      sqlType: typed.type,
      nullable: typed.nullable !== false,
    });
    getters.push((r) => evalExpr(ctx, e, r).v);
  }
  return { kind: 'resultSet', columns: outCols, rows: rows.map((r) => getters.map((g) => g(r))) };
}

/** nullable: false for what SQL Server types NOT NULL (literals, NOT NULL columns); defaults to nullable. */
interface Typed {
  v: Value;
  type: SqlType;
  name?: string;
  nullable?: boolean;
}

/** A literal typed as SQL Server types it: 1 int, 3000000000 numeric(10,0), 1.5 numeric(2,1), 1e3 float, 'a' varchar(1). */
export function literal(e: { v: null | number | string; text?: string; unicode?: boolean }): Typed {
  if (e.v === null) return { v: null, type: T.int };
  if (typeof e.v === 'string') {
    const length = Math.max(1, e.v.length);
    return { v: e.v, type: e.unicode ? T.nvarchar(length) : T.varchar(length), nullable: false };
  }
  const text = e.text ?? String(e.v);
  if (/e/i.test(text)) return { v: e.v, type: T.float, nullable: false };
  const [int, frac = ''] = text.split('.');
  if (!text.includes('.') && e.v <= 2147483647) return { v: e.v, type: T.int, nullable: false };
  const intDigits = int.replace(/^0+/, '').length;
  const scale = frac.length;
  const precision = Math.max(1, intDigits + scale);
  if (precision > 38) return { v: e.v, type: T.float, nullable: false };
  const exact = `${int.replace(/^0+(?=\d)/, '') || '0'}${frac ? `.${frac}` : ''}`;
  return { v: exact, type: { type: 'decimal', precision, scale }, nullable: false };
}

function truthy(v: Value): boolean {
  return v === true || v === 1;
}

function compare(a: Value, b: Value): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') {
    const x = a.trimEnd().toLowerCase(),
      y = b.trimEnd().toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = typeof a === 'bigint' ? Number(a) : a instanceof Date ? a.getTime() : Number(a);
  const y = typeof b === 'bigint' ? Number(b) : b instanceof Date ? b.getTime() : Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function likeToRegex(p: string): RegExp {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '.';
    else if (c === '[') {
      const e = p.indexOf(']', i);
      re += p
        .slice(i, e + 1)
        .replace('[^', '[^')
        .replace(/\\/g, '\\\\');
      i = e;
    } else re += c.replace(/[.*+?^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}

const bool = (b: boolean | null): Typed => ({ v: b === null ? null : b ? 1 : 0, type: T.bit });

export function evalExpr(ctx: QueryContext, e: Expr, row: Row): Typed {
  switch (e.t) {
    case 'lit':
      return literal(e);
    case 'col': {
      if (e.qual && row.alias && e.qual !== row.alias && !(row.view ?? '').endsWith(e.qual))
        throw new SqlError([err(4104, `The multi-part identifier "${e.qual}.${e.name}" could not be bound.`)]);
      const i = row.cols.findIndex((c) => c.name.toLowerCase() === e.name);
      if (i < 0) throw new SqlError([err(207, `Invalid column name '${e.name}'.`)]);
      return { v: row.vals[i], type: row.cols[i].sqlType, name: row.cols[i].name, nullable: row.cols[i].nullable !== false };
    }
    case 'var':
      return builtinVar(ctx, e.name);
    case 'fn':
      return builtinFn(
        ctx,
        e.name,
        e.args.map((a) => evalExpr(ctx, a, row)),
      );
    case 'cast':
      return castTo(evalExpr(ctx, e.e, row), e.type);
    case 'neg': {
      const x = evalExpr(ctx, e.e, row);
      const v =
        x.v === null
          ? null
          : typeof x.v === 'bigint'
            ? -x.v
            : typeof x.v === 'string' && x.type.type === 'decimal'
              ? x.v.startsWith('-')
                ? x.v.slice(1)
                : `-${x.v}`
              : -Number(x.v);
      return { v, type: x.type, nullable: x.nullable };
    }
    case 'not': {
      const x = evalExpr(ctx, e.e, row).v;
      return bool(x === null ? null : !truthy(x));
    }
    case 'isnull':
      return bool((evalExpr(ctx, e.e, row).v === null) !== e.neg);
    case 'like': {
      const x = evalExpr(ctx, e.e, row).v,
        p = evalExpr(ctx, e.pat, row).v;
      if (x === null || p === null) return bool(null);
      // LIKE on Unicode data (nchar/nvarchar) keeps trailing blanks significant; on non-Unicode data they are not
      // (docs: LIKE, "Pattern matching by using LIKE"). So an nchar(128) name padded with blanks does not match '%:Databases'.
      const xt = evalExpr(ctx, e.e, row).type,
        pt = evalExpr(ctx, e.pat, row).type;
      const unicode = [xt, pt].some((t) => t.type === 'nvarchar' || t.type === 'nchar');
      return bool(likeToRegex(String(p)).test(unicode ? String(x) : String(x).trimEnd()) !== e.neg);
    }
    case 'in': {
      const x = evalExpr(ctx, e.e, row).v;
      if (x === null) return bool(null);
      return bool(e.list.some((l) => compare(x, evalExpr(ctx, l, row).v) === 0) !== e.neg);
    }
    case 'bin': {
      const a = evalExpr(ctx, e.a, row),
        b = evalExpr(ctx, e.b, row);
      if (e.op === 'and') return bool(a.v === null || b.v === null ? (a.v === 0 || b.v === 0 ? false : null) : truthy(a.v) && truthy(b.v));
      if (e.op === 'or') return bool(truthy(a.v) || truthy(b.v) ? true : a.v === null || b.v === null ? null : false);
      if (e.op === '+' || e.op === '-') {
        if (a.v === null || b.v === null) return { v: null, type: a.type };
        if (typeof a.v === 'string' && e.op === '+') return { v: a.v + String(b.v), type: T.nvarchar(4000) };
        return { v: e.op === '+' ? Number(a.v) + Number(b.v) : Number(a.v) - Number(b.v), type: a.type };
      }
      if (e.op === '*' || e.op === '/' || e.op === '%') return arithmetic(e.op, a, b);
      if (a.v === null || b.v === null) return bool(null);
      const c = compare(a.v, b.v);
      return bool({ '=': c === 0, '<>': c !== 0, '<': c < 0, '>': c > 0, '<=': c <= 0, '>=': c >= 0 }[e.op] ?? false);
    }
  }
}

const INTEGER = new Set(['tinyint', 'smallint', 'int', 'bigint', 'bit']);

/** * / % on numbers: integer division and modulo when both sides are integers, Msg 8134 for a zero divisor. */
function arithmetic(op: string, a: Typed, b: Typed): Typed {
  const ints = INTEGER.has(a.type.type) && INTEGER.has(b.type.type);
  const type = ints ? (a.type.type === 'bigint' || b.type.type === 'bigint' ? T.bigint : T.int) : T.float;
  if (a.v === null || b.v === null) return { v: null, type };
  const x = Number(a.v),
    y = Number(b.v);
  if (op !== '*' && y === 0) throw new SqlError([err(8134, 'Divide by zero error encountered.', 16, 1)]);
  if (op === '*') return { v: x * y, type };
  if (op === '/') return { v: ints ? Math.trunc(x / y) : x / y, type };
  return { v: x % y, type };
}

function castTo(x: Typed, type: string): Typed {
  const r = castValue(x, type);
  return { ...r, nullable: x.nullable };
}

function castValue(x: Typed, type: string): Typed {
  const m = /^(\w+)(?:\((\w+)(?:,(\d+))?\))?$/.exec(type);
  const base = m?.[1] ?? type;
  const len = m?.[2] === 'max' ? 'max' : m?.[2] ? Number(m[2]) : 30;
  if (base === 'decimal' || base === 'numeric') {
    // decimal defaults to (18,0) (docs: decimal and numeric).
    const precision = m?.[2] ? Number(m[2]) : 18;
    const scale = m?.[3] ? Number(m[3]) : 0;
    const t: SqlType = { type: 'decimal', precision, scale };
    if (x.v === null) return { v: null, type: t };
    const n = Number(x.v);
    if (!Number.isFinite(n)) throw new SqlError([err(8114, `Error converting data type ${x.type.type} to numeric.`, 16, 5)]);
    const fixed = n.toFixed(scale);
    if (fixed.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length > precision) {
      throw new SqlError([err(8115, 'Arithmetic overflow error converting numeric to data type numeric.', 16, 2)]);
    }
    return { v: fixed, type: t };
  }
  if (x.v === null) return { v: null, type: sqlTypeOf(base, len) };
  if (Buffer.isBuffer(x.v) && ['int', 'smallint', 'tinyint', 'bigint'].includes(base))
    return { v: binaryToInteger(x.v, base), type: sqlTypeOf(base, len) };
  if (['int', 'smallint', 'tinyint', 'bigint', 'bit'].includes(base)) {
    const n = Math.trunc(Number(x.v));
    return { v: base === 'bigint' ? BigInt(n) : base === 'bit' ? n !== 0 : n, type: sqlTypeOf(base, len) };
  }
  if (['nvarchar', 'varchar', 'nchar', 'char', 'sysname'].includes(base)) {
    const s = x.v instanceof Date ? x.v.toISOString() : String(x.v);
    return { v: len === 'max' ? s : s.slice(0, len), type: sqlTypeOf(base, len) };
  }
  return { v: x.v, type: sqlTypeOf(base, len) };
}

function sqlTypeOf(base: string, len: number | 'max'): SqlType {
  switch (base) {
    case 'int':
    case 'smallint':
    case 'tinyint':
    case 'bigint':
    case 'bit':
    case 'real':
    case 'float':
    case 'datetime':
      return { type: base } as SqlType;
    case 'sysname':
      return T.sysname;
    case 'nvarchar':
    case 'varchar':
    case 'nchar':
    case 'char':
      return { type: base, length: len } as SqlType;
    default:
      return T.nvarchar(4000);
  }
}

function sqlVariant(x: Typed): Typed {
  return { v: x.v, type: { type: 'sql_variant' } };
}

/** The server's global variables both the single-table SELECTs and the executor answer (exec/builtins.ts). */
export function serverGlobal(ctx: QueryContext, name: string): Typed | undefined {
  const m = ctx.model;
  switch (name) {
    case '@@version':
      return { v: versionBanner(ctx), type: T.nvarchar(300) };
    case '@@spid':
      return { v: ctx.session.spid, type: T.smallint };
    case '@@servername':
      return { v: m.serverName, type: T.nvarchar(128) };
    case '@@trancount':
      return { v: sessionState(ctx.session).tranCount, type: T.int };
    case '@@language':
      return { v: 'us_english', type: T.nvarchar(128) };
    case '@@microsoftversion':
      return { v: m.productMajor * 16777216, type: T.int };
    default:
      return undefined;
  }
}

function builtinVar(ctx: QueryContext, name: string): Typed {
  const known = serverGlobal(ctx, name);
  if (known) return known;
  const params = (ctx as { params?: Map<string, Value> }).params;
  if (params?.has(name)) {
    const v = params.get(name) ?? null;
    // The value's own type (parameters arrive typed): a number stays a number in arithmetic and results.
    return { v, type: wireType(v) };
  }
  throw new SqlError([err(137, `Must declare the scalar variable "${name}".`, 15, 2)]);
}

export function versionBanner(ctx: QueryContext): string {
  const v = ctx.model.versionInfo;
  if (ctx.model.managedInstance) {
    return (
      `Microsoft SQL Azure (RTM) - ${v.build} (X64) \n\tSpinlock Lab simulator imitating Azure SQL Managed Instance: synthetic numbers, not a SQL Server\n` +
      '\tCopyright (C) 2022 Microsoft Corporation\n'
    );
  }
  return (
    `Microsoft SQL Server ${v.year} (Spinlock Lab simulator: synthetic numbers, not a SQL Server) - ${v.build} (X64) \n` +
    `\tSpinlock Lab simulated instance\n\tSpinlock Lab Simulator Edition (64-bit) on Simulated Windows Server 2022 <X64>\n`
  );
}

export function serverProperty(ctx: QueryContext, prop: string): Typed {
  const m = ctx.model;
  const s = (v: string | null): Typed => ({ v, type: T.nvarchar(128) });
  const i = (v: number | null): Typed => ({ v, type: T.int });
  switch (prop.toLowerCase()) {
    case 'productversion':
      return s(m.versionInfo.build);
    case 'productmajorversion':
      return s(String(m.productMajor));
    case 'productminorversion':
      return s('0');
    case 'productlevel':
      return s('RTM');
    // Managed Instance: 'SQL Azure' and EngineEdition 8 (SERVERPROPERTY; T-SQL differences page, System functions).
    case 'edition':
      return s(m.managedInstance ? 'SQL Azure' : 'Spinlock Lab Simulator Edition (64-bit)');
    case 'engineedition':
      return i(m.managedInstance ? 8 : 3); // 3: Enterprise-class engine, every feature the lab uses
    case 'editionid':
      return i(-1);
    case 'isxtpsupported':
      return i(1);
    // Managed Instance places every file itself (T-SQL differences page): no path to give.
    case 'instancedefaultdatapath':
      return s(m.managedInstance ? null : dataPath(m));
    case 'instancedefaultlogpath':
      return s(m.managedInstance ? null : dataPath(m));
    case 'machinename':
      return s(m.serverName);
    case 'servername':
      return s(m.serverName);
    case 'instancename':
      return s(null);
    case 'isclustered':
    case 'ishadrenabled':
    case 'issingleuser':
      return i(0);
    case 'collation':
      return s('SQL_Latin1_General_CP1_CI_AS');
    case 'processid':
      return i(process.pid);
    default:
      return s(null);
  }
}

function builtinFn(ctx: QueryContext, name: string, args: Typed[]): Typed {
  const m = ctx.model;
  const a = (k: number) => args[k]?.v ?? null;
  switch (name) {
    // SERVERPROPERTY returns sql_variant (docs: SERVERPROPERTY); serverProperty() gives each property's base type.
    case 'SERVERPROPERTY':
      return sqlVariant(serverProperty(ctx, String(a(0) ?? '')));
    case 'DB_NAME': {
      const d = args.length && a(0) !== null ? m.databaseById(Number(a(0))) : m.database(ctx.session.database);
      return { v: d?.name ?? null, type: T.nvarchar(128) };
    }
    case 'DB_ID': {
      const d = args.length ? (a(0) === null ? undefined : m.database(String(a(0)))) : m.database(ctx.session.database);
      return { v: d?.id ?? null, type: T.smallint };
    }
    case 'SUSER_SNAME':
    case 'SUSER_NAME':
    case 'ORIGINAL_LOGIN':
    case 'SYSTEM_USER':
      return { v: ctx.session.login, type: T.nvarchar(128) };
    case 'USER_NAME':
      return { v: 'dbo', type: T.nvarchar(128) };
    case 'HOST_NAME':
      return { v: ctx.session.hostName, type: T.nvarchar(128) };
    case 'APP_NAME':
      return { v: ctx.session.appName, type: T.nvarchar(128) };
    case 'HAS_PERMS_BY_NAME': {
      const perm = String(a(2) ?? '').toUpperCase();
      return { v: m.hasPermission(ctx.session.login, perm as Permission) ? 1 : 0, type: T.int };
    }
    case 'IS_SRVROLEMEMBER': {
      const l = m.logins.get(ctx.session.login.toLowerCase());
      return { v: String(a(0)).toLowerCase() === 'sysadmin' && l?.permissions === 'all' ? 1 : 0, type: T.int };
    }
    case 'OBJECT_ID': {
      const d = m.database(ctx.session.database);
      const o = d ? m.findObject(d, String(a(0) ?? '')) : undefined;
      return { v: o?.objectId ?? null, type: T.int };
    }
    case 'GETDATE':
    case 'CURRENT_TIMESTAMP':
      return { v: new Date(m.clock.now()), type: T.datetime };
    case 'GETUTCDATE':
      return { v: new Date(m.clock.now()), type: T.datetime };
    case 'SYSUTCDATETIME':
    case 'SYSDATETIME':
      return { v: new Date(m.clock.now()), type: T.datetime2 };
    case 'RTRIM':
      return { v: a(0) === null ? null : String(a(0)).trimEnd(), type: T.nvarchar(4000) };
    case 'LTRIM':
      return { v: a(0) === null ? null : String(a(0)).trimStart(), type: T.nvarchar(4000) };
    case 'ISNULL':
      return a(0) === null ? args[1] : args[0];
    case 'HASHBYTES':
      return hashBytes(args[0], args[1]);
    case 'SUBSTRING':
      return substring(args[0], args[1], args[2]);
    default:
      throw new SqlError([err(195, `'${name}' is not a recognized built-in function name.`, 15, 10)]);
  }
}
