// The panel's notebook and export actions over saved experiments: save as a notebook, export CSV or the T-SQL
// bundle, and turn a notebook's experiment into a run request for "Run this experiment again". Plain Node; the editor's
// dialogs come through HostPorts.
import * as path from 'node:path';
import type { Experiment, ParamValue } from '../../../shared/experiment';
import type { PayloadOf, PresetLoadInput, RunSettings, ToHostMap } from '../../../shared/protocol';
import { exportExperiment, writeNotebookFile } from '../../../engine/notebook/export';
import { rerunTitle } from '../../../engine/notebook/rerun';
import { repeatOf } from '../../../shared/planTime';
import type { HostPorts } from '../../ports';

export async function saveAsNotebook(ports: HostPorts, experiment: Experiment): Promise<string | null> {
  const file = await ports.pickSaveFile(`${experiment.id}.ipynb`, { 'Jupyter notebook': ['ipynb'] });
  if (!file) return null;
  writeNotebookFile(file, [experiment]);
  ports.log.info(`saved ${experiment.id} as the notebook ${file}`);
  return file;
}

export async function exportTo(ports: HostPorts, experiment: Experiment, kind: 'csv' | 'tsql'): Promise<string | null> {
  const dir = await ports.pickFolder(
    kind === 'csv' ? 'Export the samples as CSV into this folder' : 'Export the T-SQL scripts into this folder',
  );
  if (!dir) return null;
  const target = path.join(dir, `${experiment.id}-${kind}`);
  const written = exportExperiment([experiment], kind === 'csv' ? { csvDir: target } : { tsqlDir: target });
  ports.log.info(`exported ${experiment.id} (${kind}): ${written.length} files in ${target}`);
  return target;
}

const ms = (n: number) => `${n}ms`;

/** A recorded load as the run form would type it (blank threads: the preset's own). */
function loadAsTyped(e: Experiment, mode: RunSettings['mode'], threads: string): RunSettings {
  return {
    mode,
    threads,
    duration: e.load.durationMs === null ? '' : ms(e.load.durationMs),
    rows: e.load.rows === null ? '' : String(e.load.rows),
    warmup: ms(e.load.warmupMs),
    interval: ms(e.load.intervalMs),
  };
}

/**
 * What repeats a preset's experiment from the panel: the preset, its recorded settings, and the load as the form
 * would type it. The panel plans it again for the connected server (node numbers, what it can do).
 */
export function rerunPresetArgs(
  e: Experiment,
): { presetId: string; settings: Record<string, ParamValue>; load: PresetLoadInput; title: string; repeat: number } | null {
  if (!e.preset) return null;
  return {
    presetId: e.preset.id,
    settings: { ...(e.preset.settings ?? {}) },
    load: loadAsTyped(e, e.runs[0]?.arm.mode ?? e.load.mode, e.preset.threads ? e.preset.threads.join(',') : ''),
    title: rerunTitle(e),
    repeat: repeatOf(e),
  };
}

/** The panel's run message for repeating `e`: the same scenario, parameters, load and knobs, as the form would send. */
export function rerunPayload(e: Experiment): PayloadOf<ToHostMap['experimentRun']> {
  return {
    scenarioId: e.scenario.id,
    parameters: { ...e.scenario.parameters },
    run: loadAsTyped(e, e.load.mode, e.load.threads.join(',')),
    knobs: {
      delayedDurability: e.knobs.applied.delayedDurability ?? 'unchanged',
      affinity: e.knobs.applied.affinity?.spec ?? '',
    },
    repeat: repeatOf(e),
    title: rerunTitle(e),
    question: e.question ?? undefined,
  };
}
