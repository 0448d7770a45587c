// CREATE / ALTER / DROP EVENT SESSION in a batch the executor runs (a batch of its own, or the text a file hands to
// sp_executesql): where the statement ends, its syntax checked by the Extended Events parser (grammar/xe.ts) when the
// batch compiles, and its run on the model's sessions (model/xe.ts) with SQL Server's errors.
import type { Lex } from '../../grammar/lex';
import { syntaxErrorMessage } from '../../grammar/tsql';
import { parseXeDdl, type XeStatement } from '../../grammar/xe';
import { err, SqlError } from '../errors';
import type { SimModel } from '../instance';
import { XeError } from '../xe';
import type { DdlStmt } from './ast';

export interface StatementCursor {
  toks: Lex[];
  text: string;
  at(): number;
  moveTo(i: number): void;
}

/**
 * Words that start the next statement when the session statement has no ';' (none of them is part of its syntax at
 * the outer level: SET, ACTION and WHERE sit inside an event's parentheses). DROP is the next statement unless it is
 * ALTER EVENT SESSION's DROP EVENT / DROP TARGET package.name.
 */
const NEXT = new Set([
  'select', 'insert', 'update', 'delete', 'declare', 'set', 'if', 'while', 'begin', 'end', 'else', 'exec', 'execute',
  'print', 'raiserror', 'throw', 'return', 'create', 'alter', 'truncate', 'commit', 'rollback', 'save', 'waitfor', 'use',
]); // prettier-ignore

function startsNext(toks: Lex[], i: number): boolean {
  const w = (o: number) => (toks[i + o]?.k === 'word' ? toks[i + o].v.toLowerCase() : '');
  if (NEXT.has(w(0))) return true;
  return w(0) === 'drop' && !((w(1) === 'event' || w(1) === 'target') && w(2) !== 'session');
}

/** The statement at the cursor (its first word is CREATE, ALTER or DROP, then EVENT SESSION), read to its end. */
export function eventSession(c: StatementCursor): DdlStmt {
  const toks = c.toks;
  const first = c.at();
  let i = first + 3;
  let depth = 0;
  for (; i < toks.length; i++) {
    const t = toks[i];
    if (depth === 0 && t.k === 'op' && t.v === ';') break;
    if (depth === 0 && t.k === 'word' && startsNext(toks, i)) break;
    if (t.k === 'op' && t.v === '(') depth++;
    if (t.k === 'op' && t.v === ')') depth--;
  }
  const text = c.text.slice(toks[first].start, toks[i - 1].end);
  c.moveTo(i);
  // A syntax error is the batch's compile error (nothing of it runs); a version's own options are checked when it runs.
  const parsed = parseXeDdl(text);
  if ('fault' in parsed) {
    const above = (c.text.slice(0, toks[first].start).match(/\n/g) ?? []).length; // the line is the batch's
    throw new SqlError([syntaxErrorMessage({ ...parsed.fault, line: parsed.fault.line + above })]);
  }
  return { d: 'event-session', text };
}

/** Runs the statement on the model at the server's version, for `login`, answering a failure with SQL Server's error. */
export function runEventSession(model: SimModel, login: string, text: string): void {
  const parsed = parseXeDdl(text, model.version);
  if ('fault' in parsed) throw new SqlError([syntaxErrorMessage(parsed.fault)]);
  executeXe(model, login, parsed.statement);
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
