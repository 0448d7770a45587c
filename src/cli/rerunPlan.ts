// `spinlab rerun`'s question: the plan derived from the notebook's record (and where its cells disagree with it) is
// printed first, then asked about on a terminal; --yes answers for scripts, and without a terminal or --yes nothing runs.
import * as path from 'node:path';
import * as readline from 'node:readline';
import { describeTarget, type DbTarget } from '../db/target';
import type { ReadNotebook } from '../engine/notebook/read';
import { cellMismatches } from '../engine/notebook/cells';
import { planRerun, renderPlan } from '../engine/notebook/plan';
import { targetFromArgs } from './commands';

/** Asks a yes/no question; true only for an explicit yes. */
export type Ask = (question: string) => Promise<boolean>;

/** A y/N question on the terminal, or null when stdin is not one (a pipe, CI, a script). */
export function terminalAsk(): Ask | null {
  if (!process.stdin.isTTY) return null;
  return (question) =>
    new Promise((resolve) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      rl.question(question, (answer) => {
        rl.close();
        resolve(/^\s*y(es)?\s*$/i.test(answer));
      });
    });
}

/** The connection when one is given; null for a --dry-run without one (the plan then says so). */
export function connectionIfGiven(connection: string | undefined): DbTarget | null {
  try {
    return targetFromArgs(connection);
  } catch {
    return null;
  }
}

/** The server as the connection names it (never a password), or what to give when there is none. */
function serverOf(t: DbTarget | null): string {
  return t ? describeTarget(t) : '(no connection given: pass -c or set SPINLAB_CONNECTION to run it)';
}

export interface RerunConfirm {
  yes?: boolean;
  dryRun?: boolean;
  labDb?: string;
}

/**
 * Prints the plan; 'run' when it may go ahead, else the exit code (0 for --dry-run, 2 when not confirmed).
 * The plan is printed in every case, so a script that was refused shows what it would have run.
 */
export async function confirmRerun(
  file: string,
  nb: ReadNotebook,
  target: DbTarget | null,
  o: RerunConfirm,
  out: (s: string) => void,
  err: (s: string) => void,
  ask: Ask | null,
): Promise<'run' | number> {
  const plan = planRerun(nb.record.experiments[0], {
    server: serverOf(target),
    labDatabase: o.labDb,
    notebookDir: path.dirname(path.resolve(file)),
  });
  const cells = cellMismatches(nb.notebook, nb.record);
  out(renderPlan(plan, cells));
  if (o.dryRun) return 0;
  if (o.yes) return 'run';
  const warned = cells.length + plan.warnings.length > 0;
  if (!ask) {
    err(
      `spinlab: not run: read the plan above, then pass --yes to run it${warned ? ' (despite the warnings)' : ''} (no terminal to ask on).\n`,
    );
    return 2;
  }
  if (await ask(`${warned ? 'The notebook does not show what it will run (see WARNING above). ' : ''}Run this plan? [y/N] `)) return 'run';
  err('Not run: nothing was changed.\n');
  return 2;
}
