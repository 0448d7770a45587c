// Expression evaluation over a row of one or more sources (FROM items), with SQL Server's three-valued logic: a
// comparison with NULL is unknown, WHERE and ON keep only rows whose predicate is true, NOT unknown stays unknown.
import { err, SqlError } from '../errors';
import { T, wireType } from '../types';
import type { Expr, Query } from './ast';
import { globalVar, scalarFn } from './builtins';
import { nextValue } from './serverStmts';
import { arithmetic, bool, castTo, compareTyped, fail, higher, isInteger, negate, truthy, Typed } from './values';

export type { Env, ExecContext, Relation, Source } from './context';
import type { Env, ExecContext, Source } from './context';
import type { Value } from '../../tds/contract';

export const AGGREGATES = new Set(['COUNT', 'COUNT_BIG', 'SUM', 'MIN', 'MAX', 'AVG']);

export function hasAggregate(e: Expr | undefined): boolean {
  if (!e) return false;
  switch (e.t) {
    case 'fn':
      return AGGREGATES.has(e.name) || e.args.some(hasAggregate);
    case 'cast':
    case 'neg':
    case 'not':
    case 'isnull':
      return hasAggregate(e.e);
    case 'bin':
    case 'and':
    case 'or':
      return hasAggregate(e.a) || hasAggregate(e.b);
    case 'like':
      return hasAggregate(e.e) || hasAggregate(e.pat);
    case 'in':
      return hasAggregate(e.e) || e.list.some(hasAggregate);
    case 'between':
      return hasAggregate(e.e) || hasAggregate(e.lo) || hasAggregate(e.hi);
    case 'case':
      return hasAggregate(e.operand) || hasAggregate(e.else) || e.whens.some((w) => hasAggregate(w.when) || hasAggregate(w.then));
    default:
      return false;
  }
}

/** Where a name binds in one scope's sources: how many columns match, the one that did, whether the qualifier named a source. */
interface Binding {
  hits: number;
  s: number;
  c: number;
  qualified: boolean;
}

/**
 * Bindings by scope (its sources array, built once per query) and name: an expression is evaluated for every row, and
 * its columns bind the same way each time. The length guards against a list that grew after a lookup.
 */
const bindings = new WeakMap<Source[], { length: number; names: Map<string, Binding> }>();

function bind(sources: Source[], qual: string | undefined, name: string): Binding {
  let known = bindings.get(sources);
  if (!known || known.length !== sources.length) bindings.set(sources, (known = { length: sources.length, names: new Map() }));
  const key = `${qual ?? ''}\u0000${name}`;
  let b = known.names.get(key);
  if (b) return b;
  b = { hits: 0, s: -1, c: -1, qualified: false };
  sources.forEach((src, si) => {
    const named = src.alias === qual || (src.alias === '' && src.table.split('.').pop() === qual);
    if (qual && named) b!.qualified = true;
    if (qual && !named) return;
    src.cols.forEach((c, ci) => {
      if (c.name.toLowerCase() !== name) return;
      b!.hits++;
      b!.s = si;
      b!.c = ci;
    });
  });
  known.names.set(key, b);
  return b;
}

function column(env: Env, qual: string | undefined, name: string): Typed {
  for (let e: Env | undefined = env; e; e = e.outer) {
    const b = bind(e.sources, qual, name);
    if (b.hits > 1) fail(209, `Ambiguous column name '${name}'.`);
    if (b.hits === 1) {
      const c = e.sources[b.s].cols[b.c];
      return { v: e.row[b.s]?.[b.c] ?? null, type: c.sqlType, name: c.name, nullable: c.nullable !== false };
    }
    if (b.qualified) fail(207, `Invalid column name '${name}'.`);
  }
  if (qual) fail(4104, `The multi-part identifier "${qual}.${name}" could not be bound.`);
  return fail(207, `Invalid column name '${name}'.`);
}

function variable(ctx: ExecContext, name: string): Typed {
  const d = ctx.vars.get(name);
  if (d) return d;
  if (ctx.params.has(name)) {
    const v = ctx.params.get(name) ?? null;
    // Parameters arrive typed: the value's own type.
    return { v, type: wireType(v) };
  }
  const g = globalVar(ctx, name);
  if (g) return g;
  throw new SqlError([err(137, `Must declare the scalar variable "${name}".`, 15, 2)]);
}

/** A literal typed as SQL Server types it: 1 int, 3000000000 numeric(10,0), 1.5 numeric(2,1), 1e3 float, N'a' nvarchar(1). */
function literal(e: Extract<Expr, { t: 'lit' }>): Typed {
  const v = e.v;
  if (v === null) return { v: null, type: T.int };
  if (typeof v === 'string')
    return { v, type: e.unicode ? T.nvarchar(Math.max(1, v.length)) : T.varchar(Math.max(1, v.length)), nullable: false };
  if (Buffer.isBuffer(v)) return { v, type: T.varbinary(Math.max(1, v.length)), nullable: false };
  const text = e.text ?? String(v);
  if (/e/i.test(text)) return { v, type: T.float, nullable: false };
  if (!text.includes('.') && Number(v) <= 2147483647) return { v, type: T.int, nullable: false };
  const [int, frac = ''] = text.split('.');
  const precision = Math.max(1, int.replace(/^0+/, '').length + frac.length);
  // An integer literal past 2^53 keeps every digit (9223372036854775807 must still fit bigint exactly).
  const exact = !frac && !Number.isSafeInteger(Number(v)) && /^\d+$/.test(int) ? BigInt(int) : Number(v);
  return { v: exact, type: { type: 'decimal', precision, scale: frac.length }, nullable: false };
}

function aggregate(env: Env, e: Extract<Expr, { t: 'fn' }>): Typed {
  if (!env.group)
    fail(
      147,
      'An aggregate may not appear in the WHERE clause unless it is in a subquery contained in a HAVING clause or a select list, and the column being aggregated is an outer reference.',
    );
  const rows = env.group;
  const argOf = (r: Value[][]) => evaluate({ ...env, row: r, group: undefined }, e.args[0]);
  if (e.name === 'COUNT' || e.name === 'COUNT_BIG') {
    const type = e.name === 'COUNT' ? T.int : T.bigint;
    let n = 0;
    const seen = new Set<string>();
    for (const r of rows) {
      if (e.star) n++;
      else {
        const x = argOf(r);
        if (x.v === null) continue;
        if (e.distinct) {
          const k = String(x.v).toLowerCase();
          if (seen.has(k)) continue;
          seen.add(k);
        }
        n++;
      }
    }
    if (type === T.int && n > 2147483647) fail(8115, 'Arithmetic overflow error converting expression to data type int.', 16, 2);
    return { v: type === T.int ? n : BigInt(n), type };
  }
  const argType = argOf(env.sources.map((s) => s.cols.map(() => null))).type;
  // SUM and AVG of tinyint/smallint/int give int, of bigint bigint (docs: SUM); MIN and MAX keep the type.
  const type = (e.name === 'SUM' || e.name === 'AVG') && isInteger(argType) ? (argType.type === 'bigint' ? T.bigint : T.int) : argType;
  const vals = rows.map(argOf).filter((x) => x.v !== null);
  if (vals.length === 0) return { v: null, type };
  if (e.name === 'MIN' || e.name === 'MAX') {
    const sign = e.name === 'MIN' ? -1 : 1;
    let best = vals[0];
    for (const x of vals) if ((compareTyped(x, best) ?? 0) * sign > 0) best = x;
    return { v: best.v, type };
  }
  let acc: Typed = { v: isInteger(type) ? (type.type === 'bigint' ? 0n : 0) : 0, type };
  for (const x of vals) acc = arithmetic('+', acc, { v: x.v, type: isInteger(type) ? type : x.type });
  if (e.name === 'AVG') return arithmetic('/', acc, { v: vals.length, type: T.int });
  return { v: acc.v, type };
}

function scalarSubquery(env: Env, q: Query): Typed {
  const r = env.ctx.run(q, env, env.typing);
  if (r.cols.length !== 1)
    fail(116, 'Only one expression can be specified in the select list when the subquery is not introduced with EXISTS.');
  if (r.rows.length > 1)
    fail(
      512,
      'Subquery returned more than 1 value. This is not permitted when the subquery follows =, !=, <, <= , >, >= or when the subquery is used as an expression.',
    );
  return { v: r.rows[0]?.[0] ?? null, type: r.cols[0].sqlType };
}

/** ROW_NUMBER() OVER (...): bigint, never NULL (docs: ROW_NUMBER); only the select list numbers rows (Msg 4108). */
function rowNumber(env: Env): Typed {
  if (env.rowNumber !== undefined) return { v: BigInt(env.rowNumber), type: T.bigint, nullable: false };
  if (env.typing) return { v: null, type: T.bigint, nullable: false };
  return fail(4108, 'Windowed functions can only appear in the SELECT or ORDER BY clauses.');
}

/** Whether e holds a window function (ROW_NUMBER() OVER ...). */
export function hasWindow(e: unknown): boolean {
  if (Array.isArray(e)) return e.some(hasWindow);
  if (!e || typeof e !== 'object') return false;
  const x = e as { t?: string; over?: unknown };
  if (x.t === 'subq' || x.t === 'exists') return false; // a subquery numbers its own rows
  return (x.t === 'fn' && !!x.over) || Object.values(x).some(hasWindow);
}

export function evaluate(env: Env, e: Expr): Typed {
  switch (e.t) {
    case 'lit':
      return literal(e);
    case 'col':
      return column(env, e.qual, e.name);
    case 'var':
      return variable(env.ctx, e.name);
    case 'fn': {
      if (e.over) return rowNumber(env);
      if (AGGREGATES.has(e.name)) return aggregate(env, e);
      return scalarFn(
        env.ctx,
        e.name,
        e.args.map((a) => evaluate(env, a)),
      );
    }
    case 'nextval':
      // Typing a column (no row yet) must not draw.
      return env.typing ? { v: null, type: T.bigint } : nextValue(env.ctx, e.seq);
    case 'cast': {
      const style = e.style ? evaluate(env, e.style).v : null;
      const x = evaluate(env, e.e);
      if (!e.try) return castTo(x, e.type, style === null ? null : Number(style));
      try {
        return castTo(x, e.type, style === null ? null : Number(style));
      } catch (ex) {
        if (ex instanceof SqlError) return castTo({ v: null, type: x.type }, e.type);
        throw ex;
      }
    }
    case 'neg':
      return negate(evaluate(env, e.e));
    case 'not': {
      const x = evaluate(env, e.e).v;
      return bool(x === null ? null : !truthy(x));
    }
    case 'and': {
      const a = evaluate(env, e.a).v;
      if (a !== null && !truthy(a)) return bool(false);
      const b = evaluate(env, e.b).v;
      if (b !== null && !truthy(b)) return bool(false);
      return bool(a === null || b === null ? null : true);
    }
    case 'or': {
      const a = evaluate(env, e.a).v;
      if (a !== null && truthy(a)) return bool(true);
      const b = evaluate(env, e.b).v;
      if (b !== null && truthy(b)) return bool(true);
      return bool(a === null || b === null ? null : false);
    }
    case 'isnull':
      return bool((evaluate(env, e.e).v === null) !== e.neg);
    case 'like': {
      const x = evaluate(env, e.e),
        p = evaluate(env, e.pat);
      if (x.v === null || p.v === null) return bool(null);
      // Trailing blanks stay significant when either side is Unicode (docs: LIKE); nchar columns arrive padded.
      const unicode = [x.type, p.type].some((t) => t.type === 'nvarchar' || t.type === 'nchar');
      const s = String(x.v);
      return bool(likeRegex(String(p.v)).test(unicode ? s : s.replace(/ +$/, '')) !== e.neg);
    }
    case 'in': {
      const x = evaluate(env, e.e);
      if (x.v === null) return bool(null);
      let unknown = false;
      for (const l of e.list) {
        const c = compareTyped(x, evaluate(env, l));
        if (c === 0) return bool(!e.neg);
        if (c === null) unknown = true;
      }
      return bool(unknown ? null : e.neg);
    }
    case 'between': {
      const x = evaluate(env, e.e);
      const lo = compareTyped(x, evaluate(env, e.lo)),
        hi = compareTyped(x, evaluate(env, e.hi));
      if (lo === null || hi === null) return bool(null);
      return bool(lo >= 0 && hi <= 0 ? !e.neg : e.neg);
    }
    case 'exists':
      return bool(env.ctx.run(e.q, env, env.typing).rows.length > 0);
    case 'subq':
      return scalarSubquery(env, e.q);
    case 'case': {
      const thens = [...e.whens.map((w) => w.then), ...(e.else ? [e.else] : [])];
      const typed = thens.map((t) => evaluate({ ...env, typing: true, row: nullRow(env), group: [] }, t));
      const type = typed.map((t) => t.type).reduce((a, b) => higher(a, b));
      // NOT NULL only when there is an ELSE and no branch can be NULL.
      const nullable = !e.else || typed.some((t) => t.nullable !== false);
      const op = e.operand ? evaluate(env, e.operand) : undefined;
      for (const w of e.whens) {
        const hit = op ? compareTyped(op, evaluate(env, w.when)) === 0 : truthy(evaluate(env, w.when).v);
        if (hit) return { v: evaluate(env, w.then).v, type, nullable };
      }
      return { v: e.else ? evaluate(env, e.else).v : null, type, nullable };
    }
    case 'bin': {
      const a = evaluate(env, e.a),
        b = evaluate(env, e.b);
      if (['=', '<>', '<', '>', '<=', '>='].includes(e.op)) {
        const c = compareTyped(a, b);
        if (c === null) return bool(null);
        return bool({ '=': c === 0, '<>': c !== 0, '<': c < 0, '>': c > 0, '<=': c <= 0, '>=': c >= 0 }[e.op] ?? false);
      }
      return arithmetic(e.op, a, b);
    }
  }
}

const nullRow = (env: Env): Value[][] => env.sources.map((s) => s.cols.map(() => null));

/** Compiled LIKE patterns: a monitor's tick tests the same few patterns against hundreds of rows every second. */
const likeCache = new Map<string, RegExp>();

function likeRegex(p: string): RegExp {
  let r = likeCache.get(p);
  if (!r) {
    if (likeCache.size >= 512) likeCache.clear();
    likeCache.set(p, (r = compileLike(p)));
  }
  return r;
}

function compileLike(p: string): RegExp {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else if (c === '[') {
      const end = p.indexOf(']', i + 1);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      const body = p.slice(i + 1, end);
      re += `[${body.startsWith('^') ? '^' + body.slice(1).replace(/[\\\]]/g, '\\$&') : body.replace(/[\\\]]/g, '\\$&')}]`;
      i = end;
    } else re += c.replace(/[.*+?^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}
