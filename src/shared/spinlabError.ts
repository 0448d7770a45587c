// The one error family. Every error Spinlock Lab throws on purpose is a SpinlabError with a category: what kind of
// failure it is, which decides the CLI's exit code (src/cli/exitCodes.ts) and how the panel shows it
// (src/host/uiErrors.ts) in one place each, instead of either matching class names. Here in shared, without Node or
// the driver, so that every layer can throw one and activation-time modules (the restore journal) load nothing heavy.

/** What went wrong, as the user must act on it. */
export const ERROR_CATEGORIES = [
  /** What was asked for cannot be done as written: an option, a name, a file given. Nothing was changed. */
  'user-input',
  /** The login lacks a permission on the server; the message names the GRANT. */
  'permission',
  /** The server could not be reached, refused the login, or the connection was lost. */
  'connection',
  /** The server answered with an error or refused in its current state (another experiment holds the lab). */
  'server',
  /** A file on this machine could not be written or read back (a full disk, a read-only folder, a damaged journal), or a
   *  port on it could not be listened on (another program holds it). */
  'files',
  /** The user stopped it (Ctrl+C, Stop). */
  'cancelled',
  /** A bug: nothing the user did explains it. */
  'internal',
] as const;

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

const HOW_TO_FIX = '\n  How to fix: ';

export class SpinlabError extends Error {
  /**
   * hint: what fixes it, added to the message after "How to fix:" (the panel shows it apart, see `headline`).
   * original: the error this one explains (a driver error, a file-system error).
   */
  constructor(
    readonly category: ErrorCategory,
    message: string,
    readonly hint?: string,
    readonly original?: unknown,
  ) {
    super(hint ? `${message}${HOW_TO_FIX}${hint}` : message);
    this.name = new.target.name;
  }

  /** The message without its hint. */
  get headline(): string {
    const i = this.message.indexOf(HOW_TO_FIX);
    return i >= 0 ? this.message.slice(0, i) : this.message;
  }
}

/** The category of any thrown value: a SpinlabError's own, anything else is internal (a bug). */
export function categoryOf(err: unknown): ErrorCategory {
  return err instanceof SpinlabError ? err.category : 'internal';
}
