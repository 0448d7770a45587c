// INSERT into a user table the simulator's DDL created (ddl/tableDef.ts), from VALUES or a query, with SQL Server's
// checks: the column list (207, 264, 544 for an IDENTITY column), the value count (109/110, 120/121), each value
// converted to its column's type, NOT NULL (515) and duplicate keys (2627) against the rows the model knows. The
// statement is atomic: every check runs before the table changes. A large source is counted (lazy.ts): its rows are
// evaluated at a sample of positions (first, second, last), and the table's row count, pages and the contention
// model's figures grow by the count.
import type { ResponseItem, Value } from '../../tds/contract';
import { err, SqlError, unsupported } from '../errors';
import { MATERIALISE_ROWS, type TableData } from '../tableData';
import type { Stmt } from './ast';
import { inNamedDatabase } from './dbScope';
import { Env, evaluate, ExecContext } from './env';
import { Lazy, lazyQuery } from './lazy';
import { Parser } from './parse';
import { keyOf } from './hashJoin';
import { runQuery } from './query';
import { castTo, fail, typeNameOf, Typed } from './values';

type Insert = Extract<Stmt, { kind: 'insert' }>;

/** The statement's source as a lazy relation: VALUES and small queries evaluated, a countable query counted. */
function sourceOf(ctx: ExecContext, s: Insert): Lazy & { typed?: Typed[][] } {
  const env: Env = { ctx, sources: [], row: [], typing: false };
  if (s.values) {
    const typed = s.values.map((r) => r.map((e) => evaluate(env, e)));
    return { cols: [], count: typed.length, row: (i) => typed[i].map((x) => x.v), typed };
  }
  if (!s.q) throw new SqlError([unsupported(`INSERT INTO ${s.table} EXEC (a user table)`)]);
  const lazy = lazyQuery(ctx, s.q);
  if (lazy) return lazy;
  const r = runQuery(ctx, s.q, undefined, false);
  return { cols: r.cols, count: r.rows.length, row: (i) => r.rows[i] };
}

/** The positions an INSERT evaluates: all of them when few, else the first two and the last. */
function positions(n: number): number[] {
  if (n <= MATERIALISE_ROWS) return Array.from({ length: n }, (_, i) => i);
  return [0, 1, n - 1];
}

function formatKey(vals: Value[]): string {
  return vals.map((v) => (v === null ? 'NULL' : v instanceof Date ? v.toISOString() : String(v))).join(', ');
}

export function insertUser(scope: ExecContext, s: Insert): ResponseItem[] {
  const ctx = inNamedDatabase(scope, s.table);
  const db = ctx.model.database(ctx.session.database);
  const obj = db && ctx.model.findObject(db, s.table);
  if (!db || !obj) throw new SqlError([err(208, `Invalid object name '${s.table}'.`, 16, 1)]);
  if (obj.type !== 'U' || !obj.data)
    throw new SqlError([unsupported(`INSERT INTO ${s.table} (a table not created by DDL the simulator ran)`)]);
  const data: TableData = obj.data;
  const tableName = obj.name.split('.').pop()!;
  const names = s.cols ?? data.columns.filter((c) => !c.identity).map((c) => c.name);
  const targets = names.map((n) => {
    const i = data.columns.findIndex((c) => c.name.toLowerCase() === n.toLowerCase());
    if (i < 0) fail(207, `Invalid column name '${n}'.`);
    if (data.columns[i].identity)
      fail(544, `Cannot insert explicit value for identity column in table '${tableName}' when IDENTITY_INSERT is set to OFF.`);
    return i;
  });
  const dup = names.find((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) !== i);
  if (dup)
    fail(
      264,
      `The column name '${dup}' is specified more than once in the SET clause or column list of an INSERT. A column cannot be assigned more than one value in the same clause. Modify the clause to make sure that a column is updated only once. If this statement updates or inserts columns into a view, column aliasing can conceal the duplication in your code.`,
    );
  const src = sourceOf(ctx, s);
  const width = src.typed ? (src.typed[0]?.length ?? targets.length) : src.cols.length;
  if (width !== targets.length) {
    if (src.typed)
      fail(
        width > targets.length ? 110 : 109,
        `There are ${width > targets.length ? 'more' : 'fewer'} columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.`,
        15,
      );
    fail(
      width > targets.length ? 121 : 120,
      `The select list for the INSERT statement contains ${width > targets.length ? 'more' : 'fewer'} items than the insert list. The number of SELECT values must match the number of INSERT columns.`,
      15,
    );
  }
  const n = src.count;
  const defaults = data.columns.map((c) => (c.default ? Parser.of(c.default).expr() : undefined));
  const plain: Env = { ctx, sources: [], row: [], typing: false };
  const rows = positions(n).map((p) => {
    const vals = src.row(p);
    const given: Typed[] = src.typed ? src.typed[p] : vals.map((v, k) => ({ v, type: src.cols[k].sqlType }));
    return data.columns.map((col, ci) => {
      const k = targets.indexOf(ci);
      let x: Typed;
      if (k >= 0) x = given[k];
      else if (col.identity) x = { v: data.nextIdentity! + col.identity.increment * BigInt(p), type: col.sqlType };
      else if (defaults[ci]) x = evaluate(plain, defaults[ci]!);
      else x = { v: null, type: col.sqlType };
      const v = castTo(x, typeNameOf(col.sqlType)).v;
      if (v === null && !col.nullable)
        fail(
          515,
          `Cannot insert the value NULL into column '${col.name}', table '${db.name}.${obj.name}'; column does not allow nulls. INSERT fails.`,
          16,
          2,
        );
      return v;
    });
  });
  for (const key of data.keys) {
    const seen = new Set(data.known.map((r) => keyOf(key.cols.map((c) => r[c]))));
    for (const r of rows) {
      const vals = key.cols.map((c) => r[c]);
      const k = keyOf(vals);
      if (seen.has(k))
        fail(
          2627,
          `Violation of ${key.kind} constraint '${key.name}'. Cannot insert duplicate key in object '${obj.name}'. The duplicate key value is (${formatKey(vals)}).`,
          14,
        );
      seen.add(k);
    }
  }
  data.count += n;
  data.known.push(...rows);
  if (n > MATERIALISE_ROWS) data.complete = false;
  const id = data.columns.find((c) => c.identity);
  if (id && data.nextIdentity !== undefined) data.nextIdentity += id.identity!.increment * BigInt(n);
  ctx.model.counters.table(db.name, obj.name).inserts += n;
  scope.rowCount = n;
  scope.work.written += n;
  return [];
}
