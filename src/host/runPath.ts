// The run path: one scenario over a thread sweep as the active experiment. The journal check, the confirmation of
// server-wide changes and the active-run bookkeeping here are shared with the preset path (presetPath.ts).
import type { PayloadOf, ToHostMap } from '../shared/protocol';
import type { ExperimentResult } from '../engine/experiment';
import { getScenario } from '../engine/scenarios';
import { CONFIRM_ACTION, CONFIRM_TITLE, buildRunRequest, confirmDetail } from './runRequest';
import { executeRun, type RunHooks, type RunOutcome } from './experimentRun';
import type { ServerConnection } from './serverView';
import { UiFailure } from './uiErrors';
import type { LabSession } from './labSession';

/** Refuses a run while this server has an unrestored journal (the Restore action puts it back). */
export async function checkJournal(s: LabSession): Promise<void> {
  await s.refreshKnobs();
  s.readJournalAndHistory();
  if (s.state.journal) {
    throw new UiFailure({
      message: `An earlier experiment (process ${s.state.journal.pid}, ${s.state.journal.createdAt}) changed ${s.state.journal.changes.join(' and ')} on this server and did not put it back.`,
      fix: `Press Restore to put back: ${s.state.journal.original}.`,
      action: 'restore',
    });
  }
}

/** Asks before server-wide changes; false when the user declined (nothing was changed). */
export async function confirmChanges(s: LabSession, conn: ServerConnection, changes: string[]): Promise<boolean> {
  if (!changes.length || !s.ports.settings().confirmServerChanges) return true;
  const ok = await s.ports.confirm(CONFIRM_TITLE, confirmDetail(conn.identity.serverName, changes), CONFIRM_ACTION);
  if (!ok) {
    s.ports.log.info('run cancelled at the confirmation: nothing was changed');
    return false;
  }
  s.checkAlive();
  if (s.conn !== conn) throw new UiFailure({ message: 'The connection changed while the question was open; nothing was run.', fix: 'Run again.' });
  if (s.running) throw new UiFailure({ message: 'Another experiment started meanwhile.', fix: 'Stop it first.' });
  return true;
}

/** Runs an experiment job as the active one: Stop and the panel's close abort it; the knobs and history are re-read after. */
export async function runActive(s: LabSession, execute: (hooks: RunHooks) => Promise<RunOutcome>): Promise<RunOutcome> {
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => { resolveDone = r; });
  let outcome: RunOutcome;
  try {
    outcome = await execute({
      ports: s.ports,
      disposed: () => s.disposed,
      postState: () => s.postState(),
      started: (view, ac) => {
        s.running = { ac, done };
        s.state.active = view;
        s.state.lastError = null;
        s.postState();
      },
    });
    if (outcome.error) s.state.lastError = outcome.error;
  } finally {
    s.running = null;
    resolveDone();
  }
  if (s.disposed) return outcome;
  await s.guard(async () => {
    await s.refreshKnobs();
    s.readJournalAndHistory();
  });
  s.postState();
  return outcome;
}

/** A scenario run as the panel's Run button asks for it; null when the user declined the confirmation. */
export async function runScenario(s: LabSession, p: PayloadOf<ToHostMap['run']>): Promise<ExperimentResult | null> {
  const conn = s.requireConnection();
  s.requireIdle('another run');
  await checkJournal(s);
  const req = buildRunRequest(p, s.facts()!);
  const scenario = getScenario(req.scenarioId);
  const title = p.title?.trim() || `${scenario.name}: ${req.load.threads.join(', ')} threads`;
  if (!(await confirmChanges(s, conn, req.changes))) return null;
  for (const c of req.changes) s.ports.log.info(`will change ${c}`);
  const settings = s.ports.settings();
  const deploy = s.deployed.get(req.scenarioId) !== JSON.stringify(req.parameters);
  const outcome = await runActive(s, (hooks) => executeRun({ conn, req, title, question: p.question?.trim() || undefined, deploy,
    resultsFolder: settings.resultsFolder, stateDir: s.stateDir }, hooks));
  if (outcome.result && deploy) s.deployed.set(req.scenarioId, JSON.stringify(req.parameters));
  return outcome.result;
}

/** Stops the running experiment (its knobs are restored by the engine). */
export function stop(s: LabSession): boolean {
  if (!s.running) return false;
  s.ports.log.info('stopping the experiment');
  s.running.ac.abort();
  return true;
}
