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
import { cols, T } from '../types';
import type { Value } from '../../tds/contract';
import { param, resultSet, select, statements, strParam, throwUser } from './util';

/** The strings the batch hands to EXEC sys.sp_executesql, in order, evaluated from its DECLAREs and the parameters. */
export function dynamicStatements(text: string, params: Map<string, Value>): string[] {
  const toks = tokenize(text);
  const vars = new Map<string, string>();
  const out: string[] = [];
  const isId = (t: Tok | undefined, v: string) => t?.k === 'id' && t.v.toUpperCase() === v;
  const isOp = (t: Tok | undefined, v: string) => t?.k === 'op' && t.v === v;
  const value = (name: string): Value => params.get(name.toLowerCase()) ?? null;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (isId(t, 'DECLARE') && toks[i + 1]?.k === 'var' && isId(toks[i + 2], 'NVARCHAR') && isOp(toks[i + 3], '(') && isId(toks[i + 4], 'MAX') && isOp(toks[i + 5], ')') && isOp(toks[i + 6], '=')) {
      const name = (toks[i + 1] as { v: string }).v.toLowerCase();
      let j = i + 7;
      let s = '';
      for (;;) {
        const a = toks[j];
        if (a?.k === 'str') { s += a.v; j++; }
        else if (isId(a, 'QUOTENAME') && isOp(toks[j + 1], '(') && toks[j + 2]?.k === 'var' && isOp(toks[j + 3], ')')) {
          const v = value((toks[j + 2] as { v: string }).v);
          if (v === null) return []; // QUOTENAME(NULL) is NULL, and so is the whole string: nothing runs
          s += `[${String(v).replace(/]/g, ']]')}]`;
          j += 4;
        } else if (isId(a, 'CAST') && isOp(toks[j + 1], '(') && toks[j + 2]?.k === 'var' && isId(toks[j + 3], 'AS') && isId(toks[j + 4], 'NVARCHAR')
          && isOp(toks[j + 5], '(') && toks[j + 6]?.k === 'num' && isOp(toks[j + 7], ')') && isOp(toks[j + 8], ')')) {
          const v = value((toks[j + 2] as { v: string }).v);
          if (v === null) return [];
          s += String(v);
          j += 9;
        } else throw new SqlError([unsupported(`an expression the simulator cannot evaluate near ${a?.k === 'op' || a?.k === 'id' ? a.v : '?'}`)]);
        if (isOp(toks[j], '+')) { j++; continue; }
        if (isOp(toks[j], ';')) break;
        throw new SqlError([unsupported('a DECLARE that is not a plain string concatenation')]);
      }
      vars.set(name, s);
      i = j;
    } else if ((isId(t, 'EXEC') || isId(t, 'EXECUTE')) && isId(toks[i + 1], 'SYS') && isOp(toks[i + 2], '.') && isId(toks[i + 3], 'SP_EXECUTESQL') && toks[i + 4]?.k === 'var') {
      const v = vars.get((toks[i + 4] as { v: string }).v.toLowerCase());
      if (v === undefined) throw new SqlError([err(137, `Must declare the scalar variable "${(toks[i + 4] as { v: string }).v}".`, 15, 2)]);
      out.push(v);
      i += 4;
    }
  }
  return out;
}

/** Runs one dynamic statement: the Extended Events parser, then the model. */
function runXe(c: BatchCall, ddl: string): void {
  const parsed = parseXeDdl(ddl);
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
  if (!ours(session) || session!.length > 100) throwUser(50020, 'Spinlock Lab: the event session name must start with SpinlockLab_ and be at most 100 characters.');
  if (type === null || Number(type) < 0) throwUser(50021, 'Spinlock Lab: the spinlock type must be a map_key from sys.dm_xe_map_values (name = spinlock_types).');
  if (slots === null || Number(slots) < 16 || Number(slots) > 16384) throwUser(50022, 'Spinlock Lab: the histogram slots must be from 16 to 16384.');
  for (const ddl of dynamicStatements(c.text, c.params)) runXe(c, ddl);
  return [];
};

const dropSession: BatchHandler = (c) => {
  const session = strParam(c, '@session');
  if (!ours(session)) throwUser(50020, 'Spinlock Lab: only event sessions whose names start with SpinlockLab_ are dropped.');
  if (c.model.xe.sessions.has(session!.toLowerCase())) for (const ddl of dynamicStatements(c.text, c.params)) runXe(c, ddl);
  return [resultSet(cols([['remaining', T.int]]), [[c.model.xe.sessions.has(session!.toLowerCase()) ? 1 : 0]])];
};

const readTarget: BatchHandler = (c) => {
  if (!c.model.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(c.model));
  const name = strParam(c, '@session');
  const s = name === null ? undefined : c.model.xe.sessions.get(name.toLowerCase());
  const rows: Value[][] = [];
  if (s?.running && s.targets.some((t) => t.target.name === 'histogram')) rows.push([s.name, 'histogram', 1, c.model.xe.targetData(c.model, s)]);
  return [resultSet(cols([['session_name', T.nvarchar(256)], ['target_name', T.nvarchar(60)], ['execution_count', T.bigint], ['target_data', T.nvarchar('max')]]), rows)];
};

const listSessions: BatchHandler = (c) => {
  if (!c.model.canViewServerState(c.session.login)) throw new SqlError(serverStateDenied(c.model));
  const rows = [...c.model.xe.sessions.values()].filter((s) => /^SpinlockLab_/i.test(s.name)).sort((a, b) => a.name.localeCompare(b.name))
    .map((s) => [s.name, s.running ? 1 : 0] as Value[]);
  return [resultSet(cols([['name', T.sysname], ['running', T.int]]), rows)];
};

export const XE_HANDLERS: Record<string, BatchHandler[]> = {
  'xe/spinlock-type': [(c) => statements(c.text).map((s) => select(c, s))],
  'xe/create-session': [createSession],
  'xe/read-target': [readTarget],
  'xe/drop-session': [dropSession],
  'xe/list-sessions': [listSessions],
};
