// The preset path: a preset planned for the connected server (the plan shown as settings are typed), then run as one
// experiment of several arms through the same checks, confirmation and active-run bookkeeping as a run (experimentRun.ts).
import type { ParamValue } from '../../../shared/experiment';
import type { PresetPlanView } from '../../../shared/protocol';
import type { PresetRequests } from '../../../shared/presetMessages';
import type { ParamsOf } from '../../../shared/requests';
import type { ExperimentResult } from '../../../engine/experiment';
import { runPreset } from '../../../engine/presetRun';
import { checkJournal, confirmChanges, executeJob, runActive } from '../../experimentRun';
import { analysisInfo, blankLoad, buildPresetRun, presetPlanView } from '../../presetPlans';
import { UiFailure } from '../../uiErrors';
import type { PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature } from '../feature';

/** The answer to presetPreview: a preset planned for this server with the settings as typed (or their problems). */
export function previewPreset(s: PanelContext, p: ParamsOf<typeof PresetRequests.presetPreview>): PresetPlanView {
  const facts = s.facts();
  if (!facts)
    throw new UiFailure({
      message: 'Not connected to a server: a preset is planned for the connected one.',
      fix: 'Connect first.',
      action: 'connect',
    });
  return presetPlanView(p.presetId, p.settings, p.load, facts);
}

/**
 * A preset as one experiment of several arms, through the same path as a run: the journal check, the confirmation
 * naming every server-wide change of every arm, cancellable progress, live ticks with the arm, knobs restored by the
 * engine, saved to the history.
 */
export async function runPresetNow(
  s: PanelContext,
  presetId: string,
  settings: Record<string, ParamValue>,
  load = blankLoad(),
  title?: string,
  /** Repetitions of each arm at each thread count; undefined: the preset's own. */
  repeat?: number,
): Promise<ExperimentResult | null> {
  const conn = s.requireConnection();
  s.requireIdle('another run');
  await checkJournal(s);
  const facts = s.facts()!;
  const { req, plan, changes } = buildPresetRun(presetId, settings, load, facts, repeat);
  if (!(await confirmChanges(s, conn, changes))) return null;
  for (const c of changes) s.ports.log.info(`will change ${c}`);
  for (const n of plan.notes) s.ports.log.info(`preset ${presetId}: ${n}`);
  const reps = req.repeat;
  const runCount = plan.arms.reduce((n, a) => n + a.threads.length, 0) * reps;
  const name = title?.trim() || `${req.preset.name} (preset ${req.preset.id})`;
  const outcome = await runActive(s, (hooks) =>
    executeJob(
      {
        conn,
        idBase: req.preset.id,
        scenarioId: plan.arms[0].scenarioId,
        title: name,
        runCount,
        describe: `preset ${req.preset.id}, ${plan.arms.length} arms (${plan.arms.map((a) => `${a.id}: ${a.threads.join(',')}`).join('; ')}), ${reps} repetition${reps === 1 ? '' : 's'}`,
        resultsFolder: s.ports.settings().resultsFolder,
        prepare: (view) => {
          view.preset = analysisInfo(req.preset, plan);
        },
        start: ({ id, outDir }, signal, progress) =>
          runPreset(
            req,
            { target: conn.target, labDatabase: conn.labDatabase, outDir, title: name, stateDir: s.stateDir, id },
            signal,
            progress,
            (actual) => {
              // The engine plans again from the server it reads: show that plan (the same unless the server changed).
              const view = s.state.active;
              if (view && view.experimentId === id) view.preset = analysisInfo(req.preset, actual);
            },
          ),
      },
      hooks,
    ),
  );
  // Every scenario the arms deployed is now in the lab database with the parameters of the last arm that used it.
  if (outcome.result) for (const a of plan.arms) s.deployed.set(a.scenarioId, JSON.stringify(a.parameters));
  return outcome.result;
}

export class PresetFeature implements PanelFeature {
  register(r: FeatureRegistry): void {
    const s = r.panel;
    r.ask('presetPreview', (p) => previewPreset(s, p));
    r.on('presetRun', (p) => runPresetNow(s, p.presetId, p.settings, p.load, p.title, p.repeat));
  }
}
