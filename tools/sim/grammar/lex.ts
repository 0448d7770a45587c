// A T-SQL lexer for the session layer and parameter lists: just enough to split a batch into statements, read the
// session statements drivers send (SET, BEGIN TRAN, COMMIT, PRINT, RAISERROR, EXEC) and a procedure's parameters. Strings, comments and [quoted] names are kept
// whole so that a ';' or a keyword inside them never splits a statement.

export type LexKind = 'word' | 'qname' | 'var' | 'num' | 'str' | 'op';

export interface Lex {
  k: LexKind;
  /** word: as written; qname: without brackets; str: the value; num/op/var: the text. */
  v: string;
  /** str: N'...' */
  unicode?: boolean;
  start: number;
  end: number;
}

/** A lexing failure SQL Server reports at compile time (the batch does not run). */
export class LexError extends Error {
  constructor(
    readonly number: number,
    message: string,
  ) {
    super(message);
  }
}

export function lex(sql: string): Lex[] {
  const out: Lex[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      // Block comments nest in T-SQL.
      let depth = 0;
      while (i < n) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
          continue;
        }
        if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
          if (depth === 0) break;
          continue;
        }
        i++;
      }
      if (depth > 0) throw new LexError(113, `Missing end comment mark '*/'.`);
      continue;
    }
    const start = i;
    if (c === '[') {
      let v = '';
      i++;
      for (;;) {
        if (i >= n) throw new LexError(105, `Unclosed quotation mark after the character string '${v}'.`);
        if (sql[i] === ']') {
          if (sql[i + 1] === ']') {
            v += ']';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += sql[i++];
      }
      out.push({ k: 'qname', v, start, end: i });
      continue;
    }
    if (c === '"') {
      const e = sql.indexOf('"', i + 1);
      if (e < 0) throw new LexError(105, `Unclosed quotation mark after the character string '${sql.slice(i + 1)}'.`);
      out.push({ k: 'qname', v: sql.slice(i + 1, e), start, end: e + 1 });
      i = e + 1;
      continue;
    }
    if (c === "'" || ((c === 'N' || c === 'n') && sql[i + 1] === "'")) {
      const unicode = c !== "'";
      i += unicode ? 2 : 1;
      let v = '';
      for (;;) {
        if (i >= n) throw new LexError(105, `Unclosed quotation mark after the character string '${v}'.`);
        if (sql[i] === "'") {
          if (sql[i + 1] === "'") {
            v += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += sql[i++];
      }
      out.push({ k: 'str', v, unicode, start, end: i });
      continue;
    }
    const m =
      /^(?:(@@?[A-Za-z_#$@][\w#$@]*)|(0x[0-9A-Fa-f]*|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([A-Za-z_#\u0080-\uffff][\w#$@\u0080-\uffff]*)|(<>|!=|!<|!>|<=|>=|\+=|-=|\*=|\/=|%=|&=|\|=|\^=|::|[=<>*,().;+\-/%&|^~!{}:]))/.exec(
        sql.slice(i, i + 256),
      );
    if (!m) throw new LexError(102, `Incorrect syntax near '${c}'.`);
    const k: LexKind = m[1] ? 'var' : m[2] ? 'num' : m[3] ? 'word' : 'op';
    out.push({ k, v: m[0], start, end: i + m[0].length });
    i += m[0].length;
  }
  return out;
}

/** Words that start a statement when they appear at the top level (outside parentheses). */
const STATEMENT_START = new Set([
  'set',
  'select',
  'begin',
  'commit',
  'rollback',
  'save',
  'print',
  'raiserror',
  'exec',
  'execute',
  'use',
  'declare',
  'insert',
  'update',
  'delete',
  'merge',
  'if',
  'while',
  'return',
  'throw',
  'waitfor',
  'create',
  'alter',
  'drop',
  'truncate',
  'grant',
  'revoke',
  'deny',
  'dbcc',
  'checkpoint',
  'kill',
]);

/** After these, a statement-start word continues the current statement (INSERT ... SELECT, UNION SELECT, ...). */
const CONTINUES = new Set([
  'union',
  'all',
  'except',
  'intersect',
  'insert',
  'into',
  'as',
  'exists',
  'then',
  'else',
  'begin',
  'not',
  'and',
  'or',
  'for',
  'from',
  'update',
  'delete',
  'output',
  'distinct',
]);

export function startsNew(cur: Lex[], w: string): boolean {
  if (!STATEMENT_START.has(w)) return false;
  const word = (t: Lex | undefined) => (t && t.k === 'word' ? t.v.toLowerCase() : '');
  const head = word(cur[0]);
  if (CONTINUES.has(word(cur[cur.length - 1]))) return false;
  if (head === 'update' && w === 'set') return false;
  if ((head === 'insert' || head === 'merge' || head === 'with') && /^(select|exec|execute|insert|update|delete|merge)$/.test(w))
    return false;
  return true;
}

export interface Statement {
  text: string;
  toks: Lex[];
}

/** The first word of a statement, lower-cased ('' when it starts otherwise). */
export function firstWord(s: Statement): string {
  const t = s.toks[0];
  return t && t.k === 'word' ? t.v.toLowerCase() : '';
}

/**
 * Splits a batch into statements at top-level ';' and where a new statement evidently starts (T-SQL does not require
 * the ';'). Blocks (BEGIN ... END, IF, WHILE, CREATE PROCEDURE ...) are kept whole: once one starts, the rest of the
 * batch is one statement, which the model then handles or refuses as a whole.
 */
export function splitBatch(sql: string): Statement[] {
  const toks = lex(sql);
  const out: Statement[] = [];
  let cur: Lex[] = [];
  let depth = 0;
  let whole = false;
  const flush = () => {
    if (cur.length) out.push({ text: sql.slice(cur[0].start, cur[cur.length - 1].end), toks: cur });
    cur = [];
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (whole) {
      cur.push(t);
      continue;
    }
    if (t.k === 'op' && t.v === '(') depth++;
    if (t.k === 'op' && t.v === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && t.k === 'op' && t.v === ';') {
      flush();
      continue;
    }
    if (depth === 0 && t.k === 'word' && cur.length > 0 && startsNew(cur, t.v.toLowerCase())) flush();
    if (cur.length === 0 && t.k === 'word') {
      const w = t.v.toLowerCase();
      const next = toks[i + 1];
      const nextWord = next?.k === 'word' ? next.v.toLowerCase() : '';
      if (
        w === 'if' ||
        w === 'while' ||
        w === 'create' ||
        w === 'alter' ||
        (w === 'begin' && !/^(tran|transaction|distributed)$/.test(nextWord))
      )
        whole = true;
    }
    cur.push(t);
  }
  flush();
  return out;
}
