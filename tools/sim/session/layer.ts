// The session layer: a SimHandler in front of the model that does what SQL Server does for any client before a
// statement reaches a query: it splits batches into statements, runs SET, transaction control, PRINT, RAISERROR and
// EXEC itself, binds sp_executesql / sp_prepare / sp_execute / sp_prepexec parameters by name or by position, and
// hands every other statement to the model one at a time. A batch the executor parses passes through whole.
import type { LoginRequest, ResponseItem, RpcParam, SessionContext, SimHandler, SqlType, TransactionRequest, Value } from '../tds/contract';
import { err, SqlError } from '../model/errors';
import { executorBatch } from '../model/exec/route';
import { findSyntaxError, syntaxErrorMessage } from '../grammar/tsql';
import { firstWord, Lex, LexError, splitBatch, startsNew, Statement } from '../grammar/lex';
import { parseParamDefs } from '../model/params';
import { resetSession, sessionState, SessionState } from '../model/sessionState';
import { RESERVED, runSet, tranName } from './statements';
import { beginTran, commitTran, raiseError, rollbackTran, saveTran } from '../model/transactions';
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

/** A batch the model takes whole: one the executor parses (model/exec/route.ts). Any other goes statement by statement. */
const whole = (text: string): boolean => executorBatch(text) !== null;

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
    // line numbers would no longer be the batch's) and before the executor reads it.
    const syntax = findSyntaxError(text);
    if (syntax) return [syntaxErrorMessage(syntax)];
    // FMTONLY (which the executor does not run) keeps the statement path, which strips the rows.
    if (whole(text) && sessionState(session).options.get('FMTONLY') !== 'ON') return this.inner.sqlBatch(session, text, signal);
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
    let items: ResponseItem[];
    if (whole(stmt)) {
      items = await this.inner.rpc(session, 'sp_executesql', [nv('@stmt', stmt), nv('@params', defsText), ...bound], signal);
      // The executor sends back the OUTPUT parameters' values by their declared names.
      for (const i of items) {
        const b = i.kind === 'outputValue' ? bound.find((x) => x.name.toLowerCase() === i.name.toLowerCase()) : undefined;
        if (b && i.kind === 'outputValue') b.value = i.value;
      }
    } else items = await this.batch(session, stmt, { defs: defsText, values: bound }, signal);
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
          const { name, bad } = tranName(s);
          if (bad && bad.k === 'word' && bad.v.toLowerCase() !== 'with') return [syntaxNear(bad)];
          const items = st.implicitTransactions && st.tranCount === 0 ? beginTran(st) : [];
          return [...items, ...beginTran(st, name)];
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
      case 'if':
        return (await this.control(session, st, s, exec, signal)) ?? this.delegate(session, st, s, exec, signal);
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

  /**
   * IF <condition> <statement> [ELSE <statement>] and BEGIN ... END, as SQL Server runs them, for the conditions
   * drivers send about the transaction: mssql-jdbc's commit() is IF @@TRANCOUNT > 0 COMMIT TRAN, its setSavepoint() IF
   * @@TRANCOUNT = 0 BEGIN BEGIN TRAN IF @@TRANCOUNT = 2 COMMIT TRAN END SAVE TRAN <name>. A condition must compare
   * @@TRANCOUNT or a number with @@TRANCOUNT or a number; `s` (an IF and the rest of the batch, as splitBatch keeps a
   * block) is read whole before anything runs, and anything else in it returns null: the caller hands the statement
   * to the model, which handles or refuses it as before.
   */
  private async control(
    session: SessionContext,
    st: SessionState,
    s: Statement,
    exec: Exec | null,
    signal: AbortSignal,
  ): Promise<ResponseItem[] | null> {
    type Operand = number | 'trancount';
    type Node =
      { k: 'stmt'; s: Statement } | { k: 'if'; a: Operand; op: string; b: Operand; then: Node; else?: Node } | { k: 'block'; body: Node[] };
    const toks = s.toks;
    const base = toks[0].start;
    const word = (j: number) => (toks[j]?.k === 'word' ? toks[j].v.toLowerCase() : '');
    const operand = (j: number): [Operand, number] | null => {
      const t = toks[j];
      if (t?.k === 'var' && t.v.toLowerCase() === '@@trancount') return ['trancount', j + 1];
      if (t?.k === 'num' && /^\d+$/.test(t.v)) return [Number(t.v), j + 1];
      if (t?.k === 'op' && t.v === '-' && toks[j + 1]?.k === 'num' && /^\d+$/.test(toks[j + 1].v)) return [-Number(toks[j + 1].v), j + 2];
      return null;
    };
    const one = (i: number): [Node, number] | null => {
      while (toks[i]?.k === 'op' && toks[i].v === ';') i++;
      if (i >= toks.length) return null;
      const w = word(i);
      if (w === 'if') {
        const a = operand(i + 1);
        if (!a) return null;
        const op = toks[a[1]];
        if (op?.k !== 'op' || !['=', '<>', '!=', '>', '<', '>=', '<=', '!<', '!>'].includes(op.v)) return null;
        const b = operand(a[1] + 1);
        if (!b) return null;
        const then = one(b[1]);
        if (!then) return null;
        let j = then[1];
        while (toks[j]?.k === 'op' && toks[j].v === ';') j++;
        const node: Node = { k: 'if', a: a[0], op: op.v, b: b[0], then: then[0] };
        if (word(j) === 'else') {
          const e = one(j + 1);
          if (!e) return null;
          node.else = e[0];
          j = e[1];
        }
        return [node, j];
      }
      if (w === 'begin' && !/^(tran|transaction|distributed)$/.test(word(i + 1))) {
        if (/^(try|catch|conversation|dialog)$/.test(word(i + 1))) return null;
        const body: Node[] = [];
        let j = i + 1;
        for (;;) {
          while (toks[j]?.k === 'op' && toks[j].v === ';') j++;
          if (j >= toks.length) return null;
          if (word(j) === 'end') return [{ k: 'block', body }, j + 1];
          const n = one(j);
          if (!n) return null;
          body.push(n[0]);
          j = n[1];
        }
      }
      if (['else', 'end', 'while', 'goto', 'break', 'continue', 'return'].includes(w)) return null;
      // A simple statement: up to ';', END / ELSE of the enclosing block, or where the next statement starts.
      let j = i + 1;
      let depth = 0;
      let cases = 0;
      for (; j < toks.length; j++) {
        const t = toks[j];
        if (t.k === 'op' && t.v === '(') depth++;
        if (t.k === 'op' && t.v === ')') depth--;
        if (depth > 0) continue;
        if (t.k === 'op' && t.v === ';') break;
        const tw = word(j);
        if (tw === 'case') cases++;
        else if (tw === 'end' && cases > 0) cases--;
        else if ((tw === 'end' || tw === 'else') && cases === 0) break;
        else if (tw && startsNew(toks.slice(i, j), tw)) break;
      }
      return [{ k: 'stmt', s: { text: s.text.slice(toks[i].start - base, toks[j - 1].end - base), toks: toks.slice(i, j) } }, j];
    };
    const nodes: Node[] = [];
    for (let i = 0; ;) {
      while (toks[i]?.k === 'op' && toks[i].v === ';') i++;
      if (i >= toks.length) break;
      const n = one(i);
      if (!n) return null;
      nodes.push(n[0]);
      i = n[1];
    }
    const out: ResponseItem[] = [];
    const value = (o: Operand) => (o === 'trancount' ? st.tranCount : o);
    const holds = (a: number, op: string, b: number) =>
      op === '='
        ? a === b
        : op === '<>' || op === '!='
          ? a !== b
          : op === '>'
            ? a > b
            : op === '<'
              ? a < b
              : op === '>=' || op === '!<'
                ? a >= b
                : a <= b;
    /** Runs a node; true when the batch must stop (a compile or fatal error, or a cancel), as in batch(). */
    const run = async (n: Node): Promise<boolean> => {
      if (n.k === 'stmt') {
        const r = await this.guard(() => this.statement(session, n.s, false, exec, signal));
        out.push(...r);
        return signal.aborted || r.some((m) => m.kind === 'error' && (m.class === 15 || m.class >= 20));
      }
      if (n.k === 'if') {
        const branch = holds(value(n.a), n.op, value(n.b)) ? n.then : n.else;
        return branch ? run(branch) : false;
      }
      for (const c of n.body) if (await run(c)) return true;
      return false;
    };
    for (const n of nodes) if (await run(n)) break;
    return out;
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
    // EXEC @rc = proc ...: @rc takes the procedure's return status.
    const statusTo = toks[0]?.k === 'var' && toks[1]?.k === 'op' && toks[1].v === '=' ? toks[0].v.toLowerCase() : '';
    if (statusTo) i += 2;
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
    /** Where each OUTPUT argument's value goes back to: the variable it was passed as (by position in params). */
    const targets = new Map<number, string>();
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
      // A variable passed as an argument has its declared type (an sp_executesql parameter's), not a literal's.
      const asVar =
        v.length === 1 && v[0].k === 'var' ? exec?.values.find((x) => x.name.toLowerCase() === v[0].v.toLowerCase()) : undefined;
      if (output && v.length === 1 && v[0].k === 'var') targets.set(params.length, v[0].v.toLowerCase());
      params.push({ name: pname, sqlType: asVar ? asVar.sqlType : literalType(v, val), value: val, output });
    }
    const short = (name.replace(/[[\]]/g, '').split('.').pop() ?? '').toLowerCase();
    const items = SPECIAL.has(short) ? await this.rpc(session, name, params, signal) : await this.inner.rpc(session, name, params, signal);
    // In a batch the procedure's OUTPUT values go to the variables passed for them (here: the enclosing
    // sp_executesql's parameters), not to the client; EXEC @rc = sets @rc to the return status.
    const variable = (n: string) => exec?.values.find((x) => x.name.toLowerCase() === n);
    for (const o of items) {
      if (o.kind !== 'outputValue') continue;
      const at = o.ordinal ?? params.findIndex((p) => p.name !== '' && p.name.toLowerCase() === o.name.toLowerCase());
      const target = targets.get(at);
      const p = target ? variable(target) : undefined;
      if (p) p.value = o.value;
    }
    if (statusTo) {
      const status = items.find((x) => x.kind === 'returnStatus');
      const failed = items.some((x) => x.kind === 'error' && x.class >= 11);
      const p = variable(statusTo);
      if (p && (status || !failed)) p.value = status && status.kind === 'returnStatus' ? status.value : 0;
    }
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
