// EXEC as SQL Server runs it: a procedure the model holds (procedures.ts) or a built-in one (sysprocs.ts) with
// positional and named arguments, OUTPUT arguments copied back and the return status; sp_executesql and EXEC (string)
// run the text with the executor itself, in a scope of their own; INSERT ... EXEC takes the result sets as rows.
import type { ResponseItem, RpcParam, ServerMessage } from '../../tds/contract';
import { err, SqlError } from '../errors';
import { parseParamDefs } from '../params';
import { callModelProcedure } from '../procedures';
import type { ExecStmt, Stmt } from './ast';
import type { ExecContext } from './context';
import { evaluate } from './env';
import { insertRows } from './insert';
import { Parser } from './parse';
import { bindSystem, systemProc } from './sysprocs';
import { inNamedDatabase } from './dbScope';
import { castTo, fail, sqlType, typeNameOf, Typed } from './values';

const CHARS = ['nvarchar', 'varchar', 'nchar', 'char', 'varbinary', 'binary'];

interface Arg {
  param: RpcParam;
  /** The variable an OUTPUT argument goes back to. */
  target?: string;
}

function args(ctx: ExecContext, s: Extract<ExecStmt, { kind: 'exec' }>): Arg[] {
  const env = { ctx, sources: [], row: [], typing: false };
  let named = false;
  return s.args.flatMap((a, i) => {
    if (a.name) named = true;
    else if (named)
      fail(
        119,
        `Must pass parameter number ${i + 1} and subsequent parameters as '@name = value'. After the form '@name = value' has been used, all subsequent parameters must be passed in the form '@name = value'.`,
        15,
        1,
      );
    if (!a.e)
      return a.name
        ? []
        : fail(
            50000,
            'The Spinlock Lab simulator (synthetic numbers, not a SQL Server) does not support DEFAULT for a positional EXEC argument.',
          );
    const x = evaluate(env, a.e);
    const target = a.output && a.e.t === 'var' ? a.e.name : undefined;
    return [{ param: { name: a.name ?? '', sqlType: x.type, value: x.v, output: a.output }, target }];
  });
}

/** Sets a variable as SET would: converted to its declared type. */
function assign(ctx: ExecContext, name: string, x: Typed): void {
  const cur = ctx.vars.get(name);
  if (cur) ctx.vars.set(name, castTo(x, typeNameOf(cur.type)));
}

export async function runExec(ctx: ExecContext, s: ExecStmt, out: ResponseItem[]): Promise<void> {
  if (s.kind === 'execsql') {
    const text = evaluate({ ctx, sources: [], row: [], typing: false }, s.e).v;
    await ctx.nested(text === null ? '' : String(text), new Map(), out);
    return;
  }
  const list = args(ctx, s);
  let status = 0;
  const sys = systemProc(s.proc);
  if (sys && !sys.proc) await executeSql(ctx, list, out);
  else if (sys?.proc)
    status = await sys.proc.run(
      inNamedDatabase(ctx, s.proc),
      bindSystem(
        sys.short,
        sys.proc,
        list.map((a) => a.param),
      ),
      out,
    );
  else status = await modelProcedure(ctx, s.proc, list, out);
  if (s.status) assign(ctx, s.status, { v: status, type: { type: 'int' } });
}

async function modelProcedure(ctx: ExecContext, proc: string, list: Arg[], out: ResponseItem[]): Promise<number> {
  const params = list.map((a) => a.param);
  const items = await callModelProcedure(ctx.model, ctx.session, proc, params, ctx.signal);
  let status = 0;
  const errors: ServerMessage[] = [];
  for (const i of items) {
    if (i.kind === 'returnStatus') status = i.value;
    else if (i.kind === 'outputValue') {
      const at = i.ordinal ?? params.findIndex((p) => p.name.toLowerCase() === i.name.toLowerCase());
      const a = list[at];
      if (a?.target) assign(ctx, a.target, { v: i.value, type: i.sqlType });
    } else if (i.kind === 'error' && i.class > 10) errors.push(i);
    else out.push(i);
  }
  // The procedure's errors are the EXEC statement's: caught by a TRY around it, or sent as they came.
  if (errors.length) throw new SqlError(errors);
  return status;
}

/**
 * sp_executesql @stmt [, @params, values...]: the values bound to the definitions by position then by name (Msg 8178
 * for one missing, 8145 for an unknown name), the text run in its own scope, OUTPUT values copied back.
 */
async function executeSql(ctx: ExecContext, list: Arg[], out: ResponseItem[]): Promise<void> {
  const take = (n: string, pos: number): Arg | undefined =>
    list.find((a) => a.param.name === n) ?? (list[pos]?.param.name === '' ? list[pos] : undefined);
  const stmt = take('@stmt', 0);
  const defsArg = take('@params', 1);
  const defsText = defsArg?.param.value == null ? '' : String(defsArg.param.value);
  const defs = parseParamDefs(defsText);
  const rest = list.filter((a) => a !== stmt && a !== defsArg);
  const vars = new Map<string, Typed>();
  const from = new Map<string, Arg>();
  rest.forEach((a, i) => {
    const d = a.param.name ? defs.find((x) => x.name === a.param.name) : defs[i];
    if (!d)
      throw new SqlError([
        a.param.name
          ? err(8145, `${a.param.name} is not a parameter for procedure sp_executesql.`, 16, 1)
          : err(8144, 'Procedure or function sp_executesql has too many arguments specified.', 16, 2),
      ]);
    from.set(d.name, a);
  });
  for (const d of defs) {
    const a = from.get(d.name);
    if (!a && !d.hasDefault)
      fail(
        8178,
        `The parameterized query '(${defsText.slice(0, 40)})${String(stmt?.param.value ?? '').slice(0, 60)}' expects the parameter '${d.name}', which was not supplied.`,
      );
    const t = Parser.of(d.type).typeOnly();
    const type = CHARS.includes(t.base) && t.length === undefined ? { ...t, length: 1 } : t;
    vars.set(d.name, castTo(a ? { v: a.param.value, type: a.param.sqlType } : { v: null, type: sqlType(type) }, type));
  }
  const text = stmt?.param.value;
  // A NULL statement runs as nothing and succeeds (sp_executesql).
  if (text === null || text === undefined) return;
  const after = await ctx.nested(String(text), vars, out);
  for (const d of defs) {
    const a = from.get(d.name);
    const v = after.get(d.name);
    if (d.output && a?.target && v) assign(ctx, a.target, v);
  }
}

/** INSERT INTO #t | @t [(cols)] EXEC ...: every result set the call returns becomes rows of the table. */
export async function insertFromExec(ctx: ExecContext, s: Extract<Stmt, { kind: 'insert' }>, out: ResponseItem[]): Promise<void> {
  const sub: ResponseItem[] = [];
  await runExec(ctx, s.exec!, sub);
  const rows: Typed[][] = [];
  for (const i of sub) {
    if (i.kind === 'resultSet') rows.push(...i.rows.map((r) => r.map((v, k) => ({ v, type: i.columns[k].sqlType }))));
    else out.push(i);
  }
  insertRows(ctx, s, rows, () => fail(213, 'Column name or number of supplied values does not match table definition.', 16, 1));
}
