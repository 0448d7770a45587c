// The Run button: one scenario over a thread sweep as the active experiment, through the journal check, the
// confirmation of server-wide changes and the active-run bookkeeping every experiment shares (experimentRun.ts); and Stop.
import type { ExperimentResult } from '../../../engine/experiment';
import { getScenario } from '../../../engine/scenarios';
import { buildRunRequest } from '../../runRequest';
import { checkJournal, confirmChanges, executeRun, runActive } from '../../experimentRun';
import type { PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature, Payload } from '../feature';
import { counts } from '../../../shared/plural';

/** A scenario run as the panel's Run button asks for it; null when the user declined the confirmation. */
export async function runScenario(s: PanelContext, p: Payload<'experimentRun'>): Promise<ExperimentResult | null> {
  const conn = s.requireConnection();
  s.requireIdle('another run');
  await checkJournal(s);
  const req = buildRunRequest(p, s.facts()!);
  const scenario = getScenario(req.scenarioId);
  const title = p.title?.trim() || `${scenario.name}: ${counts(req.load.threads, 'thread')}`;
  if (!(await confirmChanges(s, conn, req.changes))) return null;
  for (const c of req.changes) s.ports.log.info(`will change ${c}`);
  const settings = s.ports.settings();
  const deploy = s.deployed.get(req.scenarioId) !== JSON.stringify(req.parameters);
  const outcome = await runActive(s, (hooks) =>
    executeRun(
      { conn, req, title, question: p.question?.trim() || undefined, deploy, resultsFolder: settings.resultsFolder, stateDir: s.stateDir },
      hooks,
    ),
  );
  if (outcome.result && deploy) s.deployed.set(req.scenarioId, JSON.stringify(req.parameters));
  return outcome.result;
}

/** Stops the running experiment (its knobs are restored by the engine). */
export function stop(s: PanelContext): boolean {
  if (!s.experiment.isRunning) return false;
  s.ports.log.info('stopping the experiment');
  return s.experiment.stop();
}

export class RunFeature implements PanelFeature {
  register(r: FeatureRegistry): void {
    const s = r.panel;
    r.on('experimentRun', (p) => runScenario(s, p));
    r.on('experimentStop', () => stop(s));
  }
}
