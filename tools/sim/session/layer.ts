// The session layer: a SimHandler in front of the model that does what SQL Server does for any client before a
// statement reaches a query: it splits batches into statements, runs SET, transaction control, PRINT, RAISERROR and
// EXEC itself, binds sp_executesql / sp_prepare / sp_execute / sp_prepexec parameters by name or by position, and
// hands every other statement to the model one at a time. The product's own sql/ batches pass through untouched.
import type { LoginRequest, ResponseItem, RpcParam, SessionContext, SimHandler, SqlType, TransactionRequest, Value } from '../tds/contract';
import { err, SqlError } from '../model/errors';
import { recognise } from '../model/statements';
import { findSyntaxError, syntaxErrorMessage } from '../grammar/tsql';
import { firstWord, Lex, LexError, splitBatch, Statement } from '../grammar/lex';
import { parseParamDefs } from '../model/params';
import { resetSession, sessionState, SessionState } from '../model/sessionState';
import { beginTran, commitTran, raiseError, RESERVED, rollbackTran, runSet, saveTran, tranName } from './statements';
import { selectSyntax, syntaxNear } from './selectSyntax';

export { selectSyntax };

/** sp_executesql's statement, definitions and values, as the statements of its batch see them. */
interface Exec {
  defs: string;
  values: RpcParam[];
}

const SPECIAL = new Set(['sp_executesql', 'sp_prepare', 'sp_execute', 'sp_prepexec', 'sp_unprepare']);
/** Statements that open a transaction when IMPLICIT_TRANSACTIONS is ON (docs: SET IMPLICIT_TRANSACTIONS). */
const IMPLICIT = new Set([
  'insert',
  'update',
  'delete',
  'merge',
  'truncate',
  'create',
  'alter',
  'drop',
  'grant',
  'revoke',
  'open',
  'fetch',
]);

const nv = (name: string, value: string): RpcParam => ({ name, sqlType: { type: 'nvarchar', length: 'max' }, value, output: false });

export class SessionLayer implements SimHandler {
  constructor(
    readonly inner: SimHandler,
    private readonly isSysadmin: (login: string) => boolean = () => false,
  ) {}

  login(req: LoginRequest, info: { encrypted: boolean; remoteAddress: string }) {
    return this.inner.login(req, info);
  }
  sessionStarted(s: SessionContext): void {
    this.inner.sessionStarted?.(s);
  }
  sessionEnded(s: SessionContext): void {
    this.inner.sessionEnded?.(s);
  }
  resetConnection(s: SessionContext, keepTransaction?: boolean): void {
    resetSession(s, keepTransaction === true);
    this.inner.resetConnection?.(s, keepTransaction);
  }

  /** Transaction-manager requests (MS-TDS 2.2.6.9): the same transaction count as BEGIN TRAN / COMMIT / ROLLBACK. */
  async transaction(session: SessionContext, req: TransactionRequest): Promise<ResponseItem[]> {
    const st = sessionState(session);
    if (req.isolation) st.isolation = req.isolation;
    switch (req.op) {
      case 'begin':
        return beginTran(st);
      case 'save':
        return saveTran(st, req.name);
      case 'commit':
      case 'rollback': {
        const items = req.op === 'commit' ? commitTran(st) : rollbackTran(st, req.name);
        if (req.beginAfter && !items.some((i) => i.kind === 'error')) {
          if (req.newIsolation) st.isolation = req.newIsolation;
          items.push(...beginTran(st));
        }
        return items;
      }
    }
  }

  async sqlBatch(session: SessionContext, text: string, signal: AbortSignal): Promise<ResponseItem[]> {
    // The grammar sees the whole batch first, as SQL Server's parser does: before it is split into statements (whose
    // line numbers would no longer be the batch's) and before anything is recognised by its text.
    const syntax = findSyntaxError(text);
    if (syntax) return [syntaxErrorMessage(syntax)];
    if (recognise(text)) return this.inner.sqlBatch(session, text, signal);
    return this.guard(() => this.batch(session, text, null, signal));
  }

  async rpc(session: SessionContext, procName: string, params: RpcParam[], signal: AbortSignal): Promise<ResponseItem[]> {
    const short = (procName.replace(/[[\]]/g, '').split('.').pop() ?? '').toLowerCase();
    // sp_reset_connection, which pooling clients (python-tds, older ADO.NET) send as an RPC before reusing a
    // connection: the same reset as the RESETCONNECTION status bit. Only as an RPC: EXEC of it in a batch stays 2812.
    if (short === 'sp_reset_connection' && /^((\[?(master|sys)\]?)?\.)*\[?sp_reset_connection\]?$/i.test(procName) && params.length === 0) {
      this.resetConnection(session);
      return [{ kind: 'returnStatus', value: 0 }];
    }
    if (!SPECIAL.has(short) || (procName.includes('.') && !/^(\[?(master|sys|dbo)\]?\.)+/i.test(procName))) {
      return this.inner.rpc(session, procName, params, signal);
    }
    return this.guard(async () => {
      const st = sessionState(session);
      // The system procedures' leading parameters go by position whatever the client calls them (tedious names
      // sp_executesql's statement '@statement'), or by their documented names.
      const arg = (name: string, pos: number): { p?: RpcParam; i: number } => {
        const i = params.findIndex((p) => p.name.toLowerCase() === name);
        if (i >= 0) return { p: params[i], i };
        return params[pos] ? { p: params[pos], i: pos } : { i: -1 };
      };
      switch (short) {
        case 'sp_executesql': {
          const stmt = params[0];
          const hasDefs = params.length > 1 && (params[1].name === '' || params[1].name.toLowerCase() === '@params');
          const defs = hasDefs ? String(params[1].value ?? '') : '';
          return this.executeSql(session, String(stmt?.value ?? ''), defs, params.slice(hasDefs ? 2 : 1), signal, params);
        }
        case 'sp_prepare':
        case 'sp_prepexec': {
          const h = arg('@handle', 0);
          const defs = String(arg('@params', 1).p?.value ?? '');
          const stmt = String(arg('@stmt', 2).p?.value ?? '');
          if (!h.p) return [err(201, `Procedure or function '${short}' expects parameter '@handle', which was not supplied.`, 16, 4)];
          parseParamDefs(defs); // a bad definition list fails the prepare, as on SQL Server
          const handle = st.nextHandle++;
          st.prepared.set(handle, { params: defs, stmt });
          const out: ResponseItem[] = [];
          if (short === 'sp_prepexec') {
            const rest = params.filter((p, i) => i > 2 && !/^@(handle|params|stmt|options)$/i.test(p.name));
            out.push(...(await this.executeSql(session, stmt, defs, rest, signal, params)));
          }
          out.push({ kind: 'returnStatus', value: 0 });
          out.push({ kind: 'outputValue', name: h.p.name, ordinal: h.i, sqlType: { type: 'int' }, value: handle });
          return out;
        }
        case 'sp_execute': {
          const h = arg('@handle', 0);
          const prep = st.prepared.get(Number(h.p?.value));
          if (!prep) return [err(8179, `Could not find prepared statement with handle ${String(h.p?.value ?? 'NULL')}.`, 16, 1)];
          const rest = params.filter((_, i) => i !== h.i);
          return this.executeSql(session, prep.stmt, prep.params, rest, signal, params);
        }
        default: {
          const h = arg('@handle', 0);
          if (!st.prepared.delete(Number(h.p?.value)))
            return [err(8179, `Could not find prepared statement with handle ${String(h.p?.value ?? 'NULL')}.`, 16, 1)];
          return [{ kind: 'returnStatus', value: 0 }];
        }
      }
    });
  }

  /**
   * sp_executesql: values bound to the definitions by position then by name; errors 8178 / 8145 / 119. The values
   * the call marked OUTPUT come back as RETURNVALUE tokens (at their position in `call`), with what the statement
   * set them to when the definition says OUTPUT too, as SQL Server returns them.
   */
  private async executeSql(
    session: SessionContext,
    stmt: string,
    defsText: string,
    values: RpcParam[],
    signal: AbortSignal,
    call: RpcParam[] = values,
  ): Promise<ResponseItem[]> {
    const defs = parseParamDefs(defsText);
    const bound: RpcParam[] = [];
    let named = false;
    values.forEach((p, i) => {
      if (p.name === '') {
        if (named)
          throw new SqlError([
            err(
              119,
              `Must pass parameter number ${i + 3} and subsequent parameters as '@name = value'. After the form '@name = value' has been used, all subsequent parameters must be passed in the form '@name = value'.`,
              15,
              1,
            ),
          ]);
        const d = defs[i];
        if (!d) throw new SqlError([err(8144, 'Procedure or function sp_executesql has too many arguments specified.', 16, 2)]);
        bound.push({ ...p, name: d.name });
        return;
      }
      named = true;
      if (!defs.some((d) => d.name === p.name.toLowerCase()))
        throw new SqlError([err(8145, `${p.name} is not a parameter for procedure sp_executesql.`, 16, 1)]);
      bound.push({ ...p });
    });
    for (const d of defs) {
      if (!d.hasDefault && !bound.some((b) => b.name.toLowerCase() === d.name)) {
        throw new SqlError([
          err(
            8178,
            `The parameterized query '(${defsText.slice(0, 40)})${stmt.slice(0, 60)}' expects the parameter '${d.name}', which was not supplied.`,
            16,
            1,
          ),
        ]);
      }
    }
    if (recognise(stmt)) return this.inner.rpc(session, 'sp_executesql', [nv('@stmt', stmt), nv('@params', defsText), ...bound], signal);
    const items = await this.batch(session, stmt, { defs: defsText, values: bound }, signal);
    const outputs: ResponseItem[] = [];
    values.forEach((p, i) => {
      if (!p.output) return;
      const b = bound[i];
      const declaredOutput = defs.find((d) => d.name === b.name.toLowerCase())?.output === true;
      const ordinal = call.indexOf(p);
      outputs.push({ kind: 'outputValue', name: p.name, sqlType: p.sqlType, value: declaredOutput ? b.value : p.value, ordinal });
    });
    return [...items.filter((i) => i.kind !== 'returnStatus' && i.kind !== 'outputValue'), ...outputs];
  }

  private async batch(session: SessionContext, text: string, exec: Exec | null, signal: AbortSignal): Promise<ResponseItem[]> {
    let stmts: Statement[];
    try {
      stmts = splitBatch(text);
    } catch (e) {
      if (e instanceof LexError) return [err(e.number, e.message, 15, 1)];
      throw e;
    }
    const items: ResponseItem[] = [];
    for (let i = 0; i < stmts.length && !signal.aborted; i++) {
      const r = await this.guard(() => this.statement(session, stmts[i], i === 0, exec, signal));
      items.push(...r);
      // Compile errors (class 15) and fatal ones end the batch; statement errors (16) let it go on, as on SQL Server.
      if (r.some((m) => m.kind === 'error' && (m.class === 15 || m.class >= 20))) break;
    }
    return items;
  }

  private async statement(
    session: SessionContext,
    s: Statement,
    first: boolean,
    exec: Exec | null,
    signal: AbortSignal,
  ): Promise<ResponseItem[]> {
    const st = sessionState(session);
    const w = firstWord(s);
    const next = s.toks[1]?.k === 'word' ? s.toks[1].v.toLowerCase() : '';
    switch (w) {
      case 'set': {
        const target = s.toks[1]?.k === 'var' ? s.toks[1].v.toLowerCase() : '';
        const param = target ? exec?.values.find((v) => v.name.toLowerCase() === target) : undefined;
        // SET @parameter = <expression> in sp_executesql's statement: the parameter takes the value (an OUTPUT one
        // goes back to the caller).
        if (param && s.toks[2]?.k === 'op' && s.toks[2].v === '=' && s.toks.length > 3) {
          const v = await this.evaluate(session, st, s.toks.slice(3), exec, signal);
          if (Array.isArray(v)) return v;
          param.value = v;
          return [];
        }
        if (target) return this.delegate(session, st, s, exec, signal);
        return runSet(session, st, s);
      }
      case 'begin':
        if (next === 'tran' || next === 'transaction') {
          const { bad } = tranName(s);
          if (bad && bad.k === 'word' && bad.v.toLowerCase() !== 'with') return [syntaxNear(bad)];
          const items = st.implicitTransactions && st.tranCount === 0 ? beginTran(st) : [];
          return [...items, ...beginTran(st)];
        }
        return this.delegate(session, st, s, exec, signal);
      case 'commit':
      case 'rollback':
      case 'save': {
        const { name, bad } = tranName(s);
        if (bad) return [syntaxNear(bad)];
        if (w === 'save') {
          if (!name) return [syntaxNear(undefined)];
          return saveTran(st, name);
        }
        return w === 'commit' ? commitTran(st) : rollbackTran(st, name);
      }
      case 'print': {
        if (s.toks.length < 2) return [syntaxNear(undefined)];
        const v = await this.evaluate(session, st, s.toks.slice(1), exec, signal);
        if (!Array.isArray(v)) return [{ kind: 'info', number: 0, state: 1, class: 0, message: v === null ? '' : valueText(v) }];
        return v;
      }
      case 'raiserror':
        return this.raiserror(session, st, s, exec, signal);
      case 'exec':
      case 'execute':
        return this.exec(session, st, s.toks.slice(1), exec, signal);
      case 'select': {
        const bad = selectSyntax(s.toks);
        if (bad) return [bad];
        if (st.implicitTransactions && st.tranCount === 0 && s.toks.some((t) => t.k === 'word' && t.v.toLowerCase() === 'from')) {
          return [...beginTran(st), ...(await this.delegate(session, st, s, exec, signal))];
        }
        return this.delegate(session, st, s, exec, signal);
      }
      default: {
        if (IMPLICIT.has(w) && st.implicitTransactions && st.tranCount === 0) {
          return [...beginTran(st), ...(await this.delegate(session, st, s, exec, signal))];
        }
        // The first statement of a batch may name a procedure without EXEC.
        const t0 = s.toks[0];
        if (
          first &&
          ((t0.k === 'word' &&
            !RESERVED.has(w) &&
            ![
              'use',
              'declare',
              'with',
              'insert',
              'update',
              'delete',
              'merge',
              'truncate',
              'create',
              'alter',
              'drop',
              'if',
              'while',
              'return',
              'throw',
              'waitfor',
              'grant',
              'revoke',
              'deny',
              'dbcc',
              'checkpoint',
              'kill',
            ].includes(w)) ||
            t0.k === 'qname')
        ) {
          return this.exec(session, st, s.toks, exec, signal);
        }
        return this.delegate(session, st, s, exec, signal);
      }
    }
  }

  /** One statement to the model, with @@TRANCOUNT filled in (the model does not keep transactions). */
  private async delegate(
    session: SessionContext,
    st: SessionState,
    s: Statement,
    exec: Exec | null,
    signal: AbortSignal,
  ): Promise<ResponseItem[]> {
    const base = s.toks[0].start;
    let text = '';
    let at = 0;
    for (const t of s.toks) {
      if (t.k === 'var' && t.v.toLowerCase() === '@@trancount') {
        text += s.text.slice(at, t.start - base) + String(st.tranCount);
        at = t.end - base;
      }
    }
    text += s.text.slice(at);
    let items = exec
      ? await this.inner.rpc(session, 'sp_executesql', [nv('@stmt', text), nv('@params', exec.defs), ...exec.values], signal)
      : await this.inner.sqlBatch(session, text, signal);
    items = items.filter((i) => i.kind !== 'returnStatus');
    if (st.options.get('FMTONLY') === 'ON') items = items.map((i) => (i.kind === 'resultSet' ? { ...i, rows: [] } : i));
    // SET ROWCOUNT n: a query stops after n rows (docs: "SET ROWCOUNT (Transact-SQL)"); 0 is no limit.
    const limit = Number(st.options.get('ROWCOUNT') ?? 0);
    if (limit > 0) items = items.map((i) => (i.kind === 'resultSet' && i.rows.length > limit ? { ...i, rows: i.rows.slice(0, limit) } : i));
    return items;
  }

  /** A scalar expression's value: literals directly, anything else through the model as SELECT <expr>. */
  private async evaluate(
    session: SessionContext,
    st: SessionState,
    toks: Lex[],
    exec: Exec | null,
    signal: AbortSignal,
  ): Promise<Value | ResponseItem[]> {
    if (toks.length === 1 && toks[0].k === 'str') return toks[0].v;
    if (toks.length === 1 && toks[0].k === 'num') return Number(toks[0].v);
    if (toks.length === 2 && toks[0].k === 'op' && toks[0].v === '-' && toks[1].k === 'num') return -Number(toks[1].v);
    if (toks.length === 1 && toks[0].k === 'word' && toks[0].v.toLowerCase() === 'null') return null;
    if (toks.length === 1 && toks[0].k === 'var') {
      const n = toks[0].v.toLowerCase();
      if (n === '@@trancount') return st.tranCount;
      const p = exec?.values.find((v) => v.name.toLowerCase() === n);
      if (p) return p.value;
    }
    const src = toks
      .map((t) =>
        t.k === 'str' ? `${t.unicode ? 'N' : ''}'${t.v.replace(/'/g, "''")}'` : t.k === 'qname' ? `[${t.v.replace(/]/g, ']]')}]` : t.v,
      )
      .join(' ');
    const stmt: Statement = {
      text: `SELECT ${src}`,
      toks: [{ k: 'word', v: 'SELECT', start: 0, end: 6 }, ...toks.map((t) => ({ ...t, start: t.start, end: t.end }))],
    };
    stmt.toks = splitBatch(stmt.text)[0]?.toks ?? stmt.toks;
    const items = await this.delegate(session, st, stmt, exec, signal);
    const rs = items.find((i) => i.kind === 'resultSet');
    if (rs && rs.kind === 'resultSet' && rs.rows.length) return rs.rows[0][0] ?? null;
    return items.filter((i) => i.kind === 'error');
  }

  private async raiserror(
    session: SessionContext,
    st: SessionState,
    s: Statement,
    exec: Exec | null,
    signal: AbortSignal,
  ): Promise<ResponseItem[]> {
    const t = s.toks;
    if (!(t[1]?.k === 'op' && t[1].v === '(')) return [syntaxNear(t[1])];
    const args: Lex[][] = [[]];
    let depth = 0;
    let i = 2;
    for (; i < t.length; i++) {
      const x = t[i];
      if (x.k === 'op' && x.v === '(') depth++;
      if (x.k === 'op' && x.v === ')') {
        if (depth === 0) break;
        depth--;
      }
      if (depth === 0 && x.k === 'op' && x.v === ',') {
        args.push([]);
        continue;
      }
      args[args.length - 1].push(x);
    }
    if (i >= t.length) return [syntaxNear(undefined)];
    if (args.length < 3 || args.some((a) => a.length === 0)) return [syntaxNear(t[i])];
    const opts = t
      .slice(i + 1)
      .filter((x) => x.k === 'word')
      .map((x) => x.v.toUpperCase());
    if (opts.length && opts[0] !== 'WITH') return [syntaxNear(t[i + 1])];
    const vals: Value[] = [];
    for (const a of args) {
      const v = await this.evaluate(session, st, a, exec, signal);
      if (Array.isArray(v)) return v;
      vals.push(v);
    }
    const [msg, sev, state, ...rest] = vals;
    return raiseError(msg, Number(sev), Number(state), rest, opts.includes('LOG'), this.isSysadmin(session.login));
  }

  /** EXEC [@rc =] proc [value | @name = value [OUTPUT]], ... ; EXEC ('batch'). */
  private async exec(
    session: SessionContext,
    st: SessionState,
    toks: Lex[],
    exec: Exec | null,
    signal: AbortSignal,
  ): Promise<ResponseItem[]> {
    let i = 0;
    if (toks[i]?.k === 'var' && toks[i + 1]?.k === 'op' && toks[i + 1].v === '=') i += 2;
    if (toks[i]?.k === 'op' && toks[i].v === '(') {
      const parts = toks.slice(i + 1, toks.length - 1).filter((x) => !(x.k === 'op' && x.v === '+'));
      if (!parts.every((x) => x.k === 'str')) return [syntaxNear(parts.find((x) => x.k !== 'str'))];
      return this.batch(session, parts.map((x) => x.v).join(''), null, signal);
    }
    let name = '';
    while (i < toks.length && (toks[i].k === 'word' || toks[i].k === 'qname' || (toks[i].k === 'op' && toks[i].v === '.'))) {
      name += toks[i].k === 'qname' ? `[${toks[i].v}]` : toks[i].v;
      i++;
      if (toks[i - 1].k !== 'op' && !(toks[i]?.k === 'op' && toks[i].v === '.')) break;
    }
    if (!name) return [syntaxNear(toks[i])];
    const params: RpcParam[] = [];
    const rest = toks.slice(i);
    const groups: Lex[][] = rest.length ? [[]] : [];
    for (const x of rest) {
      if (x.k === 'op' && x.v === ',') {
        groups.push([]);
        continue;
      }
      groups[groups.length - 1].push(x);
    }
    for (const g of groups) {
      let pname = '';
      let v = g;
      if (v[0]?.k === 'var' && v[1]?.k === 'op' && v[1].v === '=') {
        pname = v[0].v;
        v = v.slice(2);
      }
      let output = false;
      const lastWord = v[v.length - 1]?.k === 'word' ? v[v.length - 1].v.toLowerCase() : '';
      if (lastWord === 'output' || lastWord === 'out') {
        output = true;
        v = v.slice(0, -1);
      }
      if (v.length === 0) return [syntaxNear(undefined)];
      if (v.length === 1 && v[0].k === 'word' && v[0].v.toLowerCase() === 'default') {
        if (pname) continue;
        return [
          err(
            50000,
            'The Spinlock Lab simulator (synthetic numbers, not a SQL Server) does not support DEFAULT for a positional EXEC argument.',
            16,
            1,
          ),
        ];
      }
      const val = await this.evaluate(session, st, v, exec, signal);
      if (Array.isArray(val)) return val;
      params.push({ name: pname, sqlType: literalType(v, val), value: val, output });
    }
    const short = (name.replace(/[[\]]/g, '').split('.').pop() ?? '').toLowerCase();
    const items = SPECIAL.has(short) ? await this.rpc(session, name, params, signal) : await this.inner.rpc(session, name, params, signal);
    // In a batch the procedure's OUTPUT values go to variables, not to the client.
    return items.filter((x) => x.kind !== 'outputValue');
  }

  private async guard(fn: () => Promise<ResponseItem[]> | ResponseItem[]): Promise<ResponseItem[]> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof SqlError) return e.messages;
      if (e instanceof LexError) return [err(e.number, e.message, 15, 1)];
      throw e;
    }
  }
}

function valueText(v: Value): string {
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex').toUpperCase()}`;
  if (typeof v === 'boolean') return v ? '1' : '0';
  return String(v);
}

/** The type SQL Server gives an EXEC argument written as a literal. */
function literalType(toks: Lex[], v: Value): SqlType {
  const t = toks.length === 1 ? toks[0] : undefined;
  if (t?.k === 'str') return { type: t.unicode ? 'nvarchar' : 'varchar', length: Math.max(1, t.v.length) };
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? { type: 'int' } : { type: 'float' };
  if (typeof v === 'bigint') return { type: 'bigint' };
  if (typeof v === 'string') return { type: 'nvarchar', length: Math.max(1, v.length) };
  return { type: 'nvarchar', length: 1 };
}
