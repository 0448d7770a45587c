// "Run this experiment again" from a notebook: the plan derived from the notebook's record (and where its visible
// cells disagree with it) shown in a modal before anything runs, as `spinlab rerun` prints it; then the scenario,
// preset or custom workload run again as the active experiment and added to the notebook.
import * as path from 'node:path';
import type { Experiment } from '../../../shared/experiment';
import type { ExperimentResult } from '../../../engine/experiment';
import { readNotebookFile, NotebookError, type ReadNotebook } from '../../../engine/notebook/read';
import { planRerun, renderPlan } from '../../../engine/notebook/plan';
import { cellMismatches } from '../../../engine/notebook/cells';
import { rerunExperiment, rerunTitle } from '../../../engine/notebook/rerun';
import { CUSTOM_SCENARIO_ID } from '../../../engine/custom/manifest';
import { checkJournal, executeJob, runActive } from '../../experimentRun';
import { UiFailure } from '../../uiErrors';
import type { PanelContext } from '../../panelContext';
import { repeatOf } from '../../../shared/planTime';

export const PLAN_TITLE = "Run this notebook's experiment again?";
export const PLAN_MISMATCH_TITLE = 'This notebook does not show what it will run';
export const PLAN_ACTION = 'Run This Plan';

function readForRerun(file: string): ReadNotebook {
  try {
    return readNotebookFile(file);
  } catch (err) {
    if (err instanceof NotebookError)
      throw new UiFailure({
        message: err.message,
        fix: 'Open a notebook saved by Spinlock Lab (from the panel or `spinlab export --notebook`).',
      });
    throw err;
  }
}

/**
 * Shows the plan for re-running the notebook on the connected server and asks; the original experiment when the user
 * confirmed, null when they declined (nothing ran).
 */
export async function confirmNotebookPlan(s: PanelContext, file: string): Promise<Experiment | null> {
  const nb = readForRerun(file);
  const original = nb.record.experiments[0];
  const conn = s.connection();
  if (!conn) {
    throw new UiFailure({
      message: `Connect to the server to run "${original.title}" against, then choose Run This Experiment Again on the notebook.`,
      action: 'connect',
    });
  }
  let text: string;
  let warned: boolean;
  try {
    const plan = planRerun(original, {
      server: `${conn.identity.serverName} (${conn.description})`,
      notebookDir: path.dirname(path.resolve(file)),
    });
    const cells = cellMismatches(nb.notebook, nb.record);
    text = renderPlan(plan, cells);
    warned = cells.length + plan.warnings.length > 0;
  } catch (err) {
    if (err instanceof NotebookError)
      throw new UiFailure({ message: err.message, fix: 'Save the experiment again from its results folder.' });
    throw err;
  }
  s.ports.log.info(`re-run plan for ${file}:\n${text}`);
  if (!(await s.ports.confirm(warned ? PLAN_MISMATCH_TITLE : PLAN_TITLE, text, PLAN_ACTION))) {
    s.ports.log.info('re-run declined at its plan: nothing was run');
    return null;
  }
  s.checkAlive();
  if (s.connection() !== conn)
    throw new UiFailure({
      message: 'The connection changed while the plan was open; nothing was run.',
      fix: 'Run it again to see the plan for the new server.',
    });
  return original;
}

/** A notebook's custom workload again, as the active experiment: its T-SQL, database, load and parameter rows from the record. */
export async function rerunCustomNow(s: PanelContext, e: Experiment, file: string): Promise<ExperimentResult | null> {
  const conn = s.requireConnection();
  s.requireIdle('another run');
  await checkJournal(s);
  const settings = s.ports.settings();
  const outcome = await runActive(s, (hooks) =>
    executeJob(
      {
        conn,
        idBase: CUSTOM_SCENARIO_ID,
        scenarioId: CUSTOM_SCENARIO_ID,
        title: rerunTitle(e),
        runCount: e.load.threads.length * repeatOf(e),
        describe: `a notebook's custom workload again in [${e.custom!.database}], threads ${e.load.threads.join(',')}`,
        resultsFolder: settings.resultsFolder,
        start: ({ id, outDir }, signal, progress) =>
          rerunExperiment(
            e,
            { target: conn.target, outDir, stateDir: s.stateDir, id, notebookDir: path.dirname(path.resolve(file)) },
            signal,
            progress,
          ),
      },
      hooks,
    ),
  );
  return outcome.result;
}
