// The exit codes of every spinlab command, and the one place an error becomes one: by its category
// (src/shared/spinlabError.ts), never by its class. The README's exit-code table lists the same.
import { CommanderError } from 'commander';
import { categoryOf, type ErrorCategory } from '../shared/spinlabError';

export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  connection: 3,
  permission: 4,
  files: 5,
  internal: 6,
  /** A gate could not be decided at this noise (its interval straddles the limit) and none failed. */
  inconclusive: 7,
  cancelled: 130,
} as const;

/** An error's exit code. 1 stays what it always meant: the work failed, or the server refused it. */
export const EXIT_FOR_CATEGORY: Record<ErrorCategory, number> = {
  'user-input': EXIT.usage,
  permission: EXIT.permission,
  connection: EXIT.connection,
  server: EXIT.failed,
  files: EXIT.files,
  cancelled: EXIT.cancelled,
  internal: EXIT.internal,
};

/** A finished run's or watch's status as an exit code. */
export const exitOf = (status: string): number =>
  status === 'completed' ? EXIT.ok : status === 'cancelled' ? EXIT.cancelled : EXIT.failed;

/**
 * Says what went wrong on `write` and returns the exit code. A command-line parse error (commander) has already
 * been printed by commander; an error no category explains is a bug: one line, its stack only with SPINLAB_DEBUG.
 */
export function exitForError(err: unknown, write: (s: string) => void, env: NodeJS.ProcessEnv = process.env): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  const category = categoryOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (category !== 'internal') {
    write(`spinlab: ${message}\n`);
  } else {
    const first = message.split('\n')[0];
    write(`spinlab: internal error: ${first}${env.SPINLAB_DEBUG ? '' : ' (a bug in Spinlock Lab; SPINLAB_DEBUG=1 shows where)'}\n`);
    if (env.SPINLAB_DEBUG && err instanceof Error && err.stack) write(`${err.stack}\n`);
  }
  return EXIT_FOR_CATEGORY[category];
}
