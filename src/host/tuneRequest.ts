// "Find the best settings" as the panel's form sends it -> what the engine's runTune takes, checked against the
// connected server: every problem in one RunRequestError, each saying what to write instead. Also what the search will
// change server-wide, in words, for the confirmation: a tune changes the affinity between trials (everyone on the
// server feels it) and puts every change back after each trial.
import type { ParamValue, PresetInfo } from '../shared/experiment';
import type { TuneObjective, TuneSpaceRequest } from '../shared/tune';
import type { TuneStartIntent } from '../shared/tuneMessages';
import { parseBudget, parseObjective } from '../shared/tune';
import { parseDuration, parseThreadList } from '../shared/params';
import { formatSpec, parseAffinity } from '../shared/affinity';
import { getScenario, needsXtp } from '../engine/scenarios';
import { planFor, presetInfo } from '../engine/presetRun';
import { affinityWords } from './journalView';
import { changeLines } from './runRequest';
import { blankLoad, checkPresetInput } from './presetPlans';
import { RunRequestError, resolveScenario, type ServerFacts } from './runRequest';

/** The engine's TuneOptions less what the host adds (target, folders, id). */
export interface TuneRequest {
  scenarioId: string;
  parameters: Record<string, ParamValue>;
  preset: PresetInfo | null;
  mode: 'server-loop' | 'client-loop';
  objective: TuneObjective;
  budgetMs: number;
  trialMs?: number;
  request: TuneSpaceRequest;
  sharedServer: boolean;
  /** What changes server-wide between trials, one line per setting, for the confirmation. */
  changes: string[];
}

/** Where the search's affinity candidates come from when the user gives none (the engine builds them). */
export const TOPOLOGY_CANDIDATES =
  "candidates built from the server's topology (every CPU, without core 0, the log writer's node, the other node(s), one socket per node, fewer cores)";

function listOf(text: string, what: string, problems: string[]): number[] | undefined {
  if (!text.trim()) return undefined;
  try {
    return parseThreadList(text);
  } catch (e) {
    problems.push(`${what}: ${(e as Error).message}`);
    return undefined;
  }
}

/** The scenario the tune runs, with its parameters (and its preset when it came from one). */
function workloadOf(
  p: TuneStartIntent,
  facts: ServerFacts,
): { scenarioId: string; parameters: Record<string, ParamValue>; preset: PresetInfo | null } {
  if (p.workload.kind === 'scenario') return { ...resolveScenario(p.workload.scenarioId, p.workload.parameters), preset: null };
  const req = checkPresetInput(p.workload.presetId, {}, blankLoad());
  const plan = planFor(req, facts);
  const arm = plan.arms[0];
  if (!arm) throw new RunRequestError([`The preset ${p.workload.presetId} has nothing it can run on this server.`]);
  return { scenarioId: arm.scenarioId, parameters: arm.parameters, preset: presetInfo(req, plan) };
}

/** Checks the form against the scenario and the server; throws RunRequestError with every problem. */
export function buildTuneRequest(p: TuneStartIntent, facts: ServerFacts): TuneRequest {
  const problems: string[] = [];
  let work: ReturnType<typeof workloadOf> | null = null;
  try {
    work = workloadOf(p, facts);
    if (needsXtp(getScenario(work.scenarioId), work.parameters) && !facts.identity.xtpSupported)
      problems.push(`${work.scenarioId} with these parameters needs In-Memory OLTP, which ${facts.identity.serverName} does not support.`);
  } catch (e) {
    problems.push(...(e instanceof RunRequestError ? e.problems : [(e as Error).message]));
  }
  const attempt = <T>(what: string, f: () => T): T | undefined => {
    try {
      return f();
    } catch (e) {
      problems.push(`${what}: ${(e as Error).message}`);
      return undefined;
    }
  };
  const objective = attempt('Objective', () => parseObjective(p.objective));
  const budgetMs = attempt('Budget', () => parseBudget(p.budget));
  const trialMs = p.trial?.trim() ? attempt('Trial length', () => parseDuration(p.trial!)) : undefined;
  const sessions = listOf(p.sessions, 'Sessions', problems);
  const batchSizes = listOf(p.batchSizes, 'Rows per transaction', problems);
  if (batchSizes && work && !getScenario(work.scenarioId).parameters.some((x) => x.name === 'batch_size'))
    problems.push(`Rows per transaction: ${work.scenarioId} has no rows-per-transaction setting; leave it blank.`);
  const affinity = p.affinity.map((a) => a.trim()).filter(Boolean);
  const resolved = affinity.map((a) => attempt(`CPU affinity "${a}"`, () => parseAffinity(a, facts.topology)));
  if (problems.length || !work || !objective || budgetMs === undefined) throw new RunRequestError(problems);
  const request: TuneSpaceRequest = {};
  if (affinity.length) request.affinity = affinity;
  if (sessions) request.sessions = sessions;
  if (batchSizes) request.batchSizes = batchSizes;
  if (p.allowForced) request.allow = ['forced'];
  const changes: string[] = [];
  const now = affinityWords(facts.knobs.affinity);
  const candidates = resolved.length
    ? resolved.map((r) => (r!.cpus === 'AUTO' ? 'AUTO (every CPU)' : `CPUs ${formatSpec(r!.cpus)} (${r!.spec})`)).join('; ')
    : TOPOLOGY_CANDIDATES;
  changes.push(`CPU affinity (server-wide, affects everyone on the server): ${now} -> each of ${candidates}, one trial at a time`);
  if (p.allowForced)
    changes.push(
      `Delayed durability on [${facts.labDatabase}]: ${facts.knobs.delayedDurability ?? 'DISABLED'} -> FORCED in some trials (trades durability for speed)`,
    );
  return {
    ...work,
    mode: p.mode,
    objective,
    budgetMs,
    ...(trialMs !== undefined ? { trialMs } : {}),
    request,
    sharedServer: p.sharedServer,
    changes,
  };
}

export const TUNE_CONFIRM_TITLE = 'Find the best settings: Spinlock Lab will change server-wide settings';
export const TUNE_CONFIRM_ACTION = 'Start the Search';

/** The confirmation's text: how long, what changes between trials, that it is put back, that nothing is left applied. */
export function tuneConfirmDetail(serverName: string, budgetMs: number, changes: string[]): string {
  return (
    `Trials on ${serverName} for about ${Math.round(budgetMs / 60_000)} minute${budgetMs === 60_000 ? '' : 's'} (its budget); between trials:\n` +
    `${changeLines(changes)}\n` +
    'Each change is put back after each trial and at the end. The best setting is shown as T-SQL, not applied.'
  );
}

/** The tune's confirmation details on demand: how the changes are put back, and who else feels them. */
export function tuneConfirmMore(changes: string[]): string {
  return (
    `Every change:\n${changes.map((c) => `- ${c}`).join('\n')}\n\n` +
    'Each change is written to the restore journal before it is made, and put back after its trial and when the search ends, ' +
    'fails or is cancelled; if Spinlock Lab is killed, Restore in the panel (or `spinlab restore`) puts them back. Other workloads ' +
    'on this server are affected while it runs.'
  );
}
