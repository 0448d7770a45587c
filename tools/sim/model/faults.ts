// Model-level faults on demand: make a batch (by its text) or a procedure (by name) fail with a chosen error, or refuse
// logins (as a server at its user-connection limit refuses the connection after the one that reached it). The
// simulator knows no file of the product: a test that wants a product file to fail arms that file's batch texts.
import type { ServerMessage } from '../tds/contract';
import { err } from './errors';

export interface StatementFault {
  number: number;
  message: string;
  class?: number;
  state?: number;
  /** How many calls fail; default: every call until cleared. */
  times?: number;
}

/** A login refusal: to `database` only (any database when omitted). */
export interface LoginFault extends StatementFault {
  database?: string;
}

export class ModelFaults {
  private rules = new Map<string, StatementFault & { left: number }>();
  private logins: (LoginFault & { left: number })[] = [];

  /** target: a procedure name ('dbo.spinlab_disk_insert_loop') or 'custom/<a batch's whole text>'. */
  failStatement(target: string, fault: StatementFault): void {
    const t = /^custom\//i.exec(target) ? batchKey(target.slice('custom/'.length)) : key(target);
    this.rules.set(t, { ...fault, left: fault.times ?? Infinity });
  }
  /** Any of these batch texts (as sent, line ends and outer blanks aside) fails; `times` counts across them all. */
  failBatches(texts: readonly string[], fault: StatementFault): void {
    const rule = { ...fault, left: fault.times ?? Infinity };
    for (const t of texts) this.rules.set(batchKey(t), rule);
  }
  /** The error to answer a batch with instead of running it, if a rule for its text is armed. */
  takeBatch(text: string): ServerMessage | null {
    return this.takeKey(batchKey(text));
  }
  failLogins(fault: LoginFault): void {
    this.logins.push({ ...fault, left: fault.times ?? Infinity });
  }
  clear(target?: string): void {
    if (target === undefined) {
      this.rules.clear();
      this.logins = [];
    } else this.rules.delete(/^custom\//i.test(target) ? batchKey(target.slice('custom/'.length)) : key(target));
  }
  /** The error to refuse a login to `database` with, if a login rule is armed. */
  takeLogin(database: string): ServerMessage | null {
    const r = this.logins.find((x) => x.left > 0 && (x.database === undefined || x.database.toLowerCase() === database.toLowerCase()));
    if (!r) return null;
    r.left--;
    return err(r.number, r.message, r.class ?? 14, r.state ?? 1);
  }
  /** The error to answer a procedure call with instead of running it, if a rule for its name is armed. */
  take(procedure: string): ServerMessage | null {
    return this.takeKey(key(procedure));
  }
  private takeKey(k: string): ServerMessage | null {
    const r = this.rules.get(k);
    if (!r || r.left <= 0) return null;
    r.left--;
    return err(r.number, r.message, r.class ?? 16, r.state ?? 1);
  }
}

function key(target: string): string {
  const t = target.toLowerCase().replace(/[[\]]/g, '');
  return t.includes('/') || t.includes('.') ? t : `dbo.${t}`;
}

/** A batch's text as a rule key: line ends and the blanks around it do not count (drivers differ in both). */
function batchKey(text: string): string {
  return `batch:${text.replace(/\r\n?/g, '\n').trim()}`;
}
