// Before an experiment changes anything: a restore journal already on this machine for the server is an earlier
// experiment's (one running now, or one whose settings were never put back), or a file that cannot be read. Each
// refuses the run, saying which, and that this run changed nothing.
import type { DbSession } from '../db/client';
import { SpinlabError } from './errors';
import { processGone, readJournal, UnreadableJournalError, UnrestoredJournalError } from './journal';
import { knobWords } from './knobs';
import { describeHolder, journalOwner } from './labLock';
import { onlyLiveSessions } from './stacks/sessions';

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

export async function refuseLeftover(admin: DbSession, stateDir: string, serverKey: string): Promise<void> {
  let leftover;
  try {
    leftover = readJournal(stateDir, serverKey);
  } catch (err) {
    // Said once, as what it is: nothing was changed, and there is nothing of this run's own to restore.
    if (err instanceof UnreadableJournalError)
      throw new SpinlabError('files', `This run changed nothing: ${lowerFirst(err.headline)}`, err.hint, err);
    throw err;
  }
  // A stack capture running beside the experiment journals only its own event session: not a leftover.
  if (!leftover || onlyLiveSessions(leftover, processGone)) return;
  const owner = await journalOwner(admin, leftover);
  if (owner) {
    throw new SpinlabError(
      'server',
      `This run is refused: another experiment is running on this server now, ${describeHolder(owner)}; it changed ${knobWords(leftover.changes)} ` +
        `(on [${leftover.labDatabase}]) and will put ${leftover.changes.length > 1 ? 'them' : 'it'} back when it ends.`,
      'wait for it to finish, or stop it (Ctrl+C in its terminal, Stop in its panel); do not run spinlab restore while it runs.',
    );
  }
  throw new UnrestoredJournalError(
    `An earlier experiment (process ${leftover.pid}, ${leftover.createdAt}) changed ${[
      ...(leftover.changes.length ? [knobWords(leftover.changes)] : []),
      ...(leftover.eventSessions ?? []).map((x) => `event session ${x.name}`),
    ].join(' and ')} on this server and did not put it back.`,
    "run `spinlab restore -c <connection>` (or the panel's Restore button) first; `spinlab check` shows what it will put back.",
  );
}
