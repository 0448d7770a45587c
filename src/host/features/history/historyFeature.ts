// What the panel does with saved experiments: open one beside the live runs, reveal its folder, save it as a
// notebook, export it, line them up over time with their change points (trend.ts), and run a notebook's experiment
// again (through the run or preset path) and add it to the notebook.
import * as path from 'node:path';
import type { Experiment } from '../../../shared/experiment';
import type { PresetAnalysisInfo } from '../../../shared/protocol';
import { appendToNotebook } from '../../../engine/notebook/rerun';
import { experimentDir, readExperiment } from '../../history';
import { exportTo, rerunPayload, rerunPresetArgs, saveAsNotebook } from './notebookExport';
import { analysisForExperiment } from '../../presetPlans';
import { runScenario } from '../run/runFeature';
import { runPresetNow } from '../preset/presetFeature';
import { confirmNotebookPlan, rerunCustomNow } from './rerunPlan';
import { historyTrend } from './trend';
import { UiFailure } from '../../uiErrors';
import type { PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature } from '../feature';

/** The answer to experimentOpen: the saved experiment, with the preset views it needs. */
export function openExperiment(s: PanelContext, id: string): { experiment: Experiment; preset: PresetAnalysisInfo | null } {
  const experiment = readExperiment(s.ports.settings().resultsFolder, id);
  return { experiment, preset: analysisForExperiment(experiment) };
}

export async function revealExperiment(s: PanelContext, id: string): Promise<void> {
  const dir = experimentDir(s.ports.settings().resultsFolder, id);
  if (!dir) throw new UiFailure({ message: `"${id}" is not an experiment of this folder.` });
  await s.ports.revealPath(path.join(dir, 'experiment.json'));
}

export async function saveNotebook(s: PanelContext, id: string): Promise<void> {
  const file = await saveAsNotebook(s.ports, readExperiment(s.ports.settings().resultsFolder, id));
  if (!file) return;
  s.toast(`Saved ${path.basename(file)}`);
  await s.ports.openFile(file);
}

export async function exportExperiment(s: PanelContext, id: string, kind: 'csv' | 'tsql'): Promise<void> {
  const dir = await exportTo(s.ports, readExperiment(s.ports.settings().resultsFolder, id), kind);
  if (!dir) return;
  s.toast(`Exported to ${dir}`);
  await s.ports.revealPath(dir);
}

/**
 * "Run this experiment again": the plan from the notebook's record shown and confirmed first; then its original experiment,
 * repeated on the connected server through the same confirmed, cancellable run as the Run button; the new experiment is then added to the notebook beside the others.
 */
export async function rerunNotebook(s: PanelContext, file: string): Promise<void> {
  const original = await confirmNotebookPlan(s, file);
  if (!original) return;
  const preset = rerunPresetArgs(original);
  const result = preset
    ? await runPresetNow(s, preset.presetId, preset.settings, preset.load, preset.title, preset.repeat)
    : original.custom
      ? await rerunCustomNow(s, original, file)
      : await runScenario(s, rerunPayload(original));
  if (!result) return;
  const all = appendToNotebook(file, result.experiment);
  s.ports.log.info(`added ${result.experiment.id} to ${file} (${all.length} experiments)`);
  s.toast(`Added the re-run to ${path.basename(file)} (${all.length} experiments)`);
  await s.ports.openFile(file);
}

export class HistoryFeature implements PanelFeature {
  register(r: FeatureRegistry): void {
    const s = r.panel;
    r.ask('experimentOpen', (p) => openExperiment(s, p.id));
    r.ask('historyTrend', () => historyTrend(s));
    r.on('experimentReveal', (p) => revealExperiment(s, p.id));
    r.on('experimentSaveNotebook', (p) => saveNotebook(s, p.id));
    r.on('experimentExport', (p) => exportExperiment(s, p.id, p.kind));
  }
}
