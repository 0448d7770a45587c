// INSERT ... SELECT's source counted without being built: the lab seeds a table with a tally (TOP (@n) over CTEs of
// cross-joined VALUES, numbered by ROW_NUMBER() OVER (ORDER BY (SELECT NULL))) whose product is 16^7 rows. For that
// shape the count is computed (a cross join's is the product of its sides', TOP's the smaller of its value and its
// input's) and any row can be produced by its position, so the caller evaluates all rows when they are few and a sample
// when they are many. A shape whose count needs its rows (WHERE, GROUP BY, DISTINCT, ORDER BY, a window ordered by a
// column...) is not lazy: the caller runs it as a query, which materialises it (query.ts refuses a too large join).
import type { Column, Value } from '../../tds/contract';
import { SqlError, unsupported } from '../errors';
import type { Expr, OrderItem, Query, SelectCore, TableRef } from './ast';
import { Env, evaluate, ExecContext, hasAggregate, Source } from './env';
import { fromItem } from './query';
import { fail } from './values';

/** A relation known by its count and a function from a position (0-based, in the query's order) to the row there. */
export interface Lazy {
  cols: Column[];
  count: number;
  row(i: number): Value[];
}

interface LazyFrom {
  sources: Source[];
  count: number;
  row(i: number): Value[][];
}

/** q as a lazy relation, or null when its shape needs its rows to be counted. */
export function lazyQuery(ctx: ExecContext, q: Query, ctes: ReadonlyMap<string, Lazy> = new Map()): Lazy | null {
  if (q.orderBy.length || q.body.kind !== 'select') return null;
  const scope = new Map(ctes);
  for (const c of q.ctes) {
    const r = lazyQuery(ctx, c.q, scope);
    if (!r) return null;
    scope.set(c.name, c.colNames ? { ...r, cols: r.cols.map((col, i) => ({ ...col, name: c.colNames![i] ?? col.name })) } : r);
  }
  return lazyCore(ctx, q.body, scope);
}

function product(a: LazyFrom, b: LazyFrom): LazyFrom {
  const count = a.count * b.count;
  if (!Number.isSafeInteger(count)) throw new SqlError([unsupported(`a cross join of ${count} rows`)]);
  return {
    sources: [...a.sources, ...b.sources],
    count,
    // Left side outer, right side inner: the order the executor's nested loops produce (query.ts).
    row: (i) => [...a.row(Math.floor(i / b.count)), ...b.row(i % b.count)],
  };
}

function lazyRef(ctx: ExecContext, ref: TableRef, ctes: ReadonlyMap<string, Lazy>): LazyFrom | null {
  if (ref.kind === 'named' && !ref.name.includes('.') && ctes.has(ref.name.toLowerCase())) {
    const c = ctes.get(ref.name.toLowerCase())!;
    const source = { alias: ref.alias?.toLowerCase() ?? '', table: ref.name.toLowerCase(), cols: c.cols };
    return { sources: [source], count: c.count, row: (i) => [c.row(i)] };
  }
  if (ref.kind === 'derived') {
    const d = lazyQuery(ctx, ref.q, ctes);
    if (!d) return null;
    const cols = ref.colNames ? d.cols.map((c, i) => ({ ...c, name: ref.colNames![i] ?? c.name })) : d.cols;
    return { sources: [{ alias: ref.alias.toLowerCase(), table: '', cols }], count: d.count, row: (i) => [d.row(i)] };
  }
  if (ref.kind === 'join') {
    if (ref.type !== 'cross') return null;
    const l = lazyRef(ctx, ref.left, ctes),
      r = l && lazyRef(ctx, ref.right, ctes);
    return l && r ? product(l, r) : null;
  }
  // VALUES, a view, a #temp table, a table variable: read as the executor reads them.
  const j = fromItem(ctx, ref, undefined, false);
  return { sources: j.sources, count: j.rows.length, row: (i) => j.rows[i] };
}

/** An expression whose value no row changes: a window ordered by it keeps the rows in the order they come. */
function constant(e: Expr): boolean {
  switch (e.t) {
    case 'lit':
    case 'var':
      return true;
    case 'neg':
    case 'cast':
      return constant(e.e);
    case 'subq':
      return e.q.body.kind === 'select' && e.q.body.from.length === 0 && e.q.body.items.every((i) => !!i.expr && constant(i.expr));
    default:
      return false;
  }
}

function windowsOf(x: unknown, out: OrderItem[][] = []): OrderItem[][] {
  if (Array.isArray(x)) x.forEach((y) => windowsOf(y, out));
  else if (x && typeof x === 'object') {
    const o = x as { t?: string; over?: OrderItem[] };
    if (o.t === 'subq' || o.t === 'exists') return out;
    if (o.t === 'fn' && o.over) out.push(o.over);
    Object.values(o).forEach((y) => windowsOf(y, out));
  }
  return out;
}

function lazyCore(ctx: ExecContext, core: SelectCore, ctes: ReadonlyMap<string, Lazy>): Lazy | null {
  if (core.distinct || core.where || core.groupBy.length || core.having || core.into) return null;
  if (core.items.some((i) => hasAggregate(i.expr))) return null;
  // ROW_NUMBER() is the row's position only when its order is constant; ordered by a column it needs every row.
  if (windowsOf(core.items).some((w) => !w.every((o) => constant(o.expr)))) return null;
  let from: LazyFrom = { sources: [], count: 1, row: () => [] };
  for (const f of core.from) {
    const x = lazyRef(ctx, f, ctes);
    if (!x) return null;
    from = product(from, x);
  }
  const { sources } = from;
  const nullRow = sources.map((s) => s.cols.map(() => null));
  const envOf = (row: Value[][], rowNumber?: number): Env => ({ ctx, sources, row, typing: false, rowNumber });
  const cols: Column[] = [];
  const getters: ((env: Env) => Value)[] = [];
  for (const item of core.items) {
    if (item.star) {
      if (sources.length === 0) fail(263, 'Must specify table to select from.');
      const q = item.star.qual;
      sources.forEach((s, si) => {
        if (q && q !== s.alias && !(s.alias === '' && s.table.split('.').pop() === q)) return;
        s.cols.forEach((c, ci) => {
          cols.push(c);
          getters.push((env) => env.row[si][ci]);
        });
      });
      continue;
    }
    const e = item.expr!;
    const t = evaluate({ ...envOf(nullRow), typing: true }, e);
    cols.push({ name: item.alias ?? (e.t === 'col' ? (t.name ?? e.name) : ''), sqlType: t.type, nullable: t.nullable !== false });
    getters.push((env) => evaluate(env, e).v);
  }
  let count = from.count;
  if (core.top) {
    const n = evaluate(envOf(nullRow), core.top).v;
    if (n === null || Number(n) < 0)
      fail(1060, 'The number of rows provided for a TOP or FETCH clauses row count parameter must be an integer.');
    count = Math.min(count, Number(n));
  }
  return {
    cols,
    count,
    row: (i) => {
      const env = envOf(from.row(i), i + 1);
      return getters.map((g) => g(env));
    },
  };
}
