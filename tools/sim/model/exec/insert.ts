// INSERT into a #temp table or a table variable, whatever the rows come from (VALUES, a query, or EXEC's result
// sets), with SQL Server's checks: the column list, the value count, NOT NULL; and the table a statement names.
import { SqlError, unsupported } from '../errors';
import { requireTemp, TempTable } from '../tempstore';
import type { Stmt } from './ast';
import type { ExecContext } from './context';
import { castTo, fail, typeNameOf, Typed } from './values';

/** The #temp table or table variable a statement writes; a user table is refused. */
export function target(ctx: ExecContext, name: string, verb: string): TempTable {
  if (name.startsWith('@')) {
    const t = ctx.tables.get(name.toLowerCase());
    if (!t) fail(1087, `Must declare the table variable "${name}".`, 15, 2);
    return t;
  }
  if (!name.startsWith('#')) throw new SqlError([unsupported(`${verb} ${name}`)]);
  return requireTemp(ctx.session, name);
}

export function insertRows(
  ctx: ExecContext,
  s: Extract<Stmt, { kind: 'insert' }>,
  source: Typed[][],
  countError: (n: number, m: number) => never,
): void {
  const t = target(ctx, s.table, 'INSERT INTO');
  const targets = (s.cols ?? t.columns.map((c) => c.name)).map((n) => {
    const i = t.columns.findIndex((c) => c.name.toLowerCase() === n.toLowerCase());
    if (i < 0) fail(207, `Invalid column name '${n}'.`);
    return i;
  });
  const rows = source.map((r) => {
    if (r.length !== targets.length) countError(r.length, targets.length);
    const row = t.columns.map(() => null as Typed['v']);
    targets.forEach((ci, k) => {
      const col = t.columns[ci];
      const v = castTo(r[k], typeNameOf(col.sqlType)).v;
      if (v === null && col.nullable === false)
        fail(
          515,
          `Cannot insert the value NULL into column '${col.name}', table '${t.name.startsWith('@') ? '@' : `tempdb.dbo.${t.name}`}'; column does not allow nulls. INSERT fails.`,
          16,
          2,
        );
      row[ci] = v;
    });
    return row;
  });
  t.rows.push(...rows);
  t.stats.modifications += rows.length;
  ctx.rowCount = rows.length;
  ctx.work.written += rows.length;
}
