// Runs a batch as SQL Server would: the whole batch is parsed first (a construct the executor does not know refuses the
// batch before anything runs), then its statements execute (control of flow: control.ts); what an error does to the
// batch is flow.ts's. Dynamic SQL (sp_executesql, EXEC (string)) runs here too, in a scope of its own.
import type { ResponseItem, RowCount } from '../../tds/contract';
import { SqlError, unsupported } from '../errors';
import { sessionState } from '../sessionState';
import { wireType } from '../types';
import type { BatchCall } from '../batchCall';
import type { ControlStmt, SelectItem, Stmt, TypeName } from './ast';
import { Env, evaluate, ExecContext, Relation } from './env';
import { parseBatch } from '../ddl/parse';
import { runDdl } from '../ddl/run';
import { runQuery } from './query';
import { castTo, fail, sqlType, truthy, typeNameOf, Typed } from './values';
import { runStmts } from './control';
import { BatchEnd, statementFailed } from './flow';
import { insertRows, target } from './insert';
import { insertUser } from './userInsert';
import { chargeStatement, createTemp, dropTemp, planStatement } from './temp';
import { parseParamDefs } from '../params';
import { Parser } from './parse';
import { ON_OFF_OPTIONS } from './options';
import { kill, traceStatus } from './serverStmts';

/** A declared variable's type: a character or binary type without a length is 1 long (docs: char and varchar). */
function declaredType(t: TypeName): TypeName {
  return ['nvarchar', 'varchar', 'nchar', 'char', 'varbinary', 'binary'].includes(t.base) && t.length === undefined
    ? { ...t, length: 1 }
    : t;
}

/**
 * A statement that changed or assigned rows but returned none ends in a DONE (DONEINPROC in a procedure or RPC) of its
 * own carrying its count, as SQL Server sends it; SET NOCOUNT decides at the wire whether it goes (tds/response.ts).
 */
function affected(count: number, cmd: RowCount['cmd']): ResponseItem {
  return { kind: 'rowCount', count, cmd };
}

function runStatement(ctx: ExecContext, s: Exclude<Stmt, ControlStmt>): ResponseItem[] {
  const env = (): Env => ({ ctx, sources: [], row: [], typing: false });
  switch (s.kind) {
    case 'query': {
      const r = runQuery(ctx, s.q, undefined, false);
      // SET ROWCOUNT n: the query stops after n rows (docs: "SET ROWCOUNT (Transact-SQL)"); 0 is no limit.
      const limit = Number(sessionState(ctx.session).options.get('ROWCOUNT') ?? 0);
      if (limit > 0 && r.rows.length > limit) r.rows = r.rows.slice(0, limit);
      ctx.rowCount = r.rows.length;
      if (s.q.body.kind === 'select' && s.q.body.items.some((i) => i.assign)) return assignFrom(ctx, s.q.body.items, r);
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
      // SET @v op= e is SET @v = @v op e (docs: Compound Operators), converted back to @v's type.
      const x = evaluate(env(), s.op === '=' ? s.e : { t: 'bin', op: s.op.slice(0, -1), a: { t: 'var', name: s.name }, b: s.e });
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
        if (!ON_OFF_OPTIONS.has(n)) throw new SqlError([unsupported(`SET ${n}`)]);
        const st = sessionState(ctx.session);
        st.options.set(n, s.on ? 'ON' : 'OFF');
        if (n === 'NOCOUNT') ctx.session.noCount = s.on;
        if (n === 'IMPLICIT_TRANSACTIONS') st.implicitTransactions = s.on;
      }
      return [];
    case 'insert': {
      if (!s.table.startsWith('#') && !s.table.startsWith('@')) return [...insertUser(ctx, s), affected(ctx.rowCount, 'insert')];
      const source: Typed[][] = s.values
        ? s.values.map((r) => r.map((e) => evaluate(env(), e)))
        : ((r) => r.rows.map((row) => row.map((v, i) => ({ v, type: r.cols[i].sqlType }))))(runQuery(ctx, s.q!, undefined, false));
      insertRows(ctx, s, source, (n, m) =>
        fail(
          n > m ? 110 : 109,
          `There are ${n > m ? 'more' : 'fewer'} columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.`,
          15,
          1,
        ),
      );
      return [affected(ctx.rowCount, 'insert')];
    }
    case 'delete': {
      const t = target(ctx, s.table, 'DELETE FROM');
      const sources = [{ alias: s.alias?.toLowerCase() ?? '', table: t.name.toLowerCase(), cols: t.columns }];
      const keep = s.where ? t.rows.filter((r) => !truthy(evaluate({ ctx, sources, row: [r], typing: false }, s.where!).v)) : [];
      ctx.rowCount = t.rows.length - keep.length;
      ctx.work.read += t.rows.length;
      ctx.work.deleted += ctx.rowCount;
      t.stats.modifications += ctx.rowCount;
      t.rows = keep;
      return [affected(ctx.rowCount, 'delete')];
    }
    case 'ddl':
      return runDdl(ctx, s.d);
    case 'kill':
      return kill(ctx, s.spid);
    case 'tracestatus':
      return traceStatus(ctx, s.flags, s.noInfoMsgs);
    case 'truncate': {
      const t = target(ctx, s.table, 'TRUNCATE TABLE');
      t.stats.modifications += t.rows.length;
      ctx.work.deleted += t.rows.length;
      t.rows = [];
      return [];
    }
  }
}

/**
 * SELECT @a = x, @b = y ...: each row in turn sets the variables (the last row's values stay), no rows go out; mixing
 * assignments with plain columns is Msg 141 (docs: SELECT @local_variable).
 */
function assignFrom(ctx: ExecContext, items: SelectItem[], r: Relation): ResponseItem[] {
  if (items.some((i) => !i.assign))
    fail(141, 'A SELECT statement that assigns a value to a variable must not be combined with data-retrieval operations.', 15, 1);
  for (const row of r.rows)
    items.forEach((it, k) => {
      const cur = ctx.vars.get(it.assign!);
      if (!cur) fail(137, `Must declare the scalar variable "${it.assign}".`, 15, 2);
      ctx.vars.set(it.assign!, castTo({ v: row[k], type: r.cols[k].sqlType }, typeNameOf(cur.type)));
    });
  return [affected(r.rows.length, 'select')];
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
    ctx.vars.set(d.name, castTo(typeof v === 'string' || v === null ? natural : { v, type: wireType(v) }, declaredType(type)));
  }
}

/** A scope's context: the batch's (depth 0), or a procedure's or dynamic batch's inside `parent`. */
function context(call: Pick<BatchCall, 'model' | 'session' | 'params' | 'signal'>, parent?: ExecContext): ExecContext {
  const ctx: ExecContext = {
    model: call.model,
    session: call.session,
    params: call.params,
    signal: call.signal,
    vars: new Map(),
    tables: new Map(),
    ctes: new Map(),
    rowCount: 0,
    work: { read: 0, written: 0, deleted: 0 },
    depth: parent ? parent.depth + 1 : 0,
    tryDepth: parent?.tryDepth ?? 0,
    tryScope: parent?.tryScope ?? 0,
    errors: parent?.errors ?? [],
    advanced: parent?.advanced,
    run: (q, env, typing) => runQuery(ctx, q, env, typing),
    simple: async (s) => simple(ctx, s as Exclude<Stmt, ControlStmt>),
    nested: (text, vars, out) => nested(ctx, text, vars, out),
  };
  return ctx;
}

/** One statement that is not control of flow: its plan, its run, its synthetic cost. */
function simple(ctx: ExecContext, s: Exclude<Stmt, ControlStmt>): ResponseItem[] {
  ctx.work = { read: 0, written: 0, deleted: 0 };
  planStatement(ctx, s);
  const out = runStatement(ctx, s);
  const returned = out.reduce((n, i) => n + (i.kind === 'resultSet' ? i.rows.length : 0), 0);
  chargeStatement(ctx, s, ctx.work, returned);
  return out;
}

/** sp_executesql's or EXEC (string)'s text: parsed when it runs, in a scope of its own with `vars`. */
async function nested(parent: ExecContext, text: string, vars: Map<string, Typed>, out: ResponseItem[]): Promise<Map<string, Typed>> {
  const ctx = context({ model: parent.model, session: parent.session, params: new Map(), signal: parent.signal }, parent);
  vars.forEach((v, k) => ctx.vars.set(k, v));
  try {
    await runStmts(ctx, parseBatch(text), out);
  } catch (e) {
    try {
      // A parse error here is the dynamic batch's compile error: its caller's TRY catches it.
      if (!(e instanceof BatchEnd)) statementFailed(ctx, e, out);
    } catch (f) {
      if (!(f instanceof BatchEnd && f.scopeOnly)) throw f;
    }
    if (e instanceof BatchEnd && !e.scopeOnly) throw e;
  }
  parent.advanced ||= ctx.advanced;
  parent.rowCount = ctx.rowCount;
  return ctx.vars;
}

/** Runs the batch: `parsed` is its statements when the caller has parsed it already (exec/route.ts). */
export async function executeBatch(call: BatchCall, parsed?: Stmt[]): Promise<ResponseItem[]> {
  const ctx = context(call);
  let stmts: Stmt[];
  try {
    stmts = parsed ?? parseBatch(call.text);
    bindParameters(ctx, call.paramDefs ?? '');
  } catch (e) {
    if (e instanceof SqlError) return e.messages;
    throw e;
  }
  const items: ResponseItem[] = [];
  try {
    await runStmts(ctx, stmts, items);
  } catch (e) {
    if (!(e instanceof BatchEnd)) throw e;
  }
  // sp_executesql's OUTPUT parameters: the values the statements left in them go back to the caller.
  for (const d of parseParamDefs(call.paramDefs ?? '')) {
    const v = d.output ? ctx.vars.get(d.name) : undefined;
    if (v) items.push({ kind: 'outputValue', name: d.name, sqlType: v.type, value: v.v });
  }
  return items;
}
