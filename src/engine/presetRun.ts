// A preset from what a person typed to a plan for the connected server: the preset's settings (--set), thread counts
// and load settings over its defaults, and its arms for this server's topology; then the plan runs as one experiment.
import { DbSession } from '../db/client';
import type { DbTarget } from '../db/target';
import type { Experiment, LoadSettings, ParamValue, PresetInfo } from '../shared/experiment';
import { ParamError } from '../shared/params';
import type { ServerIdentity, Topology } from '../shared/types';
import { runPlan, type ExperimentProgress, type ExperimentResult, type PlanArm, type PlanOptions } from './experiment';
import { getPreset, planPreset, presetValues, type Preset, type PresetPlan } from './presets';
import { loadSettingsFrom, repeatFrom, type FieldNames, CLI_NAMES } from './runSettings';
import { repeatOf } from '../shared/planTime';
import { readIdentity, readTopology } from './server';
import type { SequentialOption } from './sequentialStop';

export interface PresetInput {
  presetId: string;
  set?: readonly string[];
  mode?: LoadSettings['mode'];
  /** As typed; blank = the preset's own. */
  threads?: string;
  duration?: string;
  rows?: string;
  warmup?: string;
  interval?: string;
  /** Runs of each arm at each thread count, as typed; blank = the preset's own. */
  repeat?: string;
}

export interface PresetRequest {
  preset: Preset;
  values: Record<string, ParamValue>;
  /** The user's thread counts, or null for the preset's (from the topology). */
  threads: number[] | null;
  load: Omit<LoadSettings, 'mode' | 'threads'>;
  mode: LoadSettings['mode'];
  /** Runs of each arm at each thread count. */
  repeat: number;
}

const blank = (s: string | undefined) => s === undefined || s.trim() === '';

/** Checks everything that needs no server: the preset id, its settings and the load; every problem listed at once. */
export function presetRequest(input: PresetInput, names: FieldNames = CLI_NAMES): PresetRequest {
  let preset: Preset;
  try {
    preset = getPreset(input.presetId);
  } catch (e) {
    throw new ParamError([`--preset: ${(e as Error).message}`]);
  }
  const problems: string[] = [];
  let values: Record<string, ParamValue> = {};
  try {
    values = presetValues(preset, { set: input.set });
  } catch (e) {
    problems.push(...(e instanceof ParamError ? e.problems : [(e as Error).message]));
  }
  // A time given by the user replaces the preset's row count, and the other way round.
  const byUser = !blank(input.duration) || !blank(input.rows);
  const mode = input.mode ?? 'server-loop';
  let load: LoadSettings | null = null;
  try {
    load = loadSettingsFrom(
      {
        mode,
        threads: input.threads,
        duration: byUser ? input.duration : preset.load.duration,
        rows: byUser ? input.rows : preset.load.rows,
        warmup: blank(input.warmup) ? preset.load.warmup : input.warmup,
        interval: blank(input.interval) ? preset.load.interval : input.interval,
      },
      names,
    );
  } catch (e) {
    problems.push(...(e instanceof ParamError ? e.problems : [(e as Error).message]));
  }
  const repeat = blank(input.repeat) ? preset.repeat : repeatFrom(input.repeat!, names.repeat, problems);
  if (problems.length || !load) throw new ParamError(problems);
  const { threads, mode: _m, ...rest } = load;
  return { preset, values, threads: blank(input.threads) ? null : threads, load: rest, mode, repeat };
}

/** The preset's arms for this server, each arm in the requested mode. */
export function planFor(req: PresetRequest, server: { topology: Topology; identity: ServerIdentity }): PresetPlan {
  const plan = planPreset(req.preset, server, req.values, req.threads);
  return { ...plan, arms: plan.arms.map((a) => ({ ...a, mode: req.mode })) };
}

/** Reads the server's identity and topology (for planning before the run). */
export async function readServer(target: DbTarget): Promise<{ identity: ServerIdentity; topology: Topology }> {
  const admin = await DbSession.open(target, { database: 'master', appName: 'Spinlock Lab' });
  try {
    const identity = await readIdentity(admin);
    const { topology, startTime } = await readTopology(admin, identity);
    identity.startTime = startTime;
    return { identity, topology };
  } finally {
    await admin.close();
  }
}

export interface PresetRunOptions {
  target: DbTarget;
  labDatabase: string;
  outDir: string;
  title?: string;
  deploy?: boolean;
  stateDir?: string;
  id?: string;
  /** --repeat auto: the request's repeat is then the most (PlanOptions.sequential). */
  sequential?: SequentialOption;
}

export function presetInfo(req: PresetRequest, plan: PresetPlan): PresetInfo {
  const preset = req.preset;
  return {
    id: preset.id,
    post: preset.post,
    question: preset.question,
    notes: plan.notes,
    comparisons: plan.comparisons,
    views: [...preset.views],
    watch: [...preset.watch],
    settings: { ...req.values },
    threads: req.threads ? [...req.threads] : null,
  };
}

/**
 * The request that repeats a saved preset experiment: the same preset, settings, thread counts and load. Planned again
 * against the server it runs on, so node and CPU numbers follow that server's topology, not the original's.
 */
export function presetRequestOf(e: Experiment): PresetRequest {
  if (!e.preset) throw new ParamError([`${e.id} is not a preset's experiment.`]);
  let preset: Preset;
  try {
    preset = getPreset(e.preset.id);
  } catch (err) {
    throw new ParamError([`The notebook's preset ${e.preset.id} is not known to this Spinlock Lab: ${(err as Error).message}`]);
  }
  const values = presetValues(preset, { json: e.preset.settings ?? {} });
  const { mode: _mode, threads: _threads, ...load } = e.load;
  return {
    preset,
    values,
    threads: e.preset.threads ?? null,
    load,
    mode: e.runs[0]?.arm.mode ?? e.load.mode,
    repeat: repeatOf(e),
  };
}

/** Plans the preset for the server behind `target` and runs it as one experiment. */
export async function runPreset(
  req: PresetRequest,
  o: PresetRunOptions,
  signal: AbortSignal,
  progress: (p: ExperimentProgress) => void = () => undefined,
  onPlan: (plan: PresetPlan) => void = () => undefined,
): Promise<ExperimentResult & { plan: PresetPlan }> {
  const server = await readServer(o.target);
  const plan = planFor(req, server);
  onPlan(plan);
  for (const n of plan.notes) progress({ kind: 'status', message: n });
  const opts: PlanOptions = {
    target: o.target,
    labDatabase: o.labDatabase,
    arms: plan.arms,
    load: req.load,
    outDir: o.outDir,
    title: o.title ?? `${req.preset.name} (preset ${req.preset.id})`,
    question: req.preset.question,
    deploy: o.deploy,
    stateDir: o.stateDir,
    id: o.id,
    preset: presetInfo(req, plan),
    repeat: req.repeat,
    sequential: o.sequential,
  };
  const result = await runPlan(opts, signal, progress);
  return { ...result, plan };
}

/**
 * The arms a saved experiment ran, in the order it ran them, with their thread counts: what a re-run of a preset's
 * experiment (or of any experiment) passes to runPlan. Knobs come back as the user wrote them (the affinity spec).
 */
export function planArmsOf(e: Pick<Experiment, 'runs'>): PlanArm[] {
  const arms = new Map<string, PlanArm>();
  for (const r of e.runs) {
    const a = arms.get(r.arm.id) ?? {
      id: r.arm.id,
      label: r.arm.label,
      scenarioId: r.arm.scenarioId,
      parameters: { ...r.arm.parameters },
      mode: r.arm.mode,
      threads: [],
      knobs: { delayedDurability: r.arm.knobs.delayedDurability, affinity: r.arm.knobs.affinity?.spec },
    };
    if (!a.threads.includes(r.threads)) a.threads.push(r.threads);
    arms.set(r.arm.id, a);
  }
  return [...arms.values()];
}
