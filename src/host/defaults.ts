// What the panel starts with: the scenario catalogue for the webview, and the form's first selection.
import { defaultParameters, listScenarios } from '../engine/scenarios';
import { ToHost, type PanelState, type ScenarioSummary } from '../shared/protocol';
import { LOAD_DEFAULTS } from '../engine/runSettings';

export function scenarioSummaries(): ScenarioSummary[] {
  return listScenarios().map((s) => ({
    id: s.id,
    name: s.name,
    description: s.description,
    posts: [...s.posts],
    unit: s.unit,
    parameters: s.parameters,
    xtpWhen: s.features.filter((f) => f.feature === 'xtp').map((f) => f.when ?? {}),
  }));
}

export function defaultSelection(): PanelState['selection'] {
  const first = listScenarios().find((s) => s.id === 'disk-insert') ?? listScenarios()[0];
  return {
    scenarioId: first.id,
    parameters: defaultParameters(first),
    run: {
      mode: 'server-loop',
      threads: LOAD_DEFAULTS.threads,
      duration: LOAD_DEFAULTS.duration,
      rows: '',
      warmup: LOAD_DEFAULTS.warmup,
      interval: LOAD_DEFAULTS.interval,
    },
    knobs: { delayedDurability: 'unchanged', affinity: '' },
  };
}

/** A stored selection if it still has the right shape, else the default. */
export function restoreSelection(stored: unknown): PanelState['selection'] {
  const checked = ToHost.selectionSave.schema.safeParse(stored);
  if (!checked.success) return defaultSelection();
  const s = checked.data as PanelState['selection'];
  return listScenarios().some((x) => x.id === s.scenarioId) ? s : defaultSelection();
}
