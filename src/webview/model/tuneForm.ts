// "Find the best settings" as the user edits it: the workload (the Scenario section's scenario, or a preset's), the
// objective, the budget, and the lists that narrow the search (blank: built from the server's shape). Checked as typed
// with the shared parsers the host uses, so Start is offered only for what the host will accept.
import type { ParamValue } from '../../shared/experiment';
import { parseAffinity } from '../../shared/affinity';
import { parseDuration, parseThreadList } from '../../shared/params';
import { parseBudget, parseObjective } from '../../shared/tune';
import type { TuneStartIntent } from '../../shared/tuneMessages';
import type { Topology } from '../../shared/types';

export type TuneObjectiveKind = 'throughput' | 'p99' | 'spins-per-row';

export interface TuneFormState {
  /** 'scenario': the Scenario section's scenario and parameters; otherwise a preset id (its scenario). */
  workload: string;
  objective: TuneObjectiveKind;
  /** The spinlock of 'spins-per-row', as typed. */
  spinlock: string;
  budget: string;
  sessions: string;
  /** Affinity specs separated by ';' (a spec may hold commas: cpu:0,2,4-7). */
  affinity: string;
  batchSizes: string;
  /** Each trial's measured time; blank: the engine's. */
  trial: string;
  allowForced: boolean;
  sharedServer: boolean;
  title: string;
}

export const SCENARIO_WORKLOAD = 'scenario';

export function tuneForm(): TuneFormState {
  return {
    workload: SCENARIO_WORKLOAD,
    objective: 'throughput',
    spinlock: '',
    budget: '10m',
    sessions: '',
    affinity: '',
    batchSizes: '',
    trial: '',
    allowForced: false,
    sharedServer: false,
    title: '',
  };
}

export type TuneField = 'spinlock' | 'budget' | 'sessions' | 'affinity' | 'batchSizes' | 'trial';

export interface TuneFormCheck {
  errors: Partial<Record<TuneField, string>>;
  budgetMs: number | null;
  valid: boolean;
}

/** The affinity field's specs: ';' or a new line between them. */
export function affinitySpecs(text: string): string[] {
  return text
    .split(/[;\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function objectiveText(f: TuneFormState): string {
  return f.objective === 'spins-per-row' ? `spins-per-row:${f.spinlock.trim()}` : f.objective;
}

/** Every field's problem; the affinity specs are checked against the server's topology once it is known. */
export function checkTuneForm(f: TuneFormState, topology: Topology | null, hasBatchSize: boolean): TuneFormCheck {
  const errors: TuneFormCheck['errors'] = {};
  const attempt = (k: TuneField, fn: () => void) => {
    try {
      fn();
    } catch (e) {
      errors[k] ??= (e as Error).message;
    }
  };
  let budgetMs: number | null = null;
  attempt('budget', () => {
    budgetMs = parseBudget(f.budget);
  });
  if (f.objective === 'spins-per-row') {
    if (!f.spinlock.trim()) errors.spinlock = 'Name the spinlock whose spins per row to lower, e.g. LOGCACHE_ACCESS.';
    else attempt('spinlock', () => parseObjective(objectiveText(f)));
  }
  if (f.sessions.trim()) attempt('sessions', () => parseThreadList(f.sessions));
  if (f.batchSizes.trim()) {
    if (!hasBatchSize) errors.batchSizes = 'This workload has no rows-per-transaction setting: leave it blank.';
    else attempt('batchSizes', () => parseThreadList(f.batchSizes));
  }
  if (f.trial.trim()) attempt('trial', () => parseDuration(f.trial));
  if (topology) for (const spec of affinitySpecs(f.affinity)) attempt('affinity', () => parseAffinity(spec, topology));
  return { errors, budgetMs, valid: Object.keys(errors).length === 0 };
}

/** What the host gets: the workload, and every field as typed (the host checks them again). */
export function tunePayload(
  f: TuneFormState,
  scenario: { scenarioId: string; parameters: Record<string, ParamValue> },
  mode: TuneStartIntent['mode'],
): TuneStartIntent {
  return {
    workload: f.workload === SCENARIO_WORKLOAD ? { kind: 'scenario', ...scenario } : { kind: 'preset', presetId: f.workload },
    mode,
    objective: objectiveText(f),
    budget: f.budget.trim(),
    sessions: f.sessions.trim(),
    affinity: affinitySpecs(f.affinity),
    batchSizes: f.batchSizes.trim(),
    allowForced: f.allowForced,
    sharedServer: f.sharedServer,
    ...(f.trial.trim() ? { trial: f.trial.trim() } : {}),
    ...(f.title.trim() ? { title: f.title.trim() } : {}),
  };
}
