// One experiment from the panel: runExperiment under the host's cancellable progress notification, its progress
// folded into the active view and forwarded to the webview, its outcome (or failure) in the view and the log.
import * as path from 'node:path';
import { newExperimentId, runExperiment, type ExperimentResult } from '../engine/experiment';
import type { ActiveExperimentView, UiError } from '../shared/protocol';
import type { HostPorts } from './ports';
import type { RunRequest } from './runRequest';
import type { ServerConnection } from './serverView';
import { applyProgress, startingView } from './activeRun';
import { toUiError } from './uiErrors';

export interface RunJob {
  conn: ServerConnection;
  req: RunRequest;
  title: string;
  question?: string;
  /** Deploy the scenario first (it is not known to be deployed with these parameters). */
  deploy: boolean;
  resultsFolder: string;
  stateDir: string;
}

export interface RunHooks {
  ports: HostPorts;
  disposed(): boolean;
  postState(): void;
  /** The run is about to start: the view to show and the controller that stops it. */
  started(view: ActiveExperimentView, ac: AbortController): void;
}

export interface RunOutcome {
  view: ActiveExperimentView;
  result: ExperimentResult | null;
  error: UiError | null;
}

export async function executeRun(job: RunJob, hooks: RunHooks): Promise<RunOutcome> {
  const { conn, req, ports } = { ...job, ports: hooks.ports };
  const id = newExperimentId(req.scenarioId);
  const outDir = path.join(job.resultsFolder, id);
  const view = startingView(id, job.title, req.scenarioId, conn.identity.simulated);
  const ac = new AbortController();
  hooks.started(view, ac);
  ports.log.info(`experiment ${id}: ${req.scenarioId} on ${conn.description}, threads ${req.load.threads.join(',')}; saving to ${outDir}`);
  try {
    const result = await ports.withProgress(`Spinlock Lab: ${job.title}`, (report, signal) => {
      if (signal.aborted) ac.abort();
      signal.addEventListener('abort', () => ac.abort(), { once: true });
      return runExperiment({
        target: conn.target, scenarioId: req.scenarioId, parameters: req.parameters, labDatabase: conn.labDatabase, load: req.load,
        knobs: req.knobs, outDir, title: job.title, question: job.question, deploy: job.deploy, stateDir: job.stateDir, id,
      }, ac.signal, (ev) => applyProgress(view, ev, req.load.threads.length, {
        post: (m) => { if (!hooks.disposed()) ports.post(m); },
        changed: () => hooks.postState(),
        report,
      }));
    });
    view.status = result.experiment.status;
    view.message = `${result.experiment.status}: ${result.experiment.runs.length} of ${req.load.threads.length} runs; saved ${result.file}`;
    ports.log.info(`experiment ${id} ${result.experiment.status}`);
    for (const e of result.experiment.events) if (e.level !== 'info' || e.message.startsWith('restored')) ports.log.info(`  ${e.level}: ${e.message}`);
    return { view, result, error: null };
  } catch (err) {
    view.status = ac.signal.aborted ? 'cancelled' : 'failed';
    const ui = toUiError(err);
    view.message = ui.message;
    ports.log.error(`experiment ${id} ${view.status}: ${ui.message}`);
    return { view, result: null, error: ui };
  }
}
