// The panel's run form (RunSettings, KnobSettings, parameters) -> what runExperiment takes, checked against the
// connected server: every problem in one RunRequestError, each saying what to write instead. Also what a run will
// change server-wide, from what to what, in words for the confirmation.
import type { KnobState, LoadSettings, ParamValue } from '../shared/experiment';
import type { KnobSettings, RunSettings } from '../shared/protocol';
import type { ServerIdentity, Topology } from '../shared/types';
import { ParamError, resolveParams } from '../shared/params';
import { formatSpec, parseAffinity, type AffinityResolution } from '../shared/affinity';
import { getScenario, listScenarios, needsXtp } from '../engine/scenarios';
import { loadSettingsFrom, type FieldNames } from '../engine/runSettings';
import { affinityWords } from './journalView';
import { SpinlabError } from '../shared/spinlabError';

export { describeKnobState } from './journalView';

export class RunRequestError extends SpinlabError {
  constructor(readonly problems: string[]) {
    super('user-input', problems.join('\n'));
  }
}

export const PANEL_NAMES: FieldNames = {
  threads: 'Threads',
  duration: 'Duration',
  rows: 'Rows',
  warmup: 'Warm-up',
  interval: 'Sampling interval',
  clientWorkers: 'Client workers',
  repeat: 'Repetitions',
};

export interface RunForm {
  scenarioId: string;
  parameters: Record<string, ParamValue>;
  run: RunSettings;
  knobs: KnobSettings;
  /** Repetitions of each thread count (absent: 1); the message schema keeps it to 1..100. */
  repeat?: number;
}

export interface ServerFacts {
  identity: ServerIdentity;
  topology: Topology;
  /** The knobs now (delayedDurability null when the lab database does not exist yet). */
  knobs: KnobState;
  labDatabase: string;
}

export interface RunRequest {
  scenarioId: string;
  parameters: Record<string, ParamValue>;
  load: LoadSettings;
  /** Repetitions of each thread count. */
  repeat: number;
  knobs: { delayedDurability?: 'DISABLED' | 'ALLOWED' | 'FORCED'; affinity?: string };
  affinity: AffinityResolution | null;
  /** What will change server-wide, one line per setting ('CPU affinity: ... -> ...'); empty when nothing changes. */
  changes: string[];
}

/** Only the scenario and its parameters (for deploy and cleanup). */
export function resolveScenario(
  scenarioId: string,
  parameters: Record<string, ParamValue>,
): { scenarioId: string; parameters: Record<string, ParamValue> } {
  let scenario;
  try {
    scenario = getScenario(scenarioId);
  } catch {
    throw new RunRequestError([
      `Unknown scenario "${scenarioId}"; choose one of ${listScenarios()
        .map((s) => s.id)
        .join(', ')}.`,
    ]);
  }
  try {
    return { scenarioId: scenario.id, parameters: resolveParams(scenario.parameters, { json: parameters }) };
  } catch (e) {
    throw new RunRequestError(e instanceof ParamError ? e.problems : [(e as Error).message]);
  }
}

/** Checks the form against the scenario and the server; throws RunRequestError with every problem. */
export function buildRunRequest(form: RunForm, server: ServerFacts): RunRequest {
  const problems: string[] = [];
  let scenarioId = form.scenarioId;
  let parameters: Record<string, ParamValue> = {};
  try {
    ({ scenarioId, parameters } = resolveScenario(form.scenarioId, form.parameters));
    if (needsXtp(getScenario(scenarioId), parameters) && !server.identity.xtpSupported) {
      problems.push(
        `${scenarioId} with these parameters needs In-Memory OLTP, which ${server.identity.serverName} (${server.identity.edition}) does not support: ` +
          'choose disk-based parameters, or use a SQL Server 2016 SP1+ edition with In-Memory OLTP.',
      );
    }
  } catch (e) {
    problems.push(...(e as RunRequestError).problems);
  }
  let load: LoadSettings | undefined;
  try {
    load = loadSettingsFrom(form.run, PANEL_NAMES);
  } catch (e) {
    problems.push(...(e instanceof ParamError ? e.problems : [(e as Error).message]));
  }
  let affinity: AffinityResolution | null = null;
  const spec = form.knobs.affinity.trim();
  if (spec) {
    try {
      affinity = parseAffinity(spec, server.topology);
    } catch (e) {
      problems.push(`CPU affinity: ${(e as Error).message}`);
    }
  }
  if (problems.length) throw new RunRequestError(problems);
  const knobs: RunRequest['knobs'] = {};
  if (form.knobs.delayedDurability !== 'unchanged') knobs.delayedDurability = form.knobs.delayedDurability;
  if (affinity) knobs.affinity = affinity.spec;
  return {
    scenarioId,
    parameters,
    load: load!,
    repeat: form.repeat ?? 1,
    knobs,
    affinity,
    changes: describeChanges(server, knobs.delayedDurability, affinity),
  };
}

/** The server-wide settings that will change, from -> to; settings already as asked are left out. */
export function describeChanges(
  server: ServerFacts,
  dd: RunRequest['knobs']['delayedDurability'],
  affinity: AffinityResolution | null,
): string[] {
  const out: string[] = [];
  const now = server.knobs;
  if (affinity) {
    const same =
      affinity.cpus === 'AUTO'
        ? now.affinity.type === 'AUTO'
        : now.affinity.type === 'MANUAL' && formatSpec(now.affinity.cpus) === formatSpec(affinity.cpus);
    if (!same) {
      const to =
        affinity.cpus === 'AUTO' ? 'AUTO (every CPU)' : `CPUs ${formatSpec(affinity.cpus)} (${affinity.spec}: ${affinity.description})`;
      out.push(`CPU affinity (server-wide): ${affinityWords(now.affinity)} -> ${to}`);
    }
  }
  if (dd && dd !== now.delayedDurability) {
    const from = now.delayedDurability ?? 'DISABLED (the lab database is created with it)';
    if (now.delayedDurability !== null || dd !== 'DISABLED') out.push(`Delayed durability on [${server.labDatabase}]: ${from} -> ${dd}`);
  }
  return out;
}

export const CONFIRM_TITLE = 'Spinlock Lab will change server-wide settings';
/** The confirmation's button: the run starts only when the user picks it. */
export const CONFIRM_ACTION = 'Apply and Run';

/** The first changes of a list, the rest counted (they are in the details on demand). */
export function changeLines(changes: readonly string[], shown = 4): string {
  const head = changes.slice(0, changes.length > shown ? shown - 1 : shown).map((c) => `- ${c}`);
  const rest = changes.length - head.length;
  return [...head, ...(rest > 0 ? [`- and ${rest} more (Show details)`] : [])].join('\n');
}

/** The confirmation in a few lines: what changes from what to what, and that it is put back. */
export function confirmDetail(serverName: string, changes: string[]): string {
  return (
    `On ${serverName}, each put back when the experiment ends, fails or is cancelled:\n${changeLines(changes)}\n` +
    'Other workloads on this server feel it while it runs.'
  );
}

/** The confirmation's details on demand: every change, and how they are put back even if Spinlock Lab is killed. */
export function confirmMore(changes: string[]): string {
  return (
    `Every change:\n${changes.map((c) => `- ${c}`).join('\n')}\n\n` +
    'The original values are written to the restore journal before anything changes. If Spinlock Lab is killed, Restore in ' +
    'the panel (or `spinlab restore`) puts them back.'
  );
}
