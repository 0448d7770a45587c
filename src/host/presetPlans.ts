// Presets in the panel: the catalogue for the webview, each preset's plan for the connected server in words (arms,
// knobs, thread counts, how it adapted), a runPreset intent checked into the engine's PresetRequest and plan (every
// problem in one RunRequestError), and every server-wide change the arms will make, from -> to, for the confirmation.
// The engine does the work (presetRequest, planFor, runPreset); this only translates.
import type { Experiment, ParamValue } from '../shared/experiment';
import { ParamError } from '../shared/params';
import { formatSpec, parseAffinity } from '../shared/affinity';
import type { PresetAnalysisInfo, PresetArmView, PresetLoadInput, PresetPlanView, PresetSummary } from '../shared/protocol';
import { getPreset, listPresets, planPreset, presetValues, type Preset, type PresetPlan } from '../engine/presets';
import { planFor, presetRequest, type PresetInput, type PresetRequest } from '../engine/presetRun';
import type { PlanArm } from '../engine/experiment';
import { getScenario, needsXtp } from '../engine/scenarios';
import { PANEL_NAMES, RunRequestError, describeChanges, type ServerFacts } from './runRequest';

export function presetSummaries(): PresetSummary[] {
  return listPresets().map((p) => ({
    id: p.id,
    name: p.name,
    post: p.post,
    question: p.question,
    needs: [...p.needs],
    settings: p.options,
    load: {
      duration: p.load.duration ?? '',
      rows: p.load.rows ?? '',
      warmup: p.load.warmup,
      interval: p.load.interval,
      threads: p.threads,
    },
    views: [...p.views],
    watch: [...p.watch],
    repeat: p.repeat,
  }));
}

/** The preset's own load: blank fields (the preset decides). */
export function blankLoad(): PresetLoadInput {
  return { mode: 'server-loop', threads: '', duration: '', rows: '', warmup: '', interval: '' };
}

/** Settings as the webview sends them (text as typed, booleans) -> the engine's --set strings. */
function setArgs(settings: Record<string, ParamValue>): string[] {
  return Object.entries(settings).map(([k, v]) => `${k}=${String(v)}`);
}

function problemsOf(e: unknown): string[] {
  if (e instanceof ParamError || e instanceof RunRequestError) return e.problems;
  const m = (e as Error).message;
  const hint = (e as { hint?: string }).hint;
  return [hint ? `${m} (${hint})` : m];
}

/**
 * The preset's settings and load checked (no server needed); throws RunRequestError with every problem. `repeat`:
 * repetitions of each arm at each thread count, undefined for the preset's own.
 */
export function checkPresetInput(
  presetId: string,
  settings: Record<string, ParamValue>,
  load: PresetLoadInput,
  repeat?: number,
): PresetRequest {
  // As the CLI types it: blank is the preset's own.
  const input: PresetInput = {
    presetId,
    set: setArgs(settings),
    mode: load.mode,
    threads: load.threads,
    duration: load.duration,
    rows: load.rows,
    warmup: load.warmup,
    interval: load.interval,
    repeat: repeat === undefined ? '' : String(repeat),
  };
  try {
    return presetRequest(input, PANEL_NAMES);
  } catch (e) {
    throw new RunRequestError(problemsOf(e).map((p) => p.replace(/^--preset: /, '')));
  }
}

/** An arm's knobs in words, resolved against the server ('delayed durability FORCED; CPU affinity numa:0-first-core (CPUs 2-9)'). */
export function knobsInWords(arm: Pick<PlanArm, 'knobs'>, facts: Pick<ServerFacts, 'topology'>): string {
  const parts: string[] = [];
  parts.push(arm.knobs.delayedDurability ? `delayed durability ${arm.knobs.delayedDurability}` : 'delayed durability as the server has it');
  if (arm.knobs.affinity) {
    try {
      const a = parseAffinity(arm.knobs.affinity, facts.topology);
      parts.push(`CPU affinity ${a.spec} (${a.cpus === 'AUTO' ? 'every CPU' : `CPUs ${formatSpec(a.cpus)}`})`);
    } catch (e) {
      parts.push(`CPU affinity ${arm.knobs.affinity} (${(e as Error).message})`);
    }
  } else parts.push('CPU affinity as the server has it');
  return parts.join('; ');
}

export function armViews(plan: PresetPlan, facts: Pick<ServerFacts, 'topology'>): PresetArmView[] {
  return plan.arms.map((a) => ({
    id: a.id,
    label: a.label,
    scenarioId: a.scenarioId,
    parameters: a.parameters,
    knobs: knobsInWords(a, facts),
    mode: a.mode,
    threads: a.threads,
  }));
}

/** The preset's plan for this server with these settings; problems instead of a plan when there is none. Never throws. */
export function presetPlanView(
  presetId: string,
  settings: Record<string, ParamValue>,
  load: PresetLoadInput,
  facts: ServerFacts,
): PresetPlanView {
  const base = { presetId, settings, load };
  try {
    const req = checkPresetInput(presetId, settings, load);
    const plan = planFor(req, facts);
    return { ...base, arms: armViews(plan, facts), comparisons: plan.comparisons, notes: plan.notes, problems: [] };
  } catch (e) {
    return { ...base, arms: [], comparisons: [], notes: [], problems: problemsOf(e) };
  }
}

export function defaultPlanViews(facts: ServerFacts): PresetPlanView[] {
  return listPresets().map((p) => presetPlanView(p.id, {}, blankLoad(), facts));
}

/**
 * Every server-wide change the plan's arms make, from the server's settings now to each arm's, one line per arm and
 * setting ("arm 'core 0 left out of the mask': CPU affinity (server-wide): AUTO (...) -> CPUs 2-39 (...)"). Between
 * arms a setting an arm leaves out goes back to the original, so each arm's change is from the settings now.
 */
export function presetChanges(plan: PresetPlan, facts: ServerFacts): string[] {
  const out: string[] = [];
  for (const arm of plan.arms) {
    const affinity = arm.knobs.affinity ? parseAffinity(arm.knobs.affinity, facts.topology) : null;
    for (const c of describeChanges(facts, arm.knobs.delayedDurability, affinity)) out.push(`arm "${arm.label}": ${c}`);
  }
  return out;
}

export interface PresetRun {
  req: PresetRequest;
  plan: PresetPlan;
  changes: string[];
}

/** The runPreset intent checked and planned for this server; throws RunRequestError with every problem. */
export function buildPresetRun(
  presetId: string,
  settings: Record<string, ParamValue>,
  load: PresetLoadInput,
  facts: ServerFacts,
  repeat?: number,
): PresetRun {
  const req = checkPresetInput(presetId, settings, load, repeat);
  let plan: PresetPlan;
  try {
    plan = planFor(req, facts);
  } catch (e) {
    throw new RunRequestError(problemsOf(e));
  }
  const xtp = plan.arms.filter((a) => needsXtp(getScenario(a.scenarioId), a.parameters));
  if (xtp.length && !facts.identity.xtpSupported) {
    throw new RunRequestError(
      xtp.map((a) => `The arm "${a.label}" needs In-Memory OLTP, which ${facts.identity.serverName} does not support.`),
    );
  }
  let changes: string[];
  try {
    changes = presetChanges(plan, facts);
  } catch (e) {
    throw new RunRequestError(problemsOf(e));
  }
  return { req, plan, changes };
}

export function analysisInfo(preset: Preset, plan: Pick<PresetPlan, 'arms' | 'comparisons' | 'notes'>): PresetAnalysisInfo {
  return {
    id: preset.id,
    name: preset.name,
    post: preset.post,
    question: preset.question,
    notes: plan.notes,
    views: [...preset.views],
    watch: [...preset.watch],
    arms: plan.arms.map((a) => ({ id: a.id, label: a.label })),
    comparisons: plan.comparisons,
  };
}

/**
 * For an experiment opened from the history: its preset's views and comparisons. The comparisons come from planning
 * the preset again for the experiment's own server with the defaults, kept when both arms ran; when none is left
 * (other settings), each arm is compared with the next.
 */
export function analysisForExperiment(e: Experiment): PresetAnalysisInfo | null {
  if (!e.preset) return null;
  let preset: Preset;
  try {
    preset = getPreset(e.preset.id);
  } catch {
    return null;
  }
  const arms: { id: string; label: string }[] = [];
  for (const r of e.runs) if (!arms.some((a) => a.id === r.arm.id)) arms.push({ id: r.arm.id, label: r.arm.label });
  const has = (id: string) => arms.some((a) => a.id === id);
  // Records written since presets kept their comparisons carry them; older ones are planned again.
  const kept = (e.preset as { comparisons?: PresetPlan['comparisons'] }).comparisons;
  let comparisons: PresetPlan['comparisons'] = (kept ?? []).filter((c) => has(c.a) && has(c.b));
  if (!comparisons.length)
    try {
      comparisons = planPreset(preset, { topology: e.topology, identity: e.server }, presetValues(preset), null).comparisons.filter(
        (c) => has(c.a) && has(c.b),
      );
    } catch {
      comparisons = [];
    }
  if (!comparisons.length) {
    for (let i = 0; i + 1 < arms.length; i++)
      comparisons.push({ a: arms[i].id, b: arms[i + 1].id, label: `${arms[i].label} (A) against ${arms[i + 1].label} (B)` });
  }
  return { ...analysisInfo(preset, { arms: [], comparisons, notes: e.preset.notes }), arms };
}
