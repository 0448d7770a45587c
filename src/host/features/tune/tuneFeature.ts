// "Find the best settings": the form's intent checked into a tune for this server, confirmed (the affinity changes
// between trials, server-wide), then the engine's search run as the panel's active experiment: its runs' ticks go to
// the live charts as any run's, and its state after each trial and round (the leaderboard) to the webview as
// tuneProgress. Stop cancels it like any experiment; the engine puts the knobs back.
import type { ExperimentResult } from '../../../engine/experiment';
import { runTune as engineRunTune } from '../../../engine/tune';
import type { TuneRunner } from './tuneRunner';
import type { TuneInfo } from '../../../shared/tune';
import { ToWebview, message } from '../../../shared/protocol';
import type { TuneStartIntent } from '../../../shared/tuneMessages';
import { checkJournal, executeJob, runActive } from '../../experimentRun';
import { TUNE_CONFIRM_ACTION, TUNE_CONFIRM_TITLE, tuneConfirmDetail, tuneConfirmMore } from '../../tuneRequest';
import { UiFailure } from '../../uiErrors';
import type { PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature } from '../feature';
import type { ServerConnection } from '../../serverView';
import { getScenario } from '../../../engine/scenarios';
import { tunePreflight } from '../../../engine/tune/preflight';
import { checkTune, DEFAULT_TRIAL_MS, problemLine, warmupFor, type TuneServerCheck } from './tuneCheck';

/** The server's checks of a start that passed them a moment ago (Start asks them, then starts): not made twice. */
export class PassedChecks {
  private last: { conn: ServerConnection; key: string; at: number } | null = null;

  passed(conn: ServerConnection, p: TuneStartIntent): void {
    this.last = { conn, key: JSON.stringify(p), at: Date.now() };
  }

  /** True once for the start that passed within the last half minute on this connection. */
  fresh(conn: ServerConnection, p: TuneStartIntent): boolean {
    const l = this.last;
    this.last = null;
    return !!l && l.conn === conn && l.key === JSON.stringify(p) && Date.now() - l.at < 30_000;
  }
}

/** The engine's preflight on the panel's connection: the objective's spinlock, other work, the budget for the space. */
function serverCheck(conn: ServerConnection): TuneServerCheck {
  return async (req) =>
    tunePreflight(await conn.session(), {
      labDatabase: conn.labDatabase,
      scenario: getScenario(req.scenarioId),
      parameters: req.parameters,
      objective: req.objective,
      constraints: [],
      request: req.request,
      budgetMs: req.budgetMs,
      perTrialMs: (req.trialMs ?? DEFAULT_TRIAL_MS) + warmupFor(req.trialMs),
      sharedServer: req.sharedServer,
    });
}

/** A tune from the panel's form; null when the user declined the confirmation. */
export async function tuneNow(
  s: PanelContext,
  p: TuneStartIntent,
  runTune: TuneRunner,
  checked: PassedChecks = new PassedChecks(),
): Promise<ExperimentResult | null> {
  const conn = s.requireConnection();
  s.requireIdle('another run');
  await checkJournal(s);
  const facts = s.facts()!;
  // Every check that can be made is made before the question: a refusal never follows "may I change the settings?".
  const { problems, req } = await checkTune(p, facts, checked.fresh(conn, p) ? async () => [] : serverCheck(conn));
  if (!req)
    throw new UiFailure({ message: problems.map(problemLine).join('\n'), fix: 'Correct what is named beside Start and start again.' });
  if (s.ports.settings().confirmServerChanges) {
    const ok = await s.ports.confirm(
      TUNE_CONFIRM_TITLE,
      tuneConfirmDetail(conn.identity.serverName, req.budgetMs, req.changes),
      TUNE_CONFIRM_ACTION,
      tuneConfirmMore(req.changes),
    );
    if (!ok) {
      s.ports.log.info('the search was cancelled at the confirmation: nothing was changed');
      return null;
    }
    s.checkAlive();
    s.requireIdle('another run');
    if (s.connection() !== conn)
      throw new UiFailure({ message: 'The connection changed while the question was open; nothing was run.', fix: 'Start again.' });
  }
  for (const c of req.changes) s.ports.log.info(`will change ${c}`);
  const title = p.title?.trim() || `Find the best settings: ${req.preset ? `preset ${req.preset.id} (${req.scenarioId})` : req.scenarioId}`;
  const deploy = s.deployed.get(req.scenarioId) !== JSON.stringify(req.parameters);
  const outcome = await runActive(s, (hooks) =>
    executeJob(
      {
        conn,
        idBase: `tune-${req.scenarioId}`,
        scenarioId: req.scenarioId,
        title,
        // The search decides how many trials the budget holds: progress says trials and the budget used.
        runCount: 0,
        budgetMs: req.budgetMs,
        describe: `tune ${req.scenarioId}, objective ${p.objective}, budget ${p.budget}`,
        resultsFolder: s.ports.settings().resultsFolder,
        start: ({ id, outDir }, signal, progress) =>
          runTune(
            {
              target: conn.target,
              labDatabase: conn.labDatabase,
              scenarioId: req.scenarioId,
              parameters: req.parameters,
              preset: req.preset,
              mode: req.mode,
              objective: req.objective,
              constraints: [],
              budgetMs: req.budgetMs,
              ...(req.trialMs !== undefined ? { trialMs: req.trialMs, warmupMs: warmupFor(req.trialMs) } : {}),
              request: req.request,
              sharedServer: req.sharedServer,
              outDir,
              stateDir: s.stateDir,
              id,
              title,
              deploy,
            },
            signal,
            (ev) => (ev.kind === 'tune' ? tuneProgressed(s, id, ev.tune) : progress(ev)),
          ),
      },
      hooks,
    ),
  );
  if (outcome.result) {
    s.deployed.set(req.scenarioId, JSON.stringify(req.parameters));
    if (outcome.result.experiment.tune) tuneProgressed(s, outcome.result.experiment.id, outcome.result.experiment.tune);
  }
  return outcome.result;
}

/** The search's state into the active view (a reloaded webview redraws it) and to the webview. */
function tuneProgressed(s: PanelContext, id: string, tune: TuneInfo): void {
  const view = s.state.active;
  if (!view || view.experimentId !== id) return;
  view.tune = tune;
  if (!s.disposed) s.ports.post(message(ToWebview.tuneProgress, { experimentId: id, tune }));
}

export class TuneFeature implements PanelFeature {
  private readonly checked = new PassedChecks();

  constructor(private readonly runTune: TuneRunner = engineRunTune) {}

  register(r: FeatureRegistry): void {
    const s = r.panel;
    r.on('tuneStart', (p) => tuneNow(s, p, this.runTune, this.checked));
    r.ask('tuneCheck', async (p) => {
      const conn = s.requireConnection();
      s.requireIdle('another run');
      const { problems } = await checkTune(p, s.facts()!, serverCheck(conn));
      if (!problems.length) this.checked.passed(conn, p);
      return { problems };
    });
  }
}
