// Running a saved experiment again: the options come only from the validated record (scenario, parameters, load,
// knobs as the user wrote them; for a preset, its settings, planned again for the new server), never from cell text.
// The new experiment is appended to the notebook beside the originals, so the notebook then compares them; nothing
// is overwritten.
import type { Experiment } from '../../shared/experiment';
import type { DbTarget } from '../../db/target';
import { getScenario } from '../scenarios';
import { resolveParams } from '../../shared/params';
import { runExperiment, runPlan, type ExperimentOptions, type ExperimentProgress, type ExperimentResult } from '../experiment';
import { planArmsOf, presetRequestOf, runPreset } from '../presetRun';
import { CONFIRM_REPEAT, confirmArms, confirmLoad, confirmTitle, isConfirmation } from '../tuneConfirm';
import { readNotebookFile } from './read';
import { writeNotebookFile } from './export';
import { reloadParams } from '../custom/params';
import { repeatOf } from '../../shared/planTime';

/** The title of a re-run of `e` (a re-run of a re-run keeps one prefix). */
export function rerunTitle(e: Pick<Experiment, 'title'>): string {
  return e.title.startsWith('Re-run: ') ? e.title : `Re-run: ${e.title}`;
}

/**
 * Experiment options that repeat `e` against another target, with as many repetitions as it ran. Parameters are
 * re-validated against today's manifest.
 */
export function rerunOptions(
  e: Experiment,
  target: DbTarget,
  outDir: string,
  over: { labDatabase?: string; stateDir?: string } = {},
): ExperimentOptions {
  const scenario = getScenario(e.scenario.id);
  const parameters = resolveParams(scenario.parameters, { json: e.scenario.parameters });
  return {
    target,
    scenarioId: scenario.id,
    parameters,
    labDatabase: over.labDatabase ?? e.labDatabase,
    load: { ...e.load, threads: [...e.load.threads] },
    knobs: { delayedDurability: e.knobs.applied.delayedDurability, affinity: e.knobs.applied.affinity?.spec },
    outDir,
    title: rerunTitle(e),
    question: e.question ?? undefined,
    stateDir: over.stateDir,
    repeat: repeatOf(e),
  };
}

export interface RerunOptions {
  target: DbTarget;
  outDir: string;
  labDatabase?: string;
  stateDir?: string;
  id?: string;
  /** The notebook's folder: a parameter file too large to embed is looked for relative to it. */
  notebookDir?: string;
}

/**
 * Runs a saved experiment again. A preset's experiment is planned again for the server it now runs on (its node and
 * CPU numbers, what it can do), from the preset's recorded settings; a plain one repeats its scenario, load and knobs.
 */
export function rerunExperiment(
  e: Experiment,
  o: RerunOptions,
  signal: AbortSignal,
  progress?: (p: ExperimentProgress) => void,
): Promise<ExperimentResult> {
  const title = rerunTitle(e);
  if (e.kind === 'tune' || isConfirmation(e)) {
    // A tune confirms its winner against the current settings; a confirmation runs its two arms again.
    const tune = e.kind === 'tune';
    const { mode: _mode, threads: _threads, ...load } = e.load;
    return runPlan(
      {
        target: o.target,
        labDatabase: o.labDatabase ?? e.labDatabase,
        arms: tune ? confirmArms(e) : planArmsOf(e),
        load: tune ? { ...load, ...confirmLoad(e) } : load,
        outDir: o.outDir,
        title: tune ? confirmTitle(e) : title,
        question: tune ? `Does the tune's winner beat the current settings in runs of its own?` : (e.question ?? undefined),
        stateDir: o.stateDir,
        id: o.id,
        preset: null,
        repeat: tune ? CONFIRM_REPEAT : repeatOf(e),
      },
      signal,
      progress,
    );
  }
  if (e.preset) {
    return runPreset(
      presetRequestOf(e),
      { target: o.target, labDatabase: o.labDatabase ?? e.labDatabase, outDir: o.outDir, title, stateDir: o.stateDir, id: o.id },
      signal,
      progress,
    );
  }
  if (e.custom) {
    // The user's own T-SQL again, in its database; parameter rows from the record's CSV text, the file, or the query.
    const w = e.custom;
    return reloadParams(o.target, w, o.notebookDir).then((table) =>
      runExperiment(
        {
          ...rerunOptions(e, o.target, o.outDir, { labDatabase: w.database, stateDir: o.stateDir }),
          id: o.id,
          deploy: false,
          custom: { workload: w, table },
        },
        signal,
        progress,
      ),
    );
  }
  return runExperiment(rerunOptions(e, o.target, o.outDir, { labDatabase: o.labDatabase, stateDir: o.stateDir }), signal, progress);
}

/** Adds `next` to the notebook's experiments and rewrites it (charts, tables and summary now compare them). */
export function appendToNotebook(file: string, next: Experiment): Experiment[] {
  const { record } = readNotebookFile(file);
  const experiments = [...record.experiments.filter((e) => e.id !== next.id), next];
  writeNotebookFile(file, experiments);
  return experiments;
}
