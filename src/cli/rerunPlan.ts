// `spinlab rerun`'s question: the plan derived from the notebook's record (and where its cells disagree with it) is
// printed first, then asked about on a terminal; --yes answers for scripts, and without a terminal or --yes nothing runs.
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { DbTarget } from '../db/client';
import type { ReadNotebook } from '../engine/notebook/read';
import { cellMismatches } from '../engine/notebook/cells';
import { planRerun, renderPlan } from '../engine/notebook/plan';

/** Asks a yes/no question; true only for an explicit yes. */
export type Ask = (question: string) => Promise<boolean>;

/** A y/N question on the terminal, or null when stdin is not one (a pipe, CI, a script). */
export function terminalAsk(): Ask | null {
  if (!process.stdin.isTTY) return null;
  return (question) => new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
    rl.question(question, (answer) => { rl.close(); resolve(/^\s*y(es)?\s*$/i.test(answer)); });
  });
}

/** host,port\instance and the login, as the user typed them: never a password. */
export function describeTarget(t: DbTarget): string {
  const where = `${t.server}${t.instanceName ? `\\${t.instanceName}` : ''}${t.port ? `,${t.port}` : ''}`;
  const who = t.authentication === 'sql' && t.user ? ` as ${t.user}` : t.authentication === 'ntlm' ? ' (Windows login)' : t.authentication === 'sql' ? '' : ' (Microsoft Entra token)';
  return where + who;
}

export interface RerunConfirm { yes?: boolean; dryRun?: boolean; labDb?: string }

/**
 * Prints the plan; 'run' when it may go ahead, else the exit code (0 for --dry-run, 2 when not confirmed).
 * The plan is printed in every case, so a script that was refused shows what it would have run.
 */
export async function confirmRerun(file: string, nb: ReadNotebook, target: DbTarget, o: RerunConfirm, out: (s: string) => void,
  err: (s: string) => void, ask: Ask | null): Promise<'run' | number> {
  const plan = planRerun(nb.record.experiments[0], { server: describeTarget(target), labDatabase: o.labDb, notebookDir: path.dirname(path.resolve(file)) });
  const cells = cellMismatches(nb.notebook, nb.record);
  out(renderPlan(plan, cells));
  if (o.dryRun) return 0;
  if (o.yes) return 'run';
  const warned = cells.length + plan.warnings.length > 0;
  if (!ask) {
    err(`spinlab: not run: read the plan above, then pass --yes to run it${warned ? ' (despite the warnings)' : ''} (no terminal to ask on).\n`);
    return 2;
  }
  if (await ask(`${warned ? 'The notebook does not show what it will run (see WARNING above). ' : ''}Run this plan? [y/N] `)) return 'run';
  err('Not run: nothing was changed.\n');
  return 2;
}
