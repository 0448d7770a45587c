// Control of flow as SQL Server runs it: blocks, IF, WHILE with BREAK/CONTINUE, TRY...CATCH, THROW, RAISERROR, PRINT,
// RETURN, WAITFOR DELAY and transaction control; every other statement goes to ctx.simple (batch.ts), EXEC to procs.ts.
import { addWait, sleep } from '../custom';
import type { ResponseItem, ServerMessage } from '../../tds/contract';
import { err, SqlError } from '../errors';
import { sessionState } from '../sessionState';
import { beginTran, commitTran, raiseError, rollbackTran, saveTran } from '../transactions';
import type { Stmt } from './ast';
import type { Env, ExecContext } from './context';
import { evaluate } from './env';
import { Caught, statementFailed, Thrown } from './flow';
import { runExec, insertFromExec } from './procs';
import { fail, sqlType, truthy, Typed } from './values';

/** How a statement left: on to the next, out of the loop, to the loop's top, or out of the scope. */
export type Flow = 'next' | 'break' | 'continue' | 'return';

const env = (ctx: ExecContext): Env => ({ ctx, sources: [], row: [], typing: false });
const value = (ctx: ExecContext, e: Parameters<typeof evaluate>[1]): Typed => evaluate(env(ctx), e);

const CHARS = ['nvarchar', 'varchar', 'nchar', 'char', 'varbinary', 'binary'];

/** Statements that open a transaction under IMPLICIT_TRANSACTIONS ON (docs: SET IMPLICIT_TRANSACTIONS). */
const IMPLICIT = new Set(['insert', 'delete', 'truncate', 'create', 'drop']);

export async function runStmts(ctx: ExecContext, stmts: Stmt[], out: ResponseItem[]): Promise<Flow> {
  for (const s of stmts) {
    if (ctx.signal.aborted) return 'return';
    const f = await runStmt(ctx, s, out);
    if (f !== 'next') return f;
  }
  return 'next';
}

async function runStmt(ctx: ExecContext, s: Stmt, out: ResponseItem[]): Promise<Flow> {
  try {
    return await step(ctx, s, out);
  } catch (e) {
    statementFailed(ctx, e, out);
    return 'next';
  }
}

async function step(ctx: ExecContext, s: Stmt, out: ResponseItem[]): Promise<Flow> {
  switch (s.kind) {
    case 'block':
      return runStmts(ctx, s.body, out);
    case 'if': {
      const branch = truthy(value(ctx, s.cond).v) ? s.then : s.else;
      return branch ? runStmt(ctx, branch, out) : 'next';
    }
    case 'while':
      for (let n = 1; truthy(value(ctx, s.cond).v); n++) {
        if (ctx.signal.aborted) return 'return';
        // A loop that never waits must still let a cancel (attention) in.
        if (n % 500 === 0) await new Promise((r) => setImmediate(r));
        const f = await runStmt(ctx, s.body, out);
        if (f === 'break') break;
        if (f === 'return') return f;
      }
      return 'next';
    case 'break':
    case 'continue':
      return s.kind;
    case 'return':
      if (s.e) {
        const v = value(ctx, s.e).v;
        ctx.returnStatus = v === null ? 0 : Number(v);
      }
      return 'return';
    case 'try':
      return tryCatch(ctx, s, out);
    case 'throw':
      return throwError(ctx, s);
    case 'raiserror': {
      const [msg, sev, state, ...rest] = s.args.map((a) => value(ctx, a).v);
      const items = raiseError(
        msg,
        Number(sev),
        Number(state),
        rest,
        s.opts.includes('LOG'),
        ctx.model.logins.get(ctx.session.login.toLowerCase())?.permissions === 'all',
      );
      const error = items.find((m) => m.kind === 'error' && m.class > 10);
      // Severity 11 and up is an error: caught by TRY, or sent with the batch going on (RAISERROR does not abort it).
      if (error) throw new SqlError(items);
      out.push(...items);
      return 'next';
    }
    case 'print': {
      const v = value(ctx, s.e).v;
      out.push({ kind: 'info', number: 0, state: 1, class: 0, message: v === null ? '' : text(v) });
      return 'next';
    }
    case 'waitfor':
      await waitDelay(ctx, value(ctx, s.delay).v);
      return 'next';
    case 'tran':
      return tran(ctx, s, out);
    case 'declaretable':
      declareTable(ctx, s);
      return 'next';
    case 'exec':
    case 'execsql':
      await runExec(ctx, s, out);
      return 'next';
    default: {
      const st = sessionState(ctx.session);
      const opens = IMPLICIT.has(s.kind) || (s.kind === 'query' && s.q.body.kind === 'select' && s.q.body.from.length > 0);
      if (st.implicitTransactions && st.tranCount === 0 && opens) out.push(...beginTran(st));
      if (s.kind === 'insert' && s.exec) await insertFromExec(ctx, s, out);
      else out.push(...(await ctx.simple(s)));
      return 'next';
    }
  }
}

/** RAISERROR's class 16 is an error that lets the batch go on; THROW's ends it unless caught (statementFailed). */
function throwError(ctx: ExecContext, s: Extract<Stmt, { kind: 'throw' }>): never {
  if (!s.args) {
    const e = ctx.errors[ctx.errors.length - 1];
    // Bare THROW outside CATCH: a compile error (docs: THROW).
    if (!e)
      fail(
        10704,
        'To rethrow an error, a THROW statement must be used inside a CATCH block. Insert the THROW statement inside a CATCH block, or add error parameters to the THROW statement.',
        15,
        1,
      );
    throw new Thrown([err(e.number, e.message, e.severity, e.state, e.procedure)]);
  }
  const [n, msg, state] = s.args.map((a) => value(ctx, a).v);
  if (n === null || Number(n) < 50000)
    fail(
      35100,
      `Error number ${String(n)} in the THROW statement is outside the valid range. Specify an error number in the valid range of 50000 to 2147483647.`,
    );
  if (state === null || Number(state) < 0 || Number(state) > 255)
    fail(
      35101,
      `State ${String(state)} in the THROW statement is outside the valid range. Specify a state in the valid range of 0 to 255.`,
    );
  throw new Thrown([err(Number(n), String(msg ?? ''), 16, Number(state))]);
}

async function tryCatch(ctx: ExecContext, s: Extract<Stmt, { kind: 'try' }>, out: ResponseItem[]): Promise<Flow> {
  const scope = ctx.tryScope;
  ctx.tryDepth++;
  ctx.tryScope = ctx.depth;
  let caught: ServerMessage;
  try {
    return await runStmts(ctx, s.body, out);
  } catch (e) {
    if (!(e instanceof Caught)) throw e;
    caught = e.error;
  } finally {
    ctx.tryDepth--;
    ctx.tryScope = scope;
  }
  ctx.errors.push({
    number: caught.number,
    message: caught.message,
    severity: caught.class,
    state: caught.state,
    procedure: caught.procName,
  });
  try {
    return await runStmts(ctx, s.catch, out);
  } finally {
    ctx.errors.pop();
  }
}

function tran(ctx: ExecContext, s: Extract<Stmt, { kind: 'tran' }>, out: ResponseItem[]): Flow {
  const st = sessionState(ctx.session);
  const items =
    s.op === 'begin'
      ? beginTran(st, s.name)
      : s.op === 'commit'
        ? commitTran(st)
        : s.op === 'rollback'
          ? rollbackTran(st, s.name)
          : saveTran(st, s.name);
  const errors = items.filter((m): m is ServerMessage => m.kind === 'error');
  if (errors.length) throw new SqlError(errors);
  out.push(...items);
  return 'next';
}

function declareTable(ctx: ExecContext, s: Extract<Stmt, { kind: 'declaretable' }>): void {
  if (ctx.tables.has(s.name) || ctx.vars.has(s.name))
    fail(
      134,
      `The variable name '${s.name}' has already been declared. Variable names must be unique within a query batch or stored procedure.`,
      15,
      1,
    );
  ctx.tables.set(s.name, {
    name: s.name,
    // A character or binary type without a length is 1 long in a column definition (docs: char and varchar).
    columns: s.cols.map((c) => ({
      name: c.name,
      sqlType: sqlType(CHARS.includes(c.type.base) && c.type.length === undefined ? { ...c.type, length: 1 } : c.type),
      nullable: c.nullable !== false,
    })),
    rows: [],
    stats: { modifications: 0, version: 0 },
  });
}

/** WAITFOR DELAY 'hh:mm[:ss[.mmm]]' (docs: WAITFOR): waits on the real clock, ended early by a cancel. */
async function waitDelay(ctx: ExecContext, v: unknown): Promise<void> {
  const m = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,3}))?)?$/.exec(String(v ?? '').trim());
  if (!m) fail(148, "Incorrect time syntax in time string '" + String(v) + "' used with WAITFOR.", 15, 1);
  const ms = ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000 + Number((m[4] ?? '0').padEnd(3, '0'));
  if (ctx.signal.aborted) return;
  const t0 = Date.now();
  await sleep(ms, ctx.signal);
  // The session waited on WAITFOR for as long as it slept (sys.dm_exec_session_wait_stats), a cancel included.
  addWait(ctx.model, ctx.session.spid, 'WAITFOR', Date.now() - t0);
}

function text(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex').toUpperCase()}`;
  if (typeof v === 'boolean') return v ? '1' : '0';
  return String(v);
}
