// The SET options the executor runs itself. A batch that sets any other option (FMTONLY, ANSI_DEFAULTS, LANGUAGE...)
// is left to the session layer (session/), which models more of them statement by statement.

/** ON/OFF options that change nothing the simulator models beyond being remembered (and NOCOUNT, which it honours). */
export const PLAIN_OPTIONS: ReadonlySet<string> = new Set([
  'NOCOUNT',
  'ANSI_NULLS',
  'ANSI_PADDING',
  'ANSI_WARNINGS',
  'ARITHABORT',
  'QUOTED_IDENTIFIER',
  'CONCAT_NULL_YIELDS_NULL',
  'NUMERIC_ROUNDABORT',
  'XACT_ABORT',
]);

/** ON/OFF options the executor runs: the plain ones and IMPLICIT_TRANSACTIONS (control.ts opens the transactions). */
export const ON_OFF_OPTIONS: ReadonlySet<string> = new Set([...PLAIN_OPTIONS, 'IMPLICIT_TRANSACTIONS']);

/** Valued options the executor parses (parse.ts) and keeps; ROWCOUNT also limits what a query returns. */
export const VALUED_OPTIONS: ReadonlySet<string> = new Set(['LOCK_TIMEOUT', 'DEADLOCK_PRIORITY', 'TEXTSIZE', 'ROWCOUNT']);
