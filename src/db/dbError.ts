// The driver's errors translated into DbError: a server error's number, state, severity and line, every error the
// server sent, network failures told in plain words, and a sql/ file's compile error told with the file's line.
// Apart from client.ts, which calls the driver, because this reads only what the driver threw (no driver import).
import type { SqlFile } from './sqlFiles';
import { driverErrorCategory, type WireFacts } from './connectErrors';
import { SpinlabError, type ErrorCategory } from '../shared/spinlabError';

/** A SQL Server error as the driver reports it, with the fields a message needs; its category from connectErrors.ts. */
export class DbError extends SpinlabError {
  /** A first connection's failure in the driver's own words, before the CLI's advice (the panel words its own). */
  connectFailure?: { message: string; number?: number; wire?: WireFacts };

  constructor(
    message: string,
    readonly number: number | undefined,
    readonly code: string | undefined,
    readonly state: number | undefined,
    readonly severity: number | undefined,
    /** Every error the server sent for the request (e.g. Msg 300 then Msg 297). */
    readonly all: { number?: number; message: string }[],
    /** The line in the batch the server named (SQL Server's "Line N"). */
    readonly line?: number,
    category: ErrorCategory = driverErrorCategory([number, ...all.map((e) => e.number)], code),
  ) {
    super(category, message);
  }
}

/** Every socket error code in an error's cause chain (tedious wraps them: ConnectionError -> AggregateError -> errors). */
function socketCodes(err: unknown, depth = 0): string[] {
  if (!err || typeof err !== 'object' || depth > 5) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown; originalError?: unknown };
  const own = typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code) ? [e.code] : [];
  const nested = [e.cause, e.originalError, ...(Array.isArray(e.errors) ? e.errors : [])].flatMap((x) =>
    x === err ? [] : socketCodes(x, depth + 1),
  );
  return [...own, ...nested];
}

/**
 * The driver's words for network failures ('socket hang up', 'Could not connect (sequence)') say little to a user:
 * name what happened (the connection was lost, or refused) and keep the driver's text after it.
 */
function plainMessage(message: string, codes: string[], number: number | undefined): string {
  if (number !== undefined) return message; // a server error: its own text is the account
  if (codes.includes('ECONNREFUSED') && !/ECONNREFUSED|refused/i.test(message)) {
    return `${message} (ECONNREFUSED: the server refused the connection; nothing accepts connections at that address now)`;
  }
  if (
    /socket hang up|connection lost|ECONNRESET|EPIPE|connection is closed|can only be made in the LoggedIn state/i.test(message) ||
    codes.some((c) => c === 'ECONNRESET' || c === 'EPIPE' || c === 'ECONNCLOSED')
  ) {
    return /lost the connection|connection to the server was lost/i.test(message)
      ? message
      : `the connection to the server was lost (${message})`;
  }
  return message;
}

export function wrapError(err: unknown): Error {
  const e = err as {
    message?: string;
    number?: number;
    code?: string;
    state?: number;
    class?: number;
    lineNumber?: number;
    originalError?: { info?: { number?: number; state?: number; class?: number; lineNumber?: number } };
    precedingErrors?: { message: string; number?: number }[];
  };
  if (!e || typeof e !== 'object') return new Error(String(err));
  // tedious reports two or more server errors for one request as an AggregateError of them: the last is the account
  // (as mssql reports it), the ones before it its preceding errors.
  if (err instanceof AggregateError && err.errors.length && !e.number) {
    const errs = err.errors as (typeof e)[];
    return wrapError({ ...errs[errs.length - 1], message: errs[errs.length - 1].message, precedingErrors: errs.slice(0, -1) });
  }
  const info = e.originalError?.info;
  // mssql puts a socket error's code where a server error's number goes (number: 'ECONNRESET'): only a number is one.
  const asNumber = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const number = asNumber(e.number) ?? asNumber(info?.number);
  const message = plainMessage(e.message ?? String(err), socketCodes(err), number);
  const all = [...(e.precedingErrors ?? []).map((p) => ({ number: p.number, message: p.message })), { number, message }];
  return new DbError(
    message,
    number,
    e.code,
    e.state ?? info?.state,
    e.class ?? info?.class,
    all,
    asNumber(e.lineNumber) ?? asNumber(info?.lineNumber),
  );
}

/** A syntax or compile error in a batch of a sql/ file, told as SQL Server does, with the file's line beside it. */
export function withFileLine(err: Error, file: SqlFile, batch: number): Error {
  // Only errors that refuse the text itself (syntax, names that do not bind, a native module refused at CREATE): for
  // those the line is what a user needs. A runtime error (a lock timeout, a deadlock) keeps its own message.
  const compile = err instanceof DbError && (err.severity === 15 || [207, 208, 2812, 10794].includes(err.number ?? 0));
  if (!(err instanceof DbError) || !compile || err.number === undefined || err.line === undefined) return err;
  const fileLine = (file.batchLines?.[batch] ?? 1) + err.line - 1;
  const text = `Msg ${err.number}, Level ${err.severity}, State ${err.state ?? 1}, Line ${err.line}: ${err.message} (sql/${file.id}.sql, line ${fileLine})`;
  return new DbError(text, err.number, err.code, err.state, err.severity, err.all, err.line);
}
