// One experiment from the panel (a run of the form, or a preset's plan of arms): the engine under the editor's
// cancellable progress notification, its progress folded into the active view and forwarded to the webview, its
// outcome (or failure) in the view and the log. And what every experiment of the panel goes through first (the journal
// check, the confirmation of server-wide changes) and around it (the running-experiment bookkeeping).
import * as path from 'node:path';
import {
  newExperimentId,
  runExperiment,
  type ExperimentOptions,
  type ExperimentProgress,
  type ExperimentResult,
} from '../engine/experiment';
import type { ActiveExperimentView, UiError } from '../shared/protocol';
import type { HostPorts } from './ports';
import type { ServerConnection } from './serverView';
import { applyProgress, startingView, type RunCounting } from './activeExperimentView';
import { UiFailure, toUiError } from './uiErrors';
import { CONFIRM_ACTION, CONFIRM_TITLE, confirmDetail, confirmMore, type RunRequest } from './runRequest';
import type { PanelContext } from './panelContext';
import { plural } from '../shared/plural';

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
  /** A run began measuring, its knobs applied: the server view re-reads them (the affinity the run holds, not the one before). */
  runStarted?(): void;
}

export interface RunOutcome {
  view: ActiveExperimentView;
  result: ExperimentResult | null;
  error: UiError | null;
}

/** What any experiment job gives executeJob: how to start the engine, and what to say about it. */
export interface ExperimentJob {
  conn: ServerConnection;
  /** The scenario (or preset) id: names the experiment's folder. */
  idBase: string;
  scenarioId: string;
  title: string;
  /** How many runs the job makes (for the progress bar); a job bounded by time gives its budget instead. */
  runCount: number;
  /** A search bounded by time (a tune): progress says trials and the budget used, never "of runCount". */
  budgetMs?: number;
  /** One log line: what runs, at which thread counts. */
  describe: string;
  resultsFolder: string;
  /** Fills the view before it is shown (a preset's arms and comparisons). */
  prepare?(view: ActiveExperimentView): void;
  start(ids: { id: string; outDir: string }, signal: AbortSignal, progress: (p: ExperimentProgress) => void): Promise<ExperimentResult>;
}

export async function executeJob(job: ExperimentJob, hooks: RunHooks): Promise<RunOutcome> {
  const { conn } = job;
  const ports = hooks.ports;
  const id = newExperimentId(job.idBase);
  const outDir = path.join(job.resultsFolder, id);
  const view = startingView(id, job.title, job.scenarioId, conn.identity.simulated);
  view.majorVersion = conn.identity.majorVersion;
  const counting: RunCounting = job.budgetMs !== undefined ? { budgetMs: job.budgetMs, startedMs: Date.now() } : job.runCount;
  if (job.budgetMs !== undefined) view.budgetMs = job.budgetMs;
  else view.runCount = job.runCount;
  job.prepare?.(view);
  const ac = new AbortController();
  hooks.started(view, ac);
  ports.log.info(`experiment ${id}: ${job.describe} on ${conn.description}; saving to ${outDir}`);
  try {
    const result = await ports.withProgress(`Spinlock Lab: ${job.title}`, (report, signal) => {
      if (signal.aborted) ac.abort();
      signal.addEventListener('abort', () => ac.abort(), { once: true });
      return job.start({ id, outDir }, ac.signal, (ev) => {
        if (ev.kind === 'run-start') hooks.runStarted?.();
        applyProgress(view, ev, counting, {
          post: (m) => {
            if (!hooks.disposed()) ports.post(m);
          },
          changed: () => hooks.postState(),
          report,
        });
      });
    });
    view.status = result.experiment.status;
    const failed = result.experiment.runs.find((r) => r.failedReason);
    const count =
      job.budgetMs !== undefined
        ? plural(result.experiment.runs.length, 'trial')
        : `${result.experiment.runs.length} of ${plural(job.runCount, 'run')}`;
    view.message = `${result.experiment.status}: ${count}${failed ? `; run ${failed.index + 1} failed: ${failed.failedReason}` : ''}; saved ${result.file}`;
    ports.log.info(`experiment ${id} ${result.experiment.status}`);
    for (const e of result.experiment.events)
      if (e.level !== 'info' || e.message.startsWith('restored')) ports.log.info(`  ${e.level}: ${e.message}`);
    return { view, result, error: null };
  } catch (err) {
    view.status = ac.signal.aborted ? 'cancelled' : 'failed';
    const ui = toUiError(err);
    view.message = ui.message;
    ports.log.error(`experiment ${id} ${view.status}: ${ui.message}`);
    return { view, result: null, error: ui };
  }
}

export function executeRun(job: RunJob, hooks: RunHooks): Promise<RunOutcome> {
  const { conn, req } = job;
  const reps = req.repeat > 1 ? `, ${plural(req.repeat, 'repetition')}` : '';
  return executeJob(
    {
      conn,
      idBase: req.scenarioId,
      scenarioId: req.scenarioId,
      title: job.title,
      runCount: req.load.threads.length * req.repeat,
      describe: `${req.scenarioId}, threads ${req.load.threads.join(',')}${reps}`,
      resultsFolder: job.resultsFolder,
      start: ({ id, outDir }, signal, progress) => {
        const options: ExperimentOptions = {
          target: conn.target,
          scenarioId: req.scenarioId,
          parameters: req.parameters,
          labDatabase: conn.labDatabase,
          load: req.load,
          repeat: req.repeat,
          knobs: req.knobs,
          outDir,
          title: job.title,
          question: job.question,
          deploy: job.deploy,
          stateDir: job.stateDir,
          id,
        };
        return runExperiment(options, signal, progress);
      },
    },
    hooks,
  );
}

/** Refuses a run while this server has an unrestored journal (the Restore action puts it back). */
export async function checkJournal(s: PanelContext): Promise<void> {
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
export async function confirmChanges(s: PanelContext, conn: ServerConnection, changes: string[]): Promise<boolean> {
  if (!changes.length || !s.ports.settings().confirmServerChanges) return true;
  const ok = await s.ports.confirm(CONFIRM_TITLE, confirmDetail(conn.identity.serverName, changes), CONFIRM_ACTION, confirmMore(changes));
  if (!ok) {
    s.ports.log.info('run cancelled at the confirmation: nothing was changed');
    return false;
  }
  s.checkAlive();
  if (s.connection() !== conn)
    throw new UiFailure({ message: 'The connection changed while the question was open; nothing was run.', fix: 'Run again.' });
  if (s.experiment.isRunning) throw new UiFailure({ message: 'Another experiment started meanwhile.', fix: 'Stop it first.' });
  return true;
}

/** Runs an experiment job as the active one: Stop and the panel's close abort it; the knobs and history are re-read after. */
export async function runActive(s: PanelContext, execute: (hooks: RunHooks) => Promise<RunOutcome>): Promise<RunOutcome> {
  let finish: (() => void) | null = null;
  let outcome: RunOutcome;
  try {
    outcome = await execute({
      ports: s.ports,
      disposed: () => s.disposed,
      postState: () => s.postState(),
      started: (view, ac) => {
        finish = s.experiment.begin(ac);
        s.state.active = view;
        s.state.lastError = null;
        s.postState();
      },
      runStarted: () => s.readServerLive(),
    });
    if (outcome.error) s.state.lastError = outcome.error;
  } finally {
    (finish as (() => void) | null)?.();
  }
  if (s.disposed) return outcome;
  await s.guard(async () => {
    await s.refreshKnobs();
    s.readJournalAndHistory();
  });
  s.postState();
  return outcome;
}
