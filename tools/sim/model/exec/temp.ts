// What a statement does with the session's #temp tables beyond reading them: CREATE TABLE and DROP TABLE, and the plan
// checks SQL Server runs before a statement over them (model/planCost.ts: compile on first use, recompile when their
// statistics are stale unless OPTION (KEEPFIXED PLAN)), with the synthetic cost each statement charges its session.
import { SqlError, unsupported } from '../errors';
import { charge, COST, pages, usePlan } from '../planCost';
import { findTemp, requireTemp, tempTables } from '../tempstore';
import type { Stmt } from './ast';
import type { ExecContext } from './env';
import { fail, sqlType } from './values';

export function createTemp(ctx: ExecContext, s: Extract<Stmt, { kind: 'create' }>): void {
  if (!s.table.startsWith('#')) throw new SqlError([unsupported(`CREATE TABLE ${s.table} (only #temp tables)`)]);
  if (s.table.startsWith('##')) throw new SqlError([unsupported(`CREATE TABLE ${s.table} (global temporary tables)`)]);
  if (findTemp(ctx.session, s.table)) fail(2714, `There is already an object named '${s.table}' in the database.`, 16, 6);
  const seen = new Set<string>();
  const columns = s.cols.map((c) => {
    if (seen.has(c.name.toLowerCase()))
      fail(2705, `Column names in each table must be unique. Column name '${c.name}' in table '${s.table}' is specified more than once.`);
    seen.add(c.name.toLowerCase());
    // A character or binary type without a length is 1 long in a column definition (docs: char and varchar).
    const t = ['nvarchar', 'varchar', 'nchar', 'char', 'varbinary', 'binary'].includes(c.type.base) && c.type.length === undefined;
    return { name: c.name, sqlType: sqlType(t ? { ...c.type, length: 1 } : c.type), nullable: c.nullable !== false };
  });
  tempTables(ctx.session).set(s.table.toLowerCase(), { name: s.table, columns, rows: [], stats: { modifications: 0, version: 0 } });
}

export function dropTemp(ctx: ExecContext, s: Extract<Stmt, { kind: 'drop' }>): void {
  if (!s.table.startsWith('#')) throw new SqlError([unsupported(`DROP TABLE ${s.table} (only #temp tables)`)]);
  if (!tempTables(ctx.session).delete(s.table.toLowerCase()) && !s.ifExists)
    fail(3701, `Cannot drop the table '${s.table}', because it does not exist or you do not have permission.`, 16, 5);
}

/** The #tables a statement reads (every # name in its tree except an INSERT's target), lower case, each once. */
export function tempReads(s: Stmt): string[] {
  let r = tempReadsOf.get(s);
  if (!r) tempReadsOf.set(s, (r = findTempReads(s)));
  return r;
}

/** By statement: a parsed batch is cached and run again and again (a tick, a workload call), its tree unchanged. */
const tempReadsOf = new WeakMap<Stmt, string[]>();

function findTempReads(s: Stmt): string[] {
  const found = new Set<string>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      if (o.kind === 'named' && typeof o.name === 'string' && o.name.startsWith('#')) found.add(o.name.toLowerCase());
      Object.values(o).forEach(walk);
    }
  };
  walk(s);
  if (s.kind === 'delete' && s.table.startsWith('#')) found.add(s.table.toLowerCase());
  return [...found];
}

/** Rows the statement running now read from its sources, wrote and deleted, for its synthetic cost. */
export interface Work {
  read: number;
  written: number;
  deleted: number;
}

/** Before a statement runs: its plan, compiled or recompiled as SQL Server would when it reads #tables. */
export function planStatement(ctx: ExecContext, s: Stmt): void {
  const reads = tempReads(s);
  if (reads.length === 0 && !(s.kind === 'insert' && s.table.startsWith('#'))) return;
  const hints = 'hints' in s ? (s.hints ?? []) : [];
  usePlan(ctx.model, ctx.session, JSON.stringify(s), {
    tables: reads.map((n) => requireTemp(ctx.session, n)),
    keepFixed: hints.includes('KEEPFIXED PLAN'),
  });
}

/** After a statement ran: CPU per statement and per row, a logical read per source and per page, tempdb page writes. */
export function chargeStatement(ctx: ExecContext, s: Stmt, w: Work, returned: number): void {
  if (s.kind === 'declare' || s.kind === 'setvar' || s.kind === 'setopt' || s.kind === 'setvalue') return;
  const rows = w.read + w.written + w.deleted + returned;
  charge(ctx.model, ctx.session, {
    cpuMs: COST.statementMs + rows * COST.rowMs,
    logicalReads: 1 + pages(w.read + w.deleted),
    writes: pages(w.written) + pages(w.deleted),
  });
}
