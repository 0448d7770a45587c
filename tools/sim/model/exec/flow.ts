// What an error does to the batch, as SQL Server decides it: inside TRY it goes to the CATCH block unless it is a
// compile-class error of the same scope; outside, a statement error ends its statement, while compile errors, fatal
// ones, THROW and (under XACT_ABORT / ARITHABORT) run-time errors end the batch.
import type { ResponseItem, ServerMessage } from '../../tds/contract';
import { SqlError } from '../errors';
import { sessionState } from '../sessionState';
import type { ExecContext } from './context';

/**
 * Errors that end the batch as compile errors do: a name that does not resolve when the statement compiles (deferred
 * name resolution: 208 object, 207 column), a column count that does not match (205, 213), a type not found (2715),
 * and the simulator's own refusal (50000), after which nothing it would answer can be trusted.
 */
const ENDS_BATCH = new Set([205, 207, 208, 213, 2715]);

/** Arithmetic errors (overflow, divide by zero) that ARITHABORT ON without ANSI_WARNINGS turns into batch-aborting. */
const ARITHMETIC = new Set([220, 232, 8115, 8134]);

/** The simulator's refusal of what it does not model: never caught, never taken for SQL Server's answer. */
export const isRefusal = (m: ServerMessage): boolean => m.number === 50000 && m.message.startsWith('The Spinlock Lab simulator');

/** THROW's error (and a batch-aborting one re-raised in CATCH): it ends the batch when nothing catches it. */
export class Thrown extends SqlError {}

/** An error on its way to the innermost CATCH block. */
export class Caught extends Error {
  constructor(readonly error: ServerMessage) {
    super(error.message);
  }
}

/**
 * The batch ends here: what it sent so far stands, nothing after runs. A compile-class error ends only its scope (the
 * caller of a procedure or of dynamic SQL goes on); THROW, fatal errors and XACT_ABORT end the callers too.
 */
export class BatchEnd extends Error {
  constructor(readonly scopeOnly = false) {
    super('batch ended');
  }
}

/**
 * A run-time error ends the batch under SET XACT_ABORT ON, and an arithmetic one under ARITHABORT ON with
 * ANSI_WARNINGS OFF (SET ARITHABORT: with ANSI_WARNINGS ON it is statement-terminating, as by default).
 */
function abortsBatch(ctx: ExecContext, number: number): boolean {
  const o = sessionState(ctx.session).options;
  if (o.get('XACT_ABORT') === 'ON') return true;
  return ARITHMETIC.has(number) && o.get('ARITHABORT') === 'ON' && o.get('ANSI_WARNINGS') === 'OFF';
}

/**
 * TRY...CATCH catches errors of severity 11 to 19 (docs: TRY...CATCH); not the compile and deferred-name-resolution
 * errors of the scope the TRY is in, though a called procedure's or dynamic batch's are caught by its caller's.
 */
function catchable(ctx: ExecContext, m: ServerMessage): boolean {
  if (m.kind !== 'error' || m.class <= 10 || m.class >= 20 || isRefusal(m)) return false;
  return ctx.depth > ctx.tryScope || !(m.class === 15 || ENDS_BATCH.has(m.number));
}

/**
 * What an error thrown by a statement does: to the open CATCH block (throws Caught), or to the client, after which the
 * batch goes on or ends (throws BatchEnd).
 */
export function statementFailed(ctx: ExecContext, e: unknown, out: ResponseItem[]): void {
  if (e instanceof Caught || e instanceof BatchEnd || !(e instanceof SqlError)) throw e;
  const first = e.messages.find((m) => m.kind === 'error' && m.class > 10);
  if (first && ctx.tryDepth > 0 && catchable(ctx, first)) throw new Caught(first);
  out.push(...e.messages);
  const errors = e.messages.filter((m) => m.kind === 'error');
  if (e instanceof Thrown || errors.some((m) => m.class >= 20 || isRefusal(m) || abortsBatch(ctx, m.number))) throw new BatchEnd();
  if (errors.some((m) => m.class === 15 || ENDS_BATCH.has(m.number))) throw new BatchEnd(true);
}
