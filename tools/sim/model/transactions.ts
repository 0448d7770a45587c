// Transaction control and RAISERROR as SQL Server runs them, shared by the session layer (session/) and the executor
// (exec/): each returns the items SQL Server sends for it and keeps @@TRANCOUNT in the session's state.
import type { ResponseItem, ServerMessage, Value } from '../tds/contract';
import { err } from './errors';
import { newDescriptor, SessionState } from './sessionState';

/** BEGIN TRAN: @@TRANCOUNT + 1; the outermost one starts a transaction (ENVCHANGE 8 with its descriptor). */
export function beginTran(st: SessionState, name = ''): ResponseItem[] {
  st.tranCount++;
  if (st.tranCount > 1) return [];
  st.tranName = name;
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
    // Only the outermost transaction's name or a savepoint's may be rolled back to (docs: ROLLBACK TRANSACTION).
    if (name !== st.tranName) return [err(6401, `Cannot roll back ${name}. No transaction or savepoint of that name was found.`, 16, 1)];
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
