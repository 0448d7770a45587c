// Model-level faults on demand: make a statement (by sql/ file id) or a procedure (by name) fail with a chosen error,
// or refuse logins (as a server at its user-connection limit refuses the connection after the one that reached it).
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

  /** target: a sql/ file id ('dmv/sample') or a procedure name ('dbo.spinlab_disk_insert_loop'). */
  failStatement(target: string, fault: StatementFault): void {
    this.rules.set(key(target), { ...fault, left: fault.times ?? Infinity });
  }
  failLogins(fault: LoginFault): void {
    this.logins.push({ ...fault, left: fault.times ?? Infinity });
  }
  clear(target?: string): void {
    if (target === undefined) {
      this.rules.clear();
      this.logins = [];
    } else this.rules.delete(key(target));
  }
  /** The error to refuse a login to `database` with, if a login rule is armed. */
  takeLogin(database: string): ServerMessage | null {
    const r = this.logins.find((x) => x.left > 0 && (x.database === undefined || x.database.toLowerCase() === database.toLowerCase()));
    if (!r) return null;
    r.left--;
    return err(r.number, r.message, r.class ?? 14, r.state ?? 1);
  }
  /** The error to answer with instead of running `target`, if a rule is armed. */
  take(target: string): ServerMessage | null {
    const r = this.rules.get(key(target));
    if (!r || r.left <= 0) return null;
    r.left--;
    return err(r.number, r.message, r.class ?? 16, r.state ?? 1);
  }
}

function key(target: string): string {
  const t = target.toLowerCase().replace(/[[\]]/g, '');
  return t.includes('/') || t.includes('.') ? t : `dbo.${t}`;
}
