// Model-level faults on demand: make a statement (by sql/ file id) or a procedure (by name) fail with a chosen error.
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

export class ModelFaults {
  private rules = new Map<string, StatementFault & { left: number }>();

  /** target: a sql/ file id ('dmv/sample') or a procedure name ('dbo.spinlab_disk_insert_loop'). */
  failStatement(target: string, fault: StatementFault): void {
    this.rules.set(key(target), { ...fault, left: fault.times ?? Infinity });
  }
  clear(target?: string): void {
    if (target === undefined) this.rules.clear();
    else this.rules.delete(key(target));
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
