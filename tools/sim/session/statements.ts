// The session statements SQL Server runs itself rather than as queries: SET options, transaction control, PRINT and
// RAISERROR. Each returns the items SQL Server sends for it (transactions and RAISERROR: model/transactions.ts, which
// the executor shares).
import type { ResponseItem, ServerMessage, SessionContext } from '../tds/contract';
import { err } from '../model/errors';
import type { Lex, Statement } from '../grammar/lex';
import type { SessionState } from '../model/sessionState';

const ON_OFF = new Set([
  'ANSI_NULLS',
  'ANSI_PADDING',
  'ANSI_WARNINGS',
  'ANSI_NULL_DFLT_ON',
  'ANSI_NULL_DFLT_OFF',
  'ANSI_DEFAULTS',
  'ARITHABORT',
  'ARITHIGNORE',
  'QUOTED_IDENTIFIER',
  'CONCAT_NULL_YIELDS_NULL',
  'NUMERIC_ROUNDABORT',
  'XACT_ABORT',
  'CURSOR_CLOSE_ON_COMMIT',
  'FMTONLY',
  'NOCOUNT',
  'IMPLICIT_TRANSACTIONS',
  'NO_BROWSETABLE',
  'FORCEPLAN',
  'REMOTE_PROC_TRANSACTIONS',
]);
/** Options that change what the server sends (plans, statistics): refused rather than silently ignored. */
const NOT_MODELLED = new Set(['SHOWPLAN_ALL', 'SHOWPLAN_TEXT', 'SHOWPLAN_XML', 'STATISTICS', 'NOEXEC', 'PARSEONLY']);
const VALUED = new Set([
  'TEXTSIZE',
  'LOCK_TIMEOUT',
  'DEADLOCK_PRIORITY',
  'DATEFORMAT',
  'DATEFIRST',
  'LANGUAGE',
  'ROWCOUNT',
  'QUERY_GOVERNOR_COST_LIMIT',
  'CONTEXT_INFO',
]);
const ISOLATION = ['READ UNCOMMITTED', 'READ COMMITTED', 'REPEATABLE READ', 'SNAPSHOT', 'SERIALIZABLE'];

const syntax = (near: Lex | undefined): ServerMessage =>
  near
    ? err(
        near.k === 'word' && RESERVED.has(near.v.toLowerCase()) ? 156 : 102,
        near.k === 'word' && RESERVED.has(near.v.toLowerCase())
          ? `Incorrect syntax near the keyword '${near.v}'.`
          : `Incorrect syntax near '${near.v}'.`,
        15,
        1,
      )
    : err(102, 'Incorrect syntax near the end of the statement.', 15, 1);

/** T-SQL reserved keywords that appear in these statements (Msg 156 rather than 102 when misplaced). */
export const RESERVED = new Set([
  'set',
  'select',
  'from',
  'where',
  'begin',
  'end',
  'commit',
  'rollback',
  'tran',
  'transaction',
  'save',
  'print',
  'raiserror',
  'exec',
  'execute',
  'on',
  'off',
  'with',
  'as',
  'and',
  'or',
  'not',
  'null',
  'is',
  'into',
  'insert',
  'update',
  'delete',
  'use',
  'declare',
  'if',
  'else',
  'while',
  'return',
  'order',
  'by',
  'group',
  'having',
  'union',
  'create',
  'alter',
  'drop',
  'table',
  'procedure',
  'proc',
  'default',
  'values',
  'top',
  'distinct',
  'all',
  'isolation',
  'level',
  'read',
  'option',
]);

const word = (t: Lex | undefined): string => (t && t.k === 'word' ? t.v.toUpperCase() : '');

/** SET <option>[, <option>...] ON|OFF, SET <option> <value>, SET TRANSACTION ISOLATION LEVEL <level>. */
export function runSet(session: SessionContext, st: SessionState, s: Statement): ResponseItem[] {
  const t = s.toks.slice(1);
  if (t.length === 0) return [syntax(undefined)];
  if (t[0].k === 'var') return []; // SET @var = ...: the caller hands these to the model
  const first = word(t[0]);
  if (first === 'TRANSACTION') {
    const rest = t
      .slice(1)
      .map((x) => x.v.toUpperCase())
      .join(' ');
    const m = /^ISOLATION LEVEL (.+)$/.exec(rest);
    if (!m) return [syntax(t[1] ?? undefined)];
    if (!ISOLATION.includes(m[1])) return [syntax(t[3])];
    st.isolation = m[1];
    return [];
  }
  if (NOT_MODELLED.has(first)) {
    return [err(50000, `The Spinlock Lab simulator (synthetic numbers, not a SQL Server) does not support SET ${first}.`, 16, 1)];
  }
  if (VALUED.has(first)) {
    if (t.length < 2) return [syntax(undefined)];
    const value = t
      .slice(1)
      .map((x) => x.v)
      .join(' ');
    if (first === 'LANGUAGE') {
      if (!/^(us_english|english)$/i.test(value.replace(/^N?'|'$/g, '').replace(/^\[|\]$/g, ''))) {
        return [err(2732, `Error number 2732: language '${value}' is not available in the simulator (only us_english).`, 16, 1)];
      }
      return [{ kind: 'info', number: 5703, state: 1, class: 0, message: 'Changed language setting to us_english.' }];
    }
    if (['TEXTSIZE', 'LOCK_TIMEOUT', 'DATEFIRST', 'ROWCOUNT'].includes(first) && !/^-?\d+$/.test(value) && t[1].k !== 'var')
      return [syntax(t[1])];
    st.options.set(first, value);
    return [];
  }
  // One or more ON/OFF options.
  const names: string[] = [];
  let i = 0;
  for (;;) {
    const w = word(t[i]);
    if (!w) return [syntax(t[i])];
    if (!ON_OFF.has(w)) {
      if (w === 'ON' || w === 'OFF') return [syntax(t[i])];
      return [err(195, `'${t[i].v}' is not a recognized SET option.`, 15, 1)];
    }
    names.push(w);
    i++;
    if (t[i]?.k === 'op' && t[i].v === ',') {
      i++;
      continue;
    }
    break;
  }
  const v = word(t[i]);
  if (v !== 'ON' && v !== 'OFF') return [syntax(t[i])];
  if (i + 1 < t.length) return [syntax(t[i + 1])];
  for (const n of names) {
    st.options.set(n, v);
    if (n === 'NOCOUNT') session.noCount = v === 'ON';
    if (n === 'IMPLICIT_TRANSACTIONS') st.implicitTransactions = v === 'ON';
    if (n === 'ANSI_DEFAULTS') {
      // ANSI_DEFAULTS ON sets the ISO group, including IMPLICIT_TRANSACTIONS (docs: SET ANSI_DEFAULTS).
      for (const o of [
        'ANSI_NULLS',
        'ANSI_NULL_DFLT_ON',
        'ANSI_PADDING',
        'ANSI_WARNINGS',
        'CURSOR_CLOSE_ON_COMMIT',
        'IMPLICIT_TRANSACTIONS',
        'QUOTED_IDENTIFIER',
      ])
        st.options.set(o, v);
      st.implicitTransactions = v === 'ON';
    }
  }
  return [];
}

/** The optional transaction name after BEGIN/COMMIT/ROLLBACK/SAVE [TRAN[SACTION]|WORK]. */
export function tranName(s: Statement): { name: string; bad?: Lex } {
  let i = 1;
  if (/^(TRAN|TRANSACTION|WORK)$/.test(word(s.toks[i]))) i++;
  const t = s.toks[i];
  if (!t) return { name: '' };
  if ((t.k === 'word' && !RESERVED.has(t.v.toLowerCase())) || t.k === 'qname' || t.k === 'var') {
    if (s.toks[i + 1] && !(word(s.toks[i + 1]) === 'WITH')) return { name: t.v, bad: s.toks[i + 1] };
    return { name: t.v };
  }
  return { name: '', bad: t };
}
