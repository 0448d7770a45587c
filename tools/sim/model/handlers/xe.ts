// sql/xe/*: Spinlock Lab's event sessions. The DDL is what the batch builds with dynamic SQL: the handler evaluates
// the batch's own DECLARE @x nvarchar(max) = <N'...' + QUOTENAME(@p) + CAST(@p AS nvarchar(n)) ...> expressions with
// the parameters that arrived, and runs each string passed to EXEC sys.sp_executesql through the Extended Events
// parser (grammar/xe.ts) and model (model/xe.ts), as SQL Server would run the dynamic statement.
import { parseXeDdl, type XeStatement } from '../../grammar/xe';
import type { SimModel } from '../instance';
import { XeError } from '../xe';
import { syntaxErrorMessage } from '../../grammar/tsql';
import { err, serverStateDenied, SqlError, unsupported } from '../errors';
import { tokenize, type Tok } from '../sqlparse';
import type { BatchCall, BatchHandler } from '../statements';
import { cols, T, type SystemView } from '../types';
import { findView } from '../select';
import type { Value } from '../../tds/contract';
import { param, resultSet, select, statements, strParam, throwUser } from './util';

/**
 * The strings the batch hands to EXEC sys.sp_executesql, in order, evaluated from its DECLAREs and the parameters:
 * concatenations (+) of N'...' literals, QUOTENAME(@p), CAST(@p AS nvarchar(n)), a simple CASE @p WHEN N'..' THEN ..
 * ELSE .. END and a searched CASE WHEN @p IS [NOT] NULL THEN .. ELSE .. END. NULL propagates through + as
 * CONCAT_NULL_YIELDS_NULL does, and EXEC sys.sp_executesql NULL runs nothing.
 */
export function dynamicStatements(text: string, params: Map<string, Value>): string[] {
  const toks = tokenize(text);
  const vars = new Map<string, string | null>();
  const out: string[] = [];
  const isId = (t: Tok | undefined, v: string) => t?.k === 'id' && t.v.toUpperCase() === v;
  const isOp = (t: Tok | undefined, v: string) => t?.k === 'op' && t.v === v;
  const value = (name: string): Value => params.get(name.toLowerCase()) ?? null;
  const cannot = (a: Tok | undefined): never => {
    throw new SqlError([unsupported(`an expression the simulator cannot evaluate near ${a?.k === 'op' || a?.k === 'id' ? a.v : '?'}`)]);
  };
  let j = 0;
  const expect = (ok: boolean) => {
    if (!ok) cannot(toks[j]);
    j++;
  };
  const varName = (): string => {
    const t = toks[j];
    if (t?.k !== 'var') cannot(t);
    j++;
    return (t as { v: string }).v;
  };
  const caseExpr = (): string | null => {
    expect(isId(toks[j], 'CASE'));
    let result: string | null | undefined;
    if (toks[j]?.k === 'var') {
      const v = value(varName());
      while (isId(toks[j], 'WHEN')) {
        j++;
        const w = toks[j];
        if (w?.k !== 'str') cannot(w);
        j++;
        expect(isId(toks[j], 'THEN'));
        const then = concat();
        if (result === undefined && v !== null && String(v).trimEnd().toLowerCase() === (w as { v: string }).v.trimEnd().toLowerCase())
          result = then;
      }
    } else {
      while (isId(toks[j], 'WHEN')) {
        j++;
        const v = value(varName());
        expect(isId(toks[j], 'IS'));
        const not = isId(toks[j], 'NOT');
        if (not) j++;
        expect(isId(toks[j], 'NULL'));
        expect(isId(toks[j], 'THEN'));
        const then = concat();
        if (result === undefined && (v === null) !== not) result = then;
      }
    }
    let otherwise: string | null = null;
    if (isId(toks[j], 'ELSE')) {
      j++;
      otherwise = concat();
    }
    expect(isId(toks[j], 'END'));
    return result === undefined ? otherwise : result;
  };
  const term = (): string | null => {
    const a = toks[j];
    if (a?.k === 'str') {
      j++;
      return a.v;
    }
    if (isId(a, 'QUOTENAME')) {
      j++;
      expect(isOp(toks[j], '('));
      const v = value(varName());
      expect(isOp(toks[j], ')'));
      return v === null ? null : `[${String(v).replace(/]/g, ']]')}]`;
    }
    if (isId(a, 'CAST')) {
      j++;
      expect(isOp(toks[j], '('));
      const v = value(varName());
      expect(isId(toks[j], 'AS'));
      expect(isId(toks[j], 'NVARCHAR'));
      expect(isOp(toks[j], '('));
      expect(toks[j]?.k === 'num');
      expect(isOp(toks[j], ')'));
      expect(isOp(toks[j], ')'));
      return v === null ? null : String(v);
    }
    if (isId(a, 'CASE')) return caseExpr();
    return cannot(a);
  };
  function concat(): string | null {
    let acc: string | null = term();
    while (isOp(toks[j], '+')) {
      j++;
      const t = term();
      acc = acc === null || t === null ? null : acc + t;
    }
    return acc;
  }
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (
      isId(t, 'DECLARE') &&
      toks[i + 1]?.k === 'var' &&
      isId(toks[i + 2], 'NVARCHAR') &&
      isOp(toks[i + 3], '(') &&
      isId(toks[i + 4], 'MAX') &&
      isOp(toks[i + 5], ')') &&
      isOp(toks[i + 6], '=')
    ) {
      const name = (toks[i + 1] as { v: string }).v.toLowerCase();
      j = i + 7;
      const v = concat();
      if (!isOp(toks[j], ';')) throw new SqlError([unsupported('a DECLARE that is not a plain string concatenation')]);
      vars.set(name, v);
      i = j;
    } else if (
      (isId(t, 'EXEC') || isId(t, 'EXECUTE')) &&
      isId(toks[i + 1], 'SYS') &&
      isOp(toks[i + 2], '.') &&
      isId(toks[i + 3], 'SP_EXECUTESQL') &&
      toks[i + 4]?.k === 'var'
    ) {
      const name = (toks[i + 4] as { v: string }).v.toLowerCase();
      if (!vars.has(name)) throw new SqlError([err(137, `Must declare the scalar variable "${(toks[i + 4] as { v: string }).v}".`, 15, 2)]);
      const v = vars.get(name);
      if (v !== null && v !== undefined) out.push(v);
      i += 4;
    }
  }
  return out;
}

/** Runs one dynamic statement: the Extended Events parser, then the model. */
function runXe(c: BatchCall, ddl: string): void {
  const parsed = parseXeDdl(ddl, c.model.version);
  if ('fault' in parsed) throw new SqlError([syntaxErrorMessage(parsed.fault)]);
  executeXe(c.model, c.session.login, parsed.statement);
}

/** Runs a parsed statement on the model, answering its failure as SQL Server's ERROR token. */
export function executeXe(model: SimModel, login: string, st: XeStatement): void {
  try {
    model.xe.execute(model, login, st);
  } catch (e) {
    if (e instanceof XeError) throw new SqlError([err(e.number, e.message, 16, 1)]);
    throw e;
  }
}

const ours = (s: string | null) => s !== null && /^SpinlockLab_/i.test(s);

const createSession: BatchHandler = (c) => {
  const session = strParam(c, '@session');
  const type = param(c, '@type');
  const slots = param(c, '@slots');
  if (!ours(session) || session!.length > 100)
    throwUser(50020, 'Spinlock Lab: the event session name must start with SpinlockLab_ and be at most 100 characters.');
  if (type === null || Number(type) < 0)
    throwUser(50021, 'Spinlock Lab: the spinlock type must be a map_key from sys.dm_xe_map_values (name = spinlock_types).');
  if (slots === null || Number(slots) < 16 || Number(slots) > 16384)
    throwUser(50022, 'Spinlock Lab: the histogram slots must be from 16 to 16384.');
  const partition = strParam(c, '@partition');
  const memory = param(c, '@max_memory_kb');
  if (
    partition === null ||
    !['NONE', 'PER_NODE', 'PER_CPU'].includes(partition.toUpperCase()) ||
    memory === null ||
    Number(memory) < 4096 ||
    Number(memory) > 262144
  ) {
    throwUser(50023, 'Spinlock Lab: MEMORY_PARTITION_MODE must be NONE, PER_NODE or PER_CPU, and MAX_MEMORY from 4096 to 262144 KB.');
  }
  const duration = param(c, '@max_duration_s');
  if (duration !== null && (Number(duration) < 1 || Number(duration) > 2147483))
    throwUser(50024, 'Spinlock Lab: MAX_DURATION must be from 1 to 2147483 seconds, or NULL for none.');
  for (const ddl of dynamicStatements(c.text, c.params)) runXe(c, ddl);
  return [];
};

const dropSession: BatchHandler = (c) => {
  const session = strParam(c, '@session');
  if (!ours(session)) throwUser(50020, 'Spinlock Lab: only event sessions whose names start with SpinlockLab_ are dropped.');
  // sys.server_event_sessions shows nothing without VIEW SERVER STATE: a batch that asks HAS_PERMS_BY_NAME first drops
  // blind and cannot confirm (NULL); one that only looks in the catalogue finds nothing and says 0, as SQL Server would.
  const visible = c.model.canViewServerState(c.session.login);
  const blind = !visible && /\bHAS_PERMS_BY_NAME\b/i.test(c.text);
  const exists = () => c.model.xe.sessions.has(session!.toLowerCase());
  if (blind || (visible && exists())) {
    for (const ddl of dynamicStatements(c.text, c.params)) {
      try {
        runXe(c, ddl);
      } catch (e) {
        if (!(blind && e instanceof SqlError && e.messages.some((m) => m.kind === 'error' && m.number === 15151))) throw e;
      }
    }
  }
  const remaining = visible ? (exists() ? 1 : 0) : blind ? null : 0;
  return [resultSet(cols([['remaining', T.int]]), [[remaining]])];
};

/**
 * sql/xe/read-target.sql: sys.dm_xe_sessions joined to sys.dm_xe_session_targets on the session's address, for the
 * named session's histogram. The select list is served as the file writes it (alias.column [AS name], or
 * CAST(alias.column AS nvarchar(max)) AS name), from the views' documented columns: a column the file does not name is
 * not sent, and one the views lack is Msg 207, as on SQL Server.
 */
const sameAddress = (a: Value, b: Value) => (Buffer.isBuffer(a) && Buffer.isBuffer(b) ? a.equals(b) : a === b);

const readTarget: BatchHandler = (c) => {
  if (!c.model.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(c.model));
  const name = strParam(c, '@session');
  const sessions = findView('sys.dm_xe_sessions')!;
  const targets = findView('sys.dm_xe_session_targets')!;
  const aliases = new Map<string, SystemView>();
  for (const m of c.text.matchAll(/\b(sys\.dm_xe_sessions|sys\.dm_xe_session_targets)\s+AS\s+(\w+)/gi))
    aliases.set(m[2].toLowerCase(), m[1].toLowerCase() === 'sys.dm_xe_sessions' ? sessions : targets);
  const list = /^\s*SELECT\s+([\s\S]*?)\s+FROM\s/im.exec(c.text.replace(/^--.*$/gm, ''))?.[1] ?? '';
  const items = list
    .split(/,(?![^()]*\))/)
    .map((x) => x.trim())
    .map((item) => {
      const m = /^(?:CAST\(\s*(\w+)\.(\w+)\s+AS\s+nvarchar\(max\)\s*\)|(\w+)\.(\w+))(?:\s+AS\s+(\w+))?$/i.exec(item);
      if (!m) throw new SqlError([unsupported(`a select item the simulator cannot serve: ${item}`)]);
      const alias = (m[1] ?? m[3]).toLowerCase();
      const col = (m[2] ?? m[4]).toLowerCase();
      const view = aliases.get(alias);
      if (!view) throw new SqlError([err(4104, `The multi-part identifier "${alias}.${col}" could not be bound.`)]);
      const cols = view.columns(c);
      const i = cols.findIndex((x) => x.name.toLowerCase() === col);
      if (i < 0) throw new SqlError([err(207, `Invalid column name '${col}'.`)]);
      const type = m[1] ? T.nvarchar('max') : cols[i].sqlType;
      return { view, i, column: { name: m[5] ?? cols[i].name, sqlType: type, nullable: cols[i].nullable } };
    });
  const sRows = sessions.rows(c, null).filter((r) => name !== null && String(r[1]).toLowerCase() === name.toLowerCase());
  const rows: Value[][] = [];
  for (const sr of sRows) {
    for (const tr of targets.rows(c, null).filter((t) => sameAddress(t[0], sr[0]) && t[1] === 'histogram')) {
      rows.push(items.map((it) => (it.view === sessions ? sr : tr)[it.i]));
    }
  }
  return [
    resultSet(
      items.map((it) => it.column),
      rows,
    ),
  ];
};

export const XE_HANDLERS: Record<string, BatchHandler[]> = {
  'xe/spinlock-type': [(c) => statements(c.text).map((s) => select(c, s))],
  'xe/cpus': [(c) => statements(c.text).map((s) => select(c, s))],
  'xe/create-session': [createSession],
  'xe/read-target': [readTarget],
  'xe/drop-session': [dropSession],
};
