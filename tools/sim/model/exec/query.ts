// SELECT over the modelled views, table-valued functions, #temp tables, CTEs, derived tables and VALUES: joins, WHERE,
// GROUP BY / HAVING with aggregates, DISTINCT, ORDER BY, TOP, and UNION [ALL] / EXCEPT / INTERSECT. Result columns
// take their types from the catalogue (a column) or the expression, evaluated once over a row of NULLs.
import type { Column, Value } from '../../tds/contract';
import { err, SqlError, unsupported } from '../errors';
import { checkViewPermission, systemView } from '../views';
import { inNamedDatabase } from './dbScope';
import { tempView } from '../tempstore';
import type { SystemView } from '../types';
import type { Expr, OrderItem, Query, QueryBody, SelectCore, TableRef } from './ast';
import { Env, evaluate, ExecContext, hasAggregate, hasWindow, Relation } from './env';
import { compareTyped, fail, higher, truthy, Typed } from './values';
import { hashJoin, keyOf, type Joined } from './hashJoin';

/**
 * The most rows a join may build: the executor materialises what it reads, so a larger product (a tally of cross
 * joins) is refused rather than exhausting memory; INSERT ... SELECT counts such a product without building it (lazy.ts).
 */
export const MAX_JOINED = 1_000_000;

function guardProduct(a: number, b: number): void {
  if (a * b > MAX_JOINED)
    throw new SqlError([unsupported(`a join of ${a * b} rows (the simulator materialises at most ${MAX_JOINED} rows of a FROM)`)]);
}

function named(scope: ExecContext, ref: Extract<TableRef, { kind: 'named' }>, outer: Env | undefined, typing: boolean): Joined {
  const ctx = inNamedDatabase(scope, ref.name);
  const name = ref.name.toLowerCase();
  const alias = ref.alias?.toLowerCase() ?? '';
  const cte = !name.includes('.') ? ctx.ctes.get(name) : undefined;
  if (cte) return { sources: [{ alias, table: name, cols: cte.cols }], rows: cte.rows.map((r) => [r]) };
  const v = name.startsWith('#')
    ? tempView(ctx.session, ref.name)
    : name.startsWith('@')
      ? tableVariable(ctx, name)
      : systemView(ctx, name);
  if (!v) {
    const db = ctx.model.database(ctx.session.database);
    if (db && ctx.model.findObject(db, ref.name)) throw new SqlError([unsupported(`FROM ${ref.name} (user tables)`)]);
    throw new SqlError([err(208, `Invalid object name '${ref.name}'.`, 16, 1)]);
  }
  const cols = v.columns(ctx);
  if (typing) return { sources: [{ alias, table: v.name, cols }], rows: [] };
  checkViewPermission(ctx, v);
  // The model moves on once per batch, at its first read: the batch's reads see one instant (and a batch of many
  // reads does not run the contention model once per read).
  if (!scope.advanced) scope.model.advance();
  scope.advanced = true;
  const env: Env = { ctx, sources: [], row: [], outer, typing };
  const args = ref.args ? ref.args.map((a) => evaluate(env, a).v) : null;
  const rows = v.rows(ctx, args);
  ctx.work.read += rows.length;
  return { sources: [{ alias, table: v.name, cols }], rows: rows.map((r) => [r]) };
}

/** A table variable as a FROM source (Msg 1087 when the scope has not declared it). */
function tableVariable(ctx: ExecContext, name: string): SystemView {
  const t = ctx.tables.get(name);
  if (!t) fail(1087, `Must declare the table variable "${name}".`, 15, 2);
  return { name: t.name, scope: 'public', columns: () => t.columns, rows: () => t.rows.map((r) => [...r]) };
}

export function fromItem(ctx: ExecContext, ref: TableRef, outer: Env | undefined, typing: boolean): Joined {
  switch (ref.kind) {
    case 'named':
      return named(ctx, ref, outer, typing);
    case 'derived': {
      const r = runQuery(ctx, ref.q, undefined, typing);
      const cols = ref.colNames ? r.cols.map((c, i) => ({ ...c, name: ref.colNames![i] ?? c.name })) : r.cols;
      return { sources: [{ alias: ref.alias.toLowerCase(), table: '', cols }], rows: r.rows.map((x) => [x]) };
    }
    case 'values': {
      const env: Env = { ctx, sources: [], row: [], outer, typing };
      const typed = ref.rows.map((r) => r.map((e) => evaluate(env, e)));
      if (typed.some((r) => r.length !== ref.colNames.length))
        fail(8158, `'${ref.alias}' has more columns than were specified in the column list.`);
      const cols: Column[] = ref.colNames.map((name, i) => ({
        name,
        sqlType: typed.map((r) => r[i].type).reduce((a, b) => higher(a, b)),
        nullable: typed.some((r) => r[i].v === null),
      }));
      return { sources: [{ alias: ref.alias.toLowerCase(), table: '', cols }], rows: typed.map((r) => [r.map((x) => x.v)]) };
    }
    case 'join': {
      if (ref.type === 'cross apply' || ref.type === 'outer apply') return apply(ctx, ref, outer, typing);
      const l = fromItem(ctx, ref.left, outer, typing),
        r = fromItem(ctx, ref.right, outer, typing);
      // The outer join's inner side can come back NULL whatever its columns allow.
      if (ref.type === 'left') r.sources = r.sources.map((s) => ({ ...s, cols: s.cols.map((c) => ({ ...c, nullable: true })) }));
      const sources = [...l.sources, ...r.sources];
      const rows: Value[][][] = [];
      const nulls = r.sources.map((s) => s.cols.map(() => null));
      const hashed = hashJoin(ctx, ref, l, r, outer, typing);
      if (!hashed) guardProduct(l.rows.length, r.rows.length);
      for (const a of l.rows) {
        let matched = false;
        for (const b of hashed ? (hashed(a) ?? []) : r.rows) {
          const row = [...a, ...b];
          if (ref.on && !truthy(evaluate({ ctx, sources, row, outer, typing }, ref.on).v)) continue;
          matched = true;
          rows.push(row);
        }
        if (!matched && ref.type === 'left') rows.push([...a, ...nulls]);
      }
      if (ref.on) evaluate({ ctx, sources, row: sources.map((s) => s.cols.map(() => null)), outer, typing: true }, ref.on);
      return { sources, rows };
    }
  }
}

/**
 * CROSS / OUTER APPLY: the right side evaluated once per left row, its arguments seeing that row; OUTER keeps a left
 * row the right side gives nothing for, with NULLs.
 */
function apply(ctx: ExecContext, ref: Extract<TableRef, { kind: 'join' }>, outer: Env | undefined, typing: boolean): Joined {
  const l = fromItem(ctx, ref.left, outer, typing);
  const envOf = (row: Value[][]): Env => ({ ctx, sources: l.sources, row, outer, typing });
  const shape = fromItem(ctx, ref.right, envOf(l.sources.map((s) => s.cols.map(() => null))), true);
  const right =
    ref.type === 'outer apply' ? shape.sources.map((s) => ({ ...s, cols: s.cols.map((c) => ({ ...c, nullable: true })) })) : shape.sources;
  const nulls = right.map((s) => s.cols.map(() => null));
  const rows: Value[][][] = [];
  for (const a of typing ? [] : l.rows) {
    const r = fromItem(ctx, ref.right, envOf(a), false);
    for (const b of r.rows) rows.push([...a, ...b]);
    if (r.rows.length === 0 && ref.type === 'outer apply') rows.push([...a, ...nulls]);
  }
  return { sources: [...l.sources, ...right], rows };
}

/** Msg 8120 for a column used outside an aggregate and not grouped by. */
function checkGrouped(e: Expr | undefined, groupBy: Expr[]): void {
  if (!e) return;
  if (groupBy.some((g) => JSON.stringify(g) === JSON.stringify(e))) return;
  switch (e.t) {
    case 'col':
      fail(
        8120,
        `Column '${e.qual ? `${e.qual}.` : ''}${e.name}' is invalid in the select list because it is not contained in either an aggregate function or the GROUP BY clause.`,
      );
      break;
    case 'fn':
      if (!['COUNT', 'COUNT_BIG', 'SUM', 'MIN', 'MAX', 'AVG'].includes(e.name)) e.args.forEach((a) => checkGrouped(a, groupBy));
      break;
    case 'cast':
    case 'neg':
    case 'not':
    case 'isnull':
      checkGrouped(e.e, groupBy);
      break;
    case 'bin':
    case 'and':
    case 'or':
      checkGrouped(e.a, groupBy);
      checkGrouped(e.b, groupBy);
      break;
    case 'like':
      checkGrouped(e.e, groupBy);
      checkGrouped(e.pat, groupBy);
      break;
    case 'in':
      [e.e, ...e.list].forEach((x) => checkGrouped(x, groupBy));
      break;
    case 'between':
      [e.e, e.lo, e.hi].forEach((x) => checkGrouped(x, groupBy));
      break;
    case 'case':
      [e.operand, e.else, ...e.whens.flatMap((w) => [w.when, w.then])].forEach((x) => checkGrouped(x, groupBy));
      break;
  }
}

function runCore(ctx: ExecContext, core: SelectCore, outer: Env | undefined, typing: boolean, orderBy: OrderItem[]): Relation {
  if (core.into) throw new SqlError([unsupported('SELECT ... INTO')]);
  let joined: Joined = { sources: [], rows: [[]] };
  for (const f of core.from) {
    const next = fromItem(ctx, f, outer, typing);
    const rows: Value[][][] = [];
    guardProduct(joined.rows.length, next.rows.length);
    for (const a of joined.rows) for (const b of next.rows) rows.push([...a, ...b]);
    joined = { sources: [...joined.sources, ...next.sources], rows };
  }
  const { sources } = joined;
  const envOf = (row: Value[][], group?: Value[][][]): Env => ({ ctx, sources, row, group, outer, typing });
  const nullRow = sources.map((s) => s.cols.map(() => null));
  if (core.where) evaluate({ ...envOf(nullRow), typing: true }, core.where); // binds its names even when no row arrives
  let rows = core.where ? joined.rows.filter((r) => truthy(evaluate(envOf(r), core.where!).v)) : joined.rows;
  if (typing) rows = [];
  const grouped = core.groupBy.length > 0 || core.items.some((i) => hasAggregate(i.expr)) || hasAggregate(core.having);
  let units: Env[];
  if (grouped) {
    for (const i of core.items) {
      if (i.star)
        fail(
          8120,
          `Column '${sources[0]?.cols[0]?.name ?? '*'}' is invalid in the select list because it is not contained in either an aggregate function or the GROUP BY clause.`,
        );
      checkGrouped(i.expr, core.groupBy);
    }
    const groups = new Map<string, Value[][][]>();
    if (core.groupBy.length === 0) groups.set('', rows);
    for (const r of core.groupBy.length ? rows : []) {
      const k = keyOf(core.groupBy.map((g) => evaluate(envOf(r), g).v));
      const g = groups.get(k);
      if (g) g.push(r);
      else groups.set(k, [r]);
    }
    units = [...groups.values()].map((g) => envOf(g[0] ?? nullRow, g));
    if (core.having) units = units.filter((u) => truthy(evaluate(u, core.having!).v));
  } else units = rows.map((r) => envOf(r));
  if (core.items.some((i) => hasWindow(i.expr))) numberRows(core, units);

  // Output columns, typed over a row of NULLs.
  const typer = envOf(nullRow, grouped ? [] : undefined);
  const cols: Column[] = [];
  const getters: ((u: Env) => Value)[] = [];
  for (const item of core.items) {
    if (item.star) {
      const q = item.star.qual;
      if (sources.length === 0) fail(263, 'Must specify table to select from.');
      sources.forEach((s, si) => {
        if (q && q !== s.alias && !(s.alias === '' && s.table.split('.').pop() === q)) return;
        s.cols.forEach((c, ci) => {
          cols.push(c);
          getters.push((u) => u.row[si][ci]);
        });
      });
      continue;
    }
    const e = item.expr!;
    const t: Typed = evaluate({ ...typer, typing: true }, e);
    cols.push({ name: item.alias ?? (e.t === 'col' ? (t.name ?? e.name) : ''), sqlType: t.type, nullable: t.nullable !== false });
    getters.push((u) => evaluate(u, e).v);
  }
  let out = units.map((u) => ({ u, vals: getters.map((g) => g(u)) }));
  if (core.distinct) {
    const seen = new Set<string>();
    out = out.filter((o) => {
      const k = keyOf(o.vals);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  if (orderBy.length) {
    const keyed = out.map((o) => ({ o, k: orderBy.map((ob) => orderKey(ob.expr, cols, o.vals, o.u)) }));
    keyed.sort((a, b) => {
      for (let i = 0; i < orderBy.length; i++) {
        const c = compareTyped(a.k[i], b.k[i]) ?? (a.k[i].v === null ? (b.k[i].v === null ? 0 : -1) : 1);
        if (c !== 0) return orderBy[i].desc ? -c : c;
      }
      return 0;
    });
    out = keyed.map((x) => x.o);
  }
  if (core.top) {
    const n = evaluate(envOf(nullRow), core.top).v;
    if (n === null || Number(n) < 0)
      fail(1060, 'The number of rows provided for a TOP or FETCH clauses row count parameter must be an integer.');
    out = out.slice(0, Number(n));
  }
  return { cols, rows: out.map((o) => o.vals) };
}

/**
 * ROW_NUMBER() OVER (ORDER BY ...): each unit's number in the window's order (a constant order, such as (SELECT NULL),
 * keeps the rows as they came). One window order per select list; several different ones are not modelled.
 */
function numberRows(core: SelectCore, units: Env[]): void {
  const overs = new Set<string>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      const o = x as { t?: string; over?: OrderItem[] };
      if (o.t === 'subq' || o.t === 'exists') return;
      if (o.t === 'fn' && o.over) overs.add(JSON.stringify(o.over));
      Object.values(o).forEach(walk);
    }
  };
  walk(core.items);
  if (overs.size > 1) throw new SqlError([unsupported('window functions with different OVER clauses in one select list')]);
  const order = JSON.parse([...overs][0]) as OrderItem[];
  const keyed = units.map((u, i) => ({ u, i, k: order.map((o) => evaluate(u, o.expr)) }));
  keyed.sort((a, b) => {
    for (let j = 0; j < order.length; j++) {
      const c = compareTyped(a.k[j], b.k[j]) ?? (a.k[j].v === null ? (b.k[j].v === null ? 0 : -1) : 1);
      if (c !== 0) return order[j].desc ? -c : c;
    }
    return a.i - b.i;
  });
  keyed.forEach((x, n) => (x.u.rowNumber = n + 1));
}

/** ORDER BY names a select-list column first (alias or name), an ordinal, or else any expression over the row. */
function orderKey(e: Expr, cols: Column[], vals: Value[], u: Env | undefined): Typed {
  if (e.t === 'col' && !e.qual) {
    const i = cols.findIndex((c) => c.name.toLowerCase() === e.name);
    if (i >= 0) return { v: vals[i], type: cols[i].sqlType };
  }
  if (e.t === 'lit' && typeof e.v === 'number') {
    if (e.v < 1 || e.v > cols.length)
      fail(108, `The ORDER BY position number ${e.v} is out of range of the number of items in the select list.`, 15, 1);
    return { v: vals[e.v - 1], type: cols[e.v - 1].sqlType };
  }
  if (!u)
    throw new SqlError([
      err(104, 'ORDER BY items must appear in the select list if the statement contains a UNION, INTERSECT or EXCEPT operator.', 15, 1),
    ]);
  return evaluate(u, e);
}

function runBody(ctx: ExecContext, b: QueryBody, outer: Env | undefined, typing: boolean): Relation {
  if (b.kind === 'select') return runCore(ctx, b, outer, typing, []);
  const x = runBody(ctx, b.a, outer, typing),
    y = runBody(ctx, b.b, outer, typing);
  if (x.cols.length !== y.cols.length)
    fail(
      205,
      'All queries combined using a UNION, INTERSECT or EXCEPT operator must have an equal number of expressions in their target lists.',
    );
  const cols = x.cols.map((c, i) => ({ ...c, sqlType: higher(c.sqlType, y.cols[i].sqlType), nullable: c.nullable || y.cols[i].nullable }));
  // Each operand's values take the result's type (data type precedence): an int column under a bigint result is bigint.
  const widen = (rows: Value[][]) =>
    cols.some((c) => c.sqlType.type === 'bigint')
      ? rows.map((r) => r.map((v, i) => (cols[i].sqlType.type === 'bigint' && typeof v === 'number' ? BigInt(v) : v)))
      : rows;
  return setOp(b.op, cols, widen(x.rows), widen(y.rows));
}

function setOp(op: Extract<QueryBody, { kind: 'setop' }>['op'], cols: Column[], xRows: Value[][], yRows: Value[][]): Relation {
  const x = { rows: xRows },
    y = { rows: yRows };
  const distinct = (rows: Value[][]) => {
    const seen = new Set<string>();
    return rows.filter((r) => !seen.has(keyOf(r)) && (seen.add(keyOf(r)), true));
  };
  const inY = new Set(y.rows.map(keyOf));
  switch (op) {
    case 'union all':
      return { cols, rows: [...x.rows, ...y.rows] };
    case 'union':
      return { cols, rows: distinct([...x.rows, ...y.rows]) };
    case 'except':
      return { cols, rows: distinct(x.rows).filter((r) => !inY.has(keyOf(r))) };
    case 'intersect':
      return { cols, rows: distinct(x.rows).filter((r) => inY.has(keyOf(r))) };
  }
}

export function runQuery(ctx: ExecContext, q: Query, outer: Env | undefined, typing: boolean): Relation {
  const saved = ctx.ctes;
  try {
    if (q.ctes.length) {
      ctx.ctes = new Map(saved);
      for (const c of q.ctes) {
        const r = runQuery(ctx, c.q, undefined, typing);
        ctx.ctes.set(c.name, c.colNames ? { ...r, cols: r.cols.map((col, i) => ({ ...col, name: c.colNames![i] ?? col.name })) } : r);
      }
    }
    if (q.body.kind === 'select') return runCore(ctx, q.body, outer, typing, q.orderBy);
    const r = runBody(ctx, q.body, outer, typing);
    if (!q.orderBy.length) return r;
    const keyed = r.rows.map((vals) => ({ vals, k: q.orderBy.map((o) => orderKey(o.expr, r.cols, vals, undefined)) }));
    keyed.sort((a, b) => {
      for (let i = 0; i < q.orderBy.length; i++) {
        const c = compareTyped(a.k[i], b.k[i]) ?? (a.k[i].v === null ? (b.k[i].v === null ? 0 : -1) : 1);
        if (c !== 0) return q.orderBy[i].desc ? -c : c;
      }
      return 0;
    });
    return { cols: r.cols, rows: keyed.map((x) => x.vals) };
  } finally {
    ctx.ctes = saved;
  }
}
