// Every failure as the panel shows it: the message, what fixes it (the GRANT for a missing permission) and the button
// to offer, decided by the error's category (src/shared/spinlabError.ts) in one table rather than by its class.
import { explain } from '../engine/errors';
import { UnrestoredJournalError } from '../engine/journal';
import { SpinlabError, categoryOf, type ErrorCategory } from '../shared/spinlabError';
import type { UiError } from '../shared/protocol';

/** A failure that already is what the panel should show (a request the panel's state refuses). */
export class UiFailure extends SpinlabError {
  constructor(readonly ui: UiError) {
    super('user-input', ui.message);
  }
}

/** Per category, the fix when the error names none, and the button the panel offers. */
export const UI_SHAPE: Record<ErrorCategory, Pick<UiError, 'fix' | 'action'>> = {
  'user-input': { fix: 'Correct what is named above and try again.' },
  permission: { fix: 'Ask an administrator for the permission named above, then try again.' },
  connection: { fix: 'Check the connection form and connect again.', action: 'connect' },
  server: {},
  files: { fix: 'Choose a results folder you can write to (the spinlab.resultsFolder setting), or free some space.' },
  cancelled: {},
  internal: {},
};

/** Several problems (settings checked together) as a list under a count. */
function problemsMessage(err: unknown): string | null {
  const problems = (err as { problems?: unknown }).problems;
  if (!Array.isArray(problems) || problems.length < 2) return null;
  return `${problems.length} settings need fixing:\n${problems.map((p) => `- ${String(p)}`).join('\n')}`;
}

function shape(err: unknown): UiError {
  const category = categoryOf(err);
  const message = err instanceof SpinlabError ? err.headline : err instanceof Error ? err.message : String(err);
  const ui: UiError = { message: problemsMessage(err) ?? message, ...UI_SHAPE[category] };
  if (err instanceof SpinlabError && err.hint) ui.fix = err.hint;
  if (err instanceof UnrestoredJournalError) {
    ui.fix = "Press Restore to put the server's settings back from the restore journal (or run `spinlab restore`), then run again.";
    ui.action = 'restore';
  }
  if (!ui.fix) delete ui.fix;
  if (!ui.action) delete ui.action;
  return ui;
}

/** Maps any error to a UiError. `connecting` explains a driver failure and offers Connect with a form-oriented fix. */
export function toUiError(err: unknown, opts: { connecting?: { action: string; login: string } } = {}): UiError {
  if (err instanceof UiFailure) return err.ui;
  if (!opts.connecting) return shape(err);
  const explained = explain(err, opts.connecting.action, { login: opts.connecting.login, majorVersion: null });
  const ui = shape(explained);
  if (explained !== err) {
    if (/Login failed/i.test(ui.message))
      ui.fix = 'Check the user name and the password in the connection form (and that the login exists and may connect).';
    ui.action = 'connect';
  }
  return ui;
}
