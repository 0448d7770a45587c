// The session statements SQL Server runs itself rather than as queries: SET options, transaction control, PRINT and
// RAISERROR. Each returns the items SQL Server sends for it.
import type { ResponseItem, ServerMessage, SessionContext, Value } from '../tds/contract';
import { err } from '../model/errors';
import type { Lex, Statement } from '../grammar/lex';
import { newDescriptor, SessionState } from '../model/sessionState';

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

/** BEGIN TRAN: @@TRANCOUNT + 1; the outermost one starts a transaction (ENVCHANGE 8 with its descriptor). */
export function beginTran(st: SessionState): ResponseItem[] {
  st.tranCount++;
  if (st.tranCount > 1) return [];
  st.descriptor = newDescriptor();
  st.savepoints = [];
  return [{ kind: 'transaction', op: 'begin', descriptor: st.descriptor }];
}

export function commitTran(st: SessionState): ResponseItem[] {
  if (st.tranCount === 0) return [err(3902, 'The COMMIT TRANSACTION request has no corresponding BEGIN TRANSACTION.', 16, 1)];
  st.tranCount--;
  if (st.tranCount > 0) return [];
  return end(st, 'commit');
}

export function rollbackTran(st: SessionState, name: string): ResponseItem[] {
  if (st.tranCount === 0) return [err(3903, 'The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION.', 16, 1)];
  if (name) {
    const at = st.savepoints.lastIndexOf(name.toLowerCase());
    if (at >= 0) {
      st.savepoints = st.savepoints.slice(0, at + 1);
      return [];
    }
  }
  st.tranCount = 0;
  return end(st, 'rollback');
}

export function saveTran(st: SessionState, name: string): ResponseItem[] {
  if (st.tranCount === 0) return [err(628, 'Cannot issue SAVE TRANSACTION when there is no active transaction.', 16, 1)];
  st.savepoints.push(name.toLowerCase());
  return [];
}

function end(st: SessionState, op: 'commit' | 'rollback'): ResponseItem[] {
  const d = st.descriptor ?? Buffer.alloc(8);
  st.descriptor = null;
  st.savepoints = [];
  return [{ kind: 'transaction', op, descriptor: d }];
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

/** RAISERROR's printf-style message: %d %i %u %s %x %X %o with flags, width and precision (width/precision * too). */
export function formatMessage(fmt: string, args: Value[]): string {
  let k = 0;
  const next = () => (k < args.length ? args[k++] : null);
  return fmt.replace(
    /%([-+ 0#]*)(\*|\d+)?(?:\.(\*|\d+))?(?:h|l|I64)?([diouxXs%])/g,
    (all, flags: string, w: string, p: string, type: string) => {
      if (type === '%') return '%';
      const width = w === '*' ? Number(next()) : w ? Number(w) : 0;
      const prec = p === '*' ? Number(next()) : p ? Number(p) : undefined;
      const v = next();
      if (v === null) return '(null)';
      let s: string;
      if (type === 's') s = prec !== undefined ? String(v).slice(0, prec) : String(v);
      else {
        const n = typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v)));
        if (type === 'x' || type === 'X') s = (flags.includes('#') && n !== 0n ? '0x' : '') + (n < 0n ? n + 2n ** 32n : n).toString(16);
        else if (type === 'o') s = (n < 0n ? n + 2n ** 32n : n).toString(8);
        else if (type === 'u') s = (n < 0n ? n + 2n ** 32n : n).toString();
        else s = (flags.includes('+') && n >= 0n ? '+' : flags.includes(' ') && n >= 0n ? ' ' : '') + n.toString();
        if (type === 'X') s = s.toUpperCase();
      }
      if (s.length < width) s = flags.includes('-') ? s.padEnd(width) : s.padStart(width, flags.includes('0') && type !== 's' ? '0' : ' ');
      void all;
      return s;
    },
  );
}

/**
 * The message RAISERROR sends: number 50000 for a message string, the class as given except that severity 10 goes
 * out as 0 ("for compatibility reasons", Database Engine error severities); 19 and above need WITH LOG.
 */
export function raiseError(
  msg: Value,
  severity: number,
  state: number,
  args: Value[],
  withLog: boolean,
  sysadmin: boolean,
): ServerMessage[] {
  if (state < 0 || state > 255) return [err(2750, `Invalid state ${state} for RAISERROR.`, 16, 1)];
  const sev = Math.min(Math.max(Math.trunc(severity), 0), 25);
  if (sev > 18 && (!withLog || !sysadmin)) {
    return [
      err(
        2754,
        'Error severity levels greater than 18 can only be specified by members of the sysadmin role, using the WITH LOG option.',
        16,
        1,
      ),
    ];
  }
  const cls = sev === 10 ? 0 : sev;
  if (typeof msg === 'number' || typeof msg === 'bigint') {
    const n = Number(msg);
    if (n < 13000 || n === 50000) {
      return [err(2732, `Error number ${n} is invalid. The number must be from 13000 through 2147483647 and it cannot be 50000.`, 16, 1)];
    }
    const text = `Error ${n}, severity ${sev}, state ${state} was raised, but no message with that error number was found in sys.messages. If error is larger than 50000, make sure the user-defined message is added using sp_addmessage.`;
    return [{ kind: cls >= 11 ? 'error' : 'info', number: 18054, state, class: Math.max(cls, 16), message: text }];
  }
  const message = formatMessage(String(msg ?? ''), args);
  return [{ kind: cls >= 11 ? 'error' : 'info', number: 50000, state, class: cls, message }];
}
