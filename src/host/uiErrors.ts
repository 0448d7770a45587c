// Every failure as the panel shows it: what went wrong, what fixes it (the GRANT for a missing permission), and the
// button to offer (Restore for an unrestored journal, Connect for a connection problem).
import { SpinlabError, explain } from '../engine/errors';
import { ParamError } from '../shared/params';
import type { UiError } from '../shared/protocol';
import { ProfileError } from './profiles';
import { RunRequestError } from './runRequest';

/** A failure that already is what the panel should show. */
export class UiFailure extends Error {
  override name = 'UiFailure';
  constructor(readonly ui: UiError) {
    super(ui.message);
  }
}

const HOW_TO_FIX = '\n  How to fix: ';

function fromSpinlab(e: SpinlabError): UiError {
  const i = e.message.indexOf(HOW_TO_FIX);
  const message = i >= 0 ? e.message.slice(0, i) : e.message;
  const ui: UiError = { message };
  if (e.hint) ui.fix = e.hint;
  if (/did not put it back/.test(message)) {
    ui.fix = 'Press Restore to put the server\'s settings back from the restore journal (or run `spinlab restore`), then run again.';
    ui.action = 'restore';
  }
  return ui;
}

function problemsError(problems: string[], what: string): UiError {
  return problems.length === 1
    ? { message: problems[0] }
    : { message: `${problems.length} ${what} need fixing:\n${problems.map((p) => `- ${p}`).join('\n')}` };
}

/** Maps any error to a UiError. `connecting` adds the Connect action and a form-oriented fix for a failed login. */
export function toUiError(err: unknown, opts: { connecting?: { action: string; login: string } } = {}): UiError {
  if (err instanceof UiFailure) return err.ui;
  if (err instanceof RunRequestError) return { ...problemsError(err.problems, 'settings'), fix: 'Correct the settings named above and run again.' };
  if (err instanceof ParamError) return { ...problemsError(err.problems, 'settings'), fix: 'Correct the settings named above and try again.' };
  if (err instanceof ProfileError) return { message: err.message, fix: 'Check the connection form and connect again.', action: 'connect' };
  if (err instanceof Error && err.name === 'AffinityError') return { message: `CPU affinity: ${err.message}`, fix: 'Choose an affinity from the topology map or one of the shortcuts.' };
  if (err instanceof SpinlabError) return fromSpinlab(err);
  if (opts.connecting) {
    const ui = fromSpinlab(explain(err, opts.connecting.action, { login: opts.connecting.login, majorVersion: null }) as SpinlabError);
    if (/Login failed/i.test(ui.message)) ui.fix = 'Check the user name and the password in the connection form (and that the login exists and may connect).';
    ui.action = 'connect';
    return ui;
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message };
}
