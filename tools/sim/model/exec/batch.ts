// Runs a batch statement by statement as SQL Server would: the whole batch is parsed first (a construct the executor
// does not know refuses the batch before anything runs), then each statement executes; an error ends its statement
// and the batch goes on, except compile errors (class 15) and fatal ones, which end it.
import type { ResponseItem, SqlType } from '../../tds/contract';
import { SqlError, unsupported } from '../errors';
import { sessionState } from '../sessionState';
import { requireTemp } from '../tempstore';
import type { BatchCall } from '../statements';
import type { Stmt, TypeName } from './ast';
import { Env, evaluate, ExecContext } from './env';
import { parseBatch } from '../ddl/parse';
import { runDdl } from '../ddl/run';
import { runQuery } from './query';
import { castTo, fail, sqlType, truthy, Typed } from './values';
import { chargeStatement, createTemp, dropTemp, planStatement } from './temp';
import { parseParamDefs } from '../params';
import { Parser } from './parse';

/** The SET options that change nothing the simulator models beyond being remembered (and NOCOUNT, which it honours). */
const PLAIN_OPTIONS = new Set([
  'NOCOUNT',
  'ANSI_NULLS',
  'ANSI_PADDING',
  'ANSI_WARNINGS',
  'ARITHABORT',
  'QUOTED_IDENTIFIER',
  'CONCAT_NULL_YIELDS_NULL',
  'NUMERIC_ROUNDABORT',
  'XACT_ABORT',
]);

/**
 * Errors that end the batch as compile errors do: a name that does not resolve when the statement compiles (deferred
 * name resolution: 208 object, 207 column), a column count that does not match (205, 213), a type not found (2715),
 * and the simulator's own refusal (50000), after which nothing it would answer can be trusted.
 */
const ENDS_BATCH = new Set([205, 207, 208, 213, 2715, 50000]);

/** Arithmetic errors (overflow, divide by zero) that ARITHABORT ON without ANSI_WARNINGS turns into batch-aborting. */
const ARITHMETIC = new Set([220, 232, 8115, 8134]);

/**
 * A run-time error ends the batch under SET XACT_ABORT ON, and an arithmetic one under ARITHABORT ON with
 * ANSI_WARNINGS OFF (SET ARITHABORT: with ANSI_WARNINGS ON it is statement-terminating, as by default).
 */
function abortsBatch(ctx: ExecContext, number: number): boolean {
  const o = sessionState(ctx.session).options;
  if (o.get('XACT_ABORT') === 'ON') return true;
  return ARITHMETIC.has(number) && o.get('ARITHABORT') === 'ON' && o.get('ANSI_WARNINGS') === 'OFF';
}

const typeNameOf = (t: SqlType): TypeName =>
  t.type === 'decimal'
    ? { base: 'decimal', precision: t.precision, scale: t.scale }
    : t.type === 'datetime2'
      ? { base: 'datetime2', scale: t.scale }
      : { base: t.type, length: 'length' in t ? t.length : undefined };

/** A declared variable's type: a character or binary type without a length is 1 long (docs: char and varchar). */
function declaredType(t: TypeName): TypeName {
  return ['nvarchar', 'varchar', 'nchar', 'char', 'varbinary', 'binary'].includes(t.base) && t.length === undefined
    ? { ...t, length: 1 }
    : t;
}

function runStatement(ctx: ExecContext, s: Stmt): ResponseItem[] {
  const env = (): Env => ({ ctx, sources: [], row: [], typing: false });
  switch (s.kind) {
    case 'query': {
      const r = runQuery(ctx, s.q, undefined, false);
      ctx.rowCount = r.rows.length;
      return [{ kind: 'resultSet', columns: r.cols, rows: r.rows }];
    }
    case 'declare':
      for (const d of s.vars) {
        const type = declaredType(d.type);
        const init: Typed = d.init ? evaluate(env(), d.init) : { v: null, type: sqlType(type) };
        ctx.vars.set(d.name, castTo(init, type));
      }
      return [];
    case 'setvar': {
      const cur = ctx.vars.get(s.name);
      if (!cur) fail(137, `Must declare the scalar variable "${s.name}".`, 15, 2);
      const x = evaluate(env(), s.e);
      if (s.op !== '=') throw new SqlError([unsupported(`SET ${s.name} ${s.op}`)]);
      ctx.vars.set(s.name, castTo(x, typeNameOf(cur.type)));
      return [];
    }
    case 'setvalue':
      sessionState(ctx.session).options.set(s.name, s.value);
      return [];
    case 'create':
      createTemp(ctx, s);
      return [];
    case 'drop':
      dropTemp(ctx, s);
      return [];
    case 'setopt':
      for (const n of s.names) {
        if (!PLAIN_OPTIONS.has(n)) throw new SqlError([unsupported(`SET ${n}`)]);
        sessionState(ctx.session).options.set(n, s.on ? 'ON' : 'OFF');
        if (n === 'NOCOUNT') ctx.session.noCount = s.on;
      }
      return [];
    case 'insert': {
      if (!s.table.startsWith('#')) throw new SqlError([unsupported(`INSERT INTO ${s.table}`)]);
      const t = requireTemp(ctx.session, s.table);
      const targets = (s.cols ?? t.columns.map((c) => c.name)).map((n) => {
        const i = t.columns.findIndex((c) => c.name.toLowerCase() === n.toLowerCase());
        if (i < 0) fail(207, `Invalid column name '${n}'.`);
        return i;
      });
      const source: Typed[][] = s.values
        ? s.values.map((r) => r.map((e) => evaluate(env(), e)))
        : ((r) => r.rows.map((row) => row.map((v, i) => ({ v, type: r.cols[i].sqlType }))))(runQuery(ctx, s.q!, undefined, false));
      const rows = source.map((r) => {
        if (r.length !== targets.length)
          fail(
            r.length > targets.length ? 110 : 109,
            `There are ${r.length > targets.length ? 'more' : 'fewer'} columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.`,
            15,
            1,
          );
        const row = t.columns.map(() => null as Typed['v']);
        targets.forEach((ci, k) => {
          const col = t.columns[ci];
          const v = castTo(r[k], typeNameOf(col.sqlType)).v;
          if (v === null && col.nullable === false)
            fail(
              515,
              `Cannot insert the value NULL into column '${col.name}', table 'tempdb.dbo.${t.name}'; column does not allow nulls. INSERT fails.`,
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
      return [];
    }
    case 'delete': {
      if (!s.table.startsWith('#')) throw new SqlError([unsupported(`DELETE FROM ${s.table}`)]);
      const t = requireTemp(ctx.session, s.table);
      const sources = [{ alias: s.alias?.toLowerCase() ?? '', table: t.name.toLowerCase(), cols: t.columns }];
      const keep = s.where ? t.rows.filter((r) => !truthy(evaluate({ ctx, sources, row: [r], typing: false }, s.where!).v)) : [];
      ctx.rowCount = t.rows.length - keep.length;
      ctx.work.read += t.rows.length;
      ctx.work.deleted += ctx.rowCount;
      t.stats.modifications += ctx.rowCount;
      t.rows = keep;
      return [];
    }
    case 'ddl':
      return runDdl(ctx, s.d);
    case 'truncate': {
      if (!s.table.startsWith('#')) throw new SqlError([unsupported(`TRUNCATE TABLE ${s.table}`)]);
      const t = requireTemp(ctx.session, s.table);
      t.stats.modifications += t.rows.length;
      ctx.work.deleted += t.rows.length;
      t.rows = [];
      return [];
    }
  }
}

/**
 * sp_executesql's / sp_prepare's parameters as the statements see them: each value converted to its declared type
 * (a value that does not convert fails as SQL Server fails it), a declared one sent without a value NULL.
 */
function bindParameters(ctx: ExecContext, defs: string): void {
  for (const d of parseParamDefs(defs)) {
    const type = Parser.of(d.type).typeOnly();
    const v = ctx.params.get(d.name) ?? null;
    const natural: Typed = { v, type: sqlType(declaredType(type)) };
    ctx.vars.set(d.name, castTo(typeof v === 'string' || v === null ? natural : { v, type: naturalType(v) }, declaredType(type)));
  }
}

/** The type a value arrives with on the wire when it is not a string (RPC parameters carry their own type). */
function naturalType(v: Exclude<Typed['v'], null>): Typed['type'] {
  if (typeof v === 'bigint') return { type: 'bigint' };
  if (typeof v === 'boolean') return { type: 'bit' };
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? { type: 'int' } : { type: 'float' };
  if (v instanceof Date) return { type: 'datetime2', scale: 7 };
  if (Buffer.isBuffer(v)) return { type: 'varbinary', length: 'max' };
  return { type: 'nvarchar', length: 4000 };
}

export function executeBatch(call: BatchCall): ResponseItem[] {
  const ctx: ExecContext = {
    model: call.model,
    session: call.session,
    params: call.params,
    vars: new Map(),
    ctes: new Map(),
    rowCount: 0,
    work: { read: 0, written: 0, deleted: 0 },
    run: (q, env, typing) => runQuery(ctx, q, env, typing),
  };
  let stmts: Stmt[];
  try {
    stmts = parseBatch(call.text);
    bindParameters(ctx, call.paramDefs ?? '');
  } catch (e) {
    if (e instanceof SqlError) return e.messages;
    throw e;
  }
  const items: ResponseItem[] = [];
  for (const s of stmts) {
    if (call.signal.aborted) break;
    ctx.work = { read: 0, written: 0, deleted: 0 };
    try {
      planStatement(ctx, s);
      const out = runStatement(ctx, s);
      items.push(...out);
      chargeStatement(
        ctx,
        s,
        ctx.work,
        out.reduce((n, i) => n + (i.kind === 'resultSet' ? i.rows.length : 0), 0),
      );
    } catch (e) {
      if (!(e instanceof SqlError)) throw e;
      items.push(...e.messages);
      if (e.messages.some((m) => m.kind === 'error' && (m.class === 15 || m.class >= 20 || ENDS_BATCH.has(m.number)))) break;
      if (e.messages.some((m) => m.kind === 'error' && abortsBatch(ctx, m.number))) break;
    }
  }
  return items;
}
