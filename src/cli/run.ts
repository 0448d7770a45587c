// The run commands of spinlab (run, run --preset, rerun), apart from the program's wiring in main.ts so that
// `spinlab demo` can call them without importing main.
import * as path from 'node:path';
import { resolveParams } from '../shared/params';
import { loadSettingsFrom } from '../engine/runSettings';
import { getScenario } from '../engine/scenarios';
import { runExperiment, runPlan, type ExperimentProgress, type PlanArm } from '../engine/experiment';
import type { Experiment, LoadSettings } from '../shared/experiment';
import { asMain, BASELINE_ARM, CURRENT_ARM, interleavedArms, interleavedSection, INTERLEAVE_REPEAT } from './interleave';
import { resultsReport } from '../engine/report';
import { presetRequest, runPreset } from '../engine/presetRun';
import { presetReport } from '../engine/presetReport';
import { getPreset } from '../engine/presets';
import { targetFromArgs, UsageError } from './commands';
import { experimentOverrun, Progress } from './progress';
import { readNotebookFile } from '../engine/notebook/read';
import { rerunExperiment } from '../engine/notebook/rerun';
import { outcomeOf, saveRest, savedLine, type Outcome } from './resultSaving';
import { notebookChoice, type NotebookFlags } from './notebookOut';
import { confirmVerdict, isConfirmation } from '../engine/tuneConfirm';
import { applyGates, sequentialGates, type Baseline } from './gates';
import type { Gate } from '../shared/gates';
import { sessionWaitsSection } from '../engine/custom/report';
import { RunStacks, runStacksPlan } from './runStacks';
import { confirmRerun, connectionIfGiven, type Ask } from './rerunPlan';
import { claimOutput, outDirProblems } from './output';
import { EXIT, exitOf } from './exitCodes';
import { parseRepeat, planTime } from '../shared/planTime';
import { DEFAULT_MAX_REPEAT } from '../shared/sequential';
import { labDatabaseProblem } from '../shared/labDatabase';

export interface RunArgs {
  connection?: string;
  scenario?: string;
  preset?: string;
  threads?: string;
  duration?: string;
  rows?: string;
  warmup?: string;
  interval?: string;
  clientWorkers?: string;
  clientPath?: string;
  mode: 'server-loop' | 'client-loop';
  set: string[];
  delayedDurability?: string;
  affinity?: string;
  deploy: boolean;
  out?: string;
  title?: string;
  question?: string;
  labDb: string;
  json?: boolean;
  notebook?: string;
  /** --add-to [FILE]: add the experiment to this notebook (alone: to --notebook's) instead of refusing one that exists. */
  addTo?: string | boolean;
  /** --force: replace an existing --notebook. */
  force?: boolean;
  stacks?: string;
  stacksDuration?: string;
  /** Runs of each thread count (of each arm, for a preset), or auto; absent: auto with --assert, else 1 or the preset's own. */
  repeat?: string;
  /** With --repeat auto: the most repetitions (default DEFAULT_MAX_REPEAT). */
  maxRepeat?: string;
  /** With a baseline: run its settings again beside this run's, as two interleaved arms (interleave.ts). */
  interleave?: boolean;
}

/** How often each cell runs: a fixed count, or (auto) until every gate is decided, `repeat` at most. */
export interface RepeatChoice {
  repeat: number;
  auto: boolean;
}

/**
 * --repeat as given (precheck.ts has checked it): auto, the default when there are gates (a gate is never decided on
 * one run); otherwise the count, or 1. For a preset without --repeat or gates, the preset's own (repeat null).
 */
export function repeatChoice(o: { repeat?: string; maxRepeat?: string }, gates: readonly Gate[]): RepeatChoice {
  const auto = o.repeat === undefined ? gates.length > 0 : o.repeat.trim().toLowerCase() === 'auto';
  if (auto) return { repeat: o.maxRepeat === undefined ? DEFAULT_MAX_REPEAT : parseRepeat(o.maxRepeat), auto: true };
  return { repeat: o.repeat === undefined ? 1 : parseRepeat(o.repeat), auto: false };
}

export async function runCommand(
  o: RunArgs,
  out: (s: string) => void,
  err: (s: string) => void,
  gates: Gate[] = [],
  baseline: Baseline | null = null,
): Promise<number> {
  if (!o.scenario) throw new UsageError('Say what to run: --scenario ID or --preset ID (spinlab scenarios lists both).');
  const target = targetFromArgs(o.connection);
  const scenario = getScenario(o.scenario);
  const parameters = resolveParams(scenario.parameters, { set: o.set });
  const load = loadSettingsFrom({
    mode: o.mode,
    threads: o.threads,
    duration: o.duration,
    rows: o.rows,
    warmup: o.warmup,
    interval: o.interval,
    clientWorkers: o.clientWorkers,
    clientPath: o.clientPath,
  });
  const outDir = o.out ?? path.join('spinlab-results', `${new Date().toISOString().replace(/[:.]/g, '-')}-${scenario.id}`);
  const knobs = {
    delayedDurability: o.delayedDurability?.toUpperCase() as 'DISABLED' | 'ALLOWED' | 'FORCED' | undefined,
    affinity: o.affinity,
  };
  if (o.interleave && baseline) {
    const arms = interleavedArms(
      baseline.experiment,
      { scenarioId: scenario.id, parameters, knobs, mode: load.mode, threads: load.threads },
      baseline.dir,
    );
    return runInterleaved({ o, target, arms, load, outDir, unit: scenario.unit, baseline }, out, err, gates);
  }
  const stacksPlan = runStacksPlan(o.stacks, o.stacksDuration);
  const { repeat, auto } = repeatChoice(o, gates);
  const time = planTime([load], load, repeat, o.deploy, auto);
  err(`This experiment: ${time.text}\n`);
  const stacks = stacksPlan ? new RunStacks(stacksPlan, target, time.runs - 1, err) : null;
  const bar = new Progress(process.stderr, time.runs, load.durationMs, repeat, auto);
  const began = Date.now();
  try {
    const r = await outcomeOf(
      withCancel(err, (signal) =>
        runExperiment(
          {
            target,
            scenarioId: scenario.id,
            parameters,
            labDatabase: o.labDb,
            load,
            knobs,
            outDir,
            title: o.title,
            question: o.question,
            deploy: o.deploy,
            repeat,
            ...(auto ? { sequential: sequentialGates(gates, baseline, repeat) } : {}),
          },
          signal,
          (p: ExperimentProgress) => {
            bar.update(p);
            stacks?.progress(p, signal);
          },
        ),
      ),
    );
    const { experiment } = r;
    bar.done();
    sayOverrun(err, time.seconds, began, experiment);
    const stacksOut = stacks ? await stacks.finish(experiment, r.unsaved ? null : r.file) : '';
    out(
      o.json
        ? JSON.stringify(experiment, null, 2) + '\n'
        : resultsReport(experiment, scenario.unit) + `${sessionWaitsSection(experiment.runs)}\n${stacksOut}\n${savedLine(r)}`,
    );
    return finish(r, o, () => applyGates(gates, experiment, exitOf(experiment.status), out, err, baseline), out);
  } finally {
    bar.done();
  }
}

export async function runPresetCommand(
  o: RunArgs,
  out: (s: string) => void,
  err: (s: string) => void,
  gates: Gate[] = [],
  baseline: Baseline | null = null,
): Promise<number> {
  if (o.scenario) throw new UsageError('Give --scenario or --preset, not both: a preset chooses its own scenarios.');
  if (o.stacks || o.stacksDuration)
    throw new UsageError(
      '--stacks goes with --scenario or a custom workload; for a preset, run spinlab stacks beside it (or use the panel).',
    );
  if (o.delayedDurability || o.affinity) {
    throw new UsageError(
      `--delayed-durability and --affinity are set by the preset's arms; change its settings with --set (spinlab scenarios lists those of ${o.preset}).`,
    );
  }
  const choice = repeatChoice(o, gates);
  const req = presetRequest({
    presetId: o.preset!,
    set: o.set,
    mode: o.mode,
    threads: o.threads,
    duration: o.duration,
    rows: o.rows,
    warmup: o.warmup,
    interval: o.interval,
    // auto: the most repetitions; otherwise as typed (absent: the preset's own).
    repeat: choice.auto ? String(choice.repeat) : o.repeat,
  });
  const target = targetFromArgs(o.connection);
  const outDir = o.out ?? path.join('spinlab-results', `${new Date().toISOString().replace(/[:.]/g, '-')}-${req.preset.id}`);
  let bar: Progress | null = null;
  let planned: number | null = null;
  const began = Date.now();
  try {
    const r = await outcomeOf(
      withCancel(err, (signal) =>
        runPreset(
          req,
          {
            target,
            labDatabase: o.labDb,
            outDir,
            title: o.title,
            deploy: o.deploy,
            ...(choice.auto ? { sequential: sequentialGates(gates, baseline, choice.repeat) } : {}),
          },
          signal,
          (p: ExperimentProgress) => (bar ? bar.update(p) : p.kind === 'status' && err(`${p.message}\n`)),
          (plan) => {
            const time = planTime(plan.arms, req.load, req.repeat, o.deploy, choice.auto);
            err(`This experiment: ${time.text}\n`);
            planned = time.seconds;
            bar = new Progress(process.stderr, time.runs, req.load.durationMs, req.repeat, choice.auto);
          },
        ),
      ),
    );
    const { experiment } = r;
    (bar as Progress | null)?.done();
    sayOverrun(err, planned, began, experiment);
    out(o.json ? JSON.stringify(experiment, null, 2) + '\n' : presetReport(experiment, req.preset) + `\n\n${savedLine(r)}`);
    return finish(r, o, () => applyGates(gates, experiment, exitOf(experiment.status), out, err, baseline), out);
  } finally {
    (bar as Progress | null)?.done();
  }
}

export async function rerunCommand(
  file: string,
  o: { connection?: string; labDb?: string; out?: string; yes?: boolean; dryRun?: boolean },
  out: (s: string) => void,
  err: (s: string) => void,
  ask: Ask | null = null,
): Promise<number> {
  const nb = readNotebookFile(file);
  const original = nb.record.experiments[0];
  // A record edited to name a system database as its lab: refused here, before connecting, unless --lab-db replaces it.
  const labProblem = original.custom || o.labDb ? null : labDatabaseProblem(original.labDatabase);
  if (labProblem)
    throw new UsageError(
      `The notebook's experiment names [${original.labDatabase}] as its lab database: ${labProblem}. Give --lab-db NAME to re-run it in one.`,
    );
  // The output folder is checked before the plan is shown, and claimed (one experiment per folder) only to run.
  const outProblems = o.out !== undefined && !o.dryRun ? outDirProblems(o.out) : [];
  if (outProblems.length) throw new UsageError(outProblems.join('\n'));
  const go = await confirmRerun(file, nb, o.dryRun ? connectionIfGiven(o.connection) : targetFromArgs(o.connection), o, out, err, ask);
  if (go !== 'run') return go;
  const target = targetFromArgs(o.connection);
  const output = claimOutput(o.out, `rerun-${original.scenario.id}`);
  let result: Outcome;
  try {
    result = await outcomeOf(
      withCancel(err, (signal) =>
        rerunExperiment(
          original,
          { target, outDir: output.dir, labDatabase: o.labDb, notebookDir: path.dirname(path.resolve(file)) },
          signal,
        ),
      ),
    );
  } finally {
    output.releaseIfUnused();
  }
  const { experiment } = result;
  const report = experiment.preset
    ? presetReport(experiment, getPreset(experiment.preset.id))
    : resultsReport(experiment, getScenario(experiment.scenario.id).unit) +
      (experiment.custom ? '' : sessionWaitsSection(experiment.runs)) +
      (isConfirmation(experiment) ? `\n\n${confirmVerdict(experiment).join('\n')}` : '');
  out(report + '\n\n');
  return finish(result, { notebook: file, addTo: true }, () => exitOf(experiment.status), out);
}

/**
 * After the report: the notebook (as the flags say), then the gates' exit code, or the error saying what was not saved (a full
 * disk) once everything else is printed.
 */
export function finish(r: Outcome, o: NotebookFlags, gates: () => number, out: (s: string) => void): number {
  const failed = saveRest(r, notebookChoice(o), out);
  const code = gates();
  if (failed) throw failed;
  return code;
}

/** Says, after the runs, when the experiment took materially longer than its plan (progress.ts). */
export function sayOverrun(err: (s: string) => void, plannedSeconds: number | null, began: number, e: Experiment): void {
  const line = experimentOverrun(plannedSeconds, began, e.runs);
  if (line) err(`${line}\n`);
}

/** Runs `task` with Ctrl+C (and SIGTERM) turned into a clean cancel: sessions stopped, knobs restored. */
export async function withCancel<T>(
  err: (s: string) => void,
  task: (signal: AbortSignal) => Promise<T>,
  what = 'stopping sessions and restoring settings',
): Promise<T> {
  const ac = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) {
      err(`\nCancelling: ${what} (Ctrl+C again to quit at once)...\n`);
      ac.abort();
    } else {
      // No clean-up on this path: say what that leaves, and the command that finishes it.
      err(
        '\nQuit at once: anything this command changed on the server (a knob, an event session) stays changed until `spinlab restore` puts it back; the samples taken so far are on disk.\n',
      );
      process.exit(EXIT.cancelled);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await task(ac.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** --baseline DIR --interleave: the baseline's settings (A) and this run's (B) as two arms taking turns. */
async function runInterleaved(
  x: {
    o: RunArgs;
    target: ReturnType<typeof targetFromArgs>;
    arms: PlanArm[];
    load: LoadSettings;
    outDir: string;
    unit: string;
    baseline: Baseline;
  },
  out: (s: string) => void,
  err: (s: string) => void,
  gates: Gate[],
): Promise<number> {
  const { o, arms, load, baseline } = x;
  // A fixed design: auto would look at the pair after each block, which these gates (against the arm run again) do not.
  if (o.repeat?.trim().toLowerCase() === 'auto' || o.maxRepeat !== undefined)
    throw new UsageError(
      '--interleave runs a fixed number of blocks: give --repeat N (default 3) instead of --repeat auto or --max-repeat.',
    );
  const repeat = o.repeat === undefined ? INTERLEAVE_REPEAT : parseRepeat(o.repeat);
  const time = planTime(arms, load, repeat, o.deploy);
  err(`This experiment: ${time.text}; the baseline's settings (A) and this run's (B) take turns\n`);
  const bar = new Progress(process.stderr, time.runs, load.durationMs, repeat);
  const began = Date.now();
  try {
    const { mode: _mode, threads: _threads, ...shared } = load;
    const r = await outcomeOf(
      withCancel(err, (signal) =>
        runPlan(
          {
            target: x.target,
            labDatabase: o.labDb,
            arms,
            load: shared,
            outDir: x.outDir,
            title: o.title ?? `${arms[1].scenarioId}: this run's settings against the baseline's, interleaved`,
            question: o.question,
            deploy: o.deploy,
            preset: null,
            repeat,
          },
          signal,
          (p) => bar.update(p),
        ),
      ),
    );
    const { experiment } = r;
    bar.done();
    sayOverrun(err, time.seconds, began, experiment);
    out(
      o.json
        ? JSON.stringify(experiment, null, 2) + '\n'
        : `${resultsReport(experiment, x.unit)}${interleavedSection(experiment, baseline.dir)}\n${savedLine(r)}`,
    );
    // Gates against the baseline judge this run's arm against the baseline's arm of the same experiment.
    const current = { ...experiment, runs: asMain(experiment.runs, CURRENT_ARM) };
    const again = { experiment: { ...experiment, runs: asMain(experiment.runs, BASELINE_ARM) }, dir: `${baseline.dir}, run again` };
    return finish(r, o, () => applyGates(gates, current, exitOf(experiment.status), out, err, again, false), out);
  } finally {
    bar.done();
  }
}
