// Everything about a command that can be checked before it connects: options that do not apply to what runs, empty
// values, gates the run cannot judge, spinlock names, and the output paths. Each problem names the option and what to
// write instead; all are reported at once, as a usage error (exit 2), and nothing is created or left behind.
import * as path from 'node:path';
import type { Gate } from '../shared/gates';
import { canonicalGates, gateProblems, type GateContext } from '../shared/gateCheck';
import { nameProblem } from '../shared/names';
import { parseDuration } from '../shared/params';
import { parseGates, type Baseline } from './gates';
import { readExperimentFile } from '../engine/notebook/export';
import { repeatProblems } from './repeatCheck';
import { labDbProblem, UsageError } from './commands';
import { interleaveProblem } from './interleave';
import { baselineThreadProblems } from './baselineCells';
import { claimOutput, outDirProblems, type ClaimedOutput } from './output';
import { notebookChoice, notebookProblems, type NotebookFlags } from './notebookOut';

export type RunKind = GateContext['kind'];

/** The options of `spinlab run` (RunArgs and CustomArgs; spelled out here so the check imports no command). */
export interface RunPrecheckArgs extends NotebookFlags {
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
  affinity?: string;
  deploy?: boolean;
  out?: string;
  title?: string;
  labDb: string;
  notebook?: string;
  stacks?: string;
  stacksDuration?: string;
  sql?: string[];
  sqlFile?: string[];
  database?: string;
  iterations?: string;
  perIteration?: string;
  thinkTime?: string;
  paramsCsv?: string;
  paramsQuery?: string;
  paramsOrder?: string;
  paramsScope?: string;
  queryTimeout?: string;
  stopOnError?: boolean;
  assert?: string[];
  baseline?: string;
  interleave?: boolean;
  anyName?: boolean;
  repeat?: string;
  maxRepeat?: string;
}

/** Which options the user typed (not defaults): commander's value source, for the options that have a default. */
export interface Typed {
  mode: boolean;
  labDb: boolean;
}

const CUSTOM_ONLY: [keyof RunPrecheckArgs, string][] = [
  ['database', '--database'],
  ['iterations', '--iterations'],
  ['perIteration', '--per-iteration'],
  ['thinkTime', '--think-time'],
  ['paramsCsv', '--params-csv'],
  ['paramsQuery', '--params-query'],
  ['paramsOrder', '--params-order'],
  ['paramsScope', '--params-scope'],
  ['queryTimeout', '--query-timeout'],
  ['stopOnError', '--stop-on-error'],
];

const VALUED: [keyof RunPrecheckArgs, string][] = [
  ['scenario', '--scenario'],
  ['preset', '--preset'],
  ['threads', '--threads'],
  ['duration', '--duration'],
  ['rows', '--rows'],
  ['warmup', '--warmup'],
  ['interval', '--interval'],
  ['clientWorkers', '--client-workers'],
  ['clientPath', '--client-path'],
  ['affinity', '--affinity'],
  ['title', '--title'],
  ['stacks', '--stacks'],
  ['stacksDuration', '--stacks-duration'],
  ['labDb', '--lab-db'],
  ['database', '--database'],
  ['iterations', '--iterations'],
  ['thinkTime', '--think-time'],
  ['paramsCsv', '--params-csv'],
  ['paramsQuery', '--params-query'],
  ['queryTimeout', '--query-timeout'],
  ['repeat', '--repeat'],
  ['maxRepeat', '--max-repeat'],
  ['baseline', '--baseline'],
];

export function runKind(o: { preset?: string; sql?: string[]; sqlFile?: string[] }): RunKind {
  return o.preset !== undefined ? 'preset' : (o.sql?.length ?? 0) + (o.sqlFile?.length ?? 0) > 0 ? 'custom' : 'scenario';
}

/** An option given as "" (or blanks) would quietly fall back to its default: refused instead. */
export function emptyValueProblems(o: Record<string, unknown>, options: [string, string][]): string[] {
  return options
    .filter(([k]) => typeof o[k] === 'string' && (o[k] as string).trim() === '')
    .map(
      ([, flag]) =>
        `${flag} was given empty: write a value (spinlab run --help shows each one's form), or leave ${flag} out for its default.`,
    );
}

/** The options of `spinlab run` that do not apply to what it runs. */
export function inapplicableProblems(o: RunPrecheckArgs, kind: RunKind, typed: Typed): string[] {
  const problems: string[] = [];
  if (kind !== 'custom') {
    for (const [k, flag] of CUSTOM_ONLY) {
      if (o[k] !== undefined && o[k] !== false)
        problems.push(
          `${flag} goes with a custom workload (--sql or --sql-file); a ${kind} ${k === 'iterations' ? 'runs for --duration or --rows' : 'does not take it'}: leave it out.`,
        );
    }
    if (o.clientPath !== undefined && o.mode === 'server-loop') {
      problems.push(
        '--client-path chooses how the client loop sends its calls; in server-loop each session sends one EXEC through the driver: add --mode client-loop, or leave --client-path out.',
      );
    }
    if (o.clientWorkers !== undefined && o.mode === 'server-loop') {
      problems.push(
        '--client-workers sets the client threads of --mode client-loop; in server-loop each session runs its loop on the server and no client thread runs: add --mode client-loop, or leave --client-workers out.',
      );
    }
  } else {
    if (o.set.length)
      problems.push(
        `--set sets a scenario's parameter or a preset's setting; a custom workload has none (its values come from --params-csv or --params-query): leave --set out.`,
      );
    if (typed.mode && o.mode === 'server-loop')
      problems.push(
        '--mode server-loop: a custom workload always runs one call per statement from the client (client-loop): leave --mode out.',
      );
    if (typed.labDb)
      problems.push(
        '--lab-db names the lab database of the built-in scenarios; a custom workload runs in --database: use --database instead.',
      );
  }
  return problems;
}

/** --stacks: a known spinlock, and a capture that fits in the run's measured time (it ends 1 s before the run). */
export function stacksProblems(o: RunPrecheckArgs): string[] {
  if (o.stacks === undefined || o.stacks.trim() === '') return [];
  const problems: string[] = [];
  const p = nameProblem('spinlock', o.stacks, `--stacks ${o.stacks}`, !!o.anyName);
  if (p) problems.push(p);
  const ms = (t: string | undefined) => {
    try {
      return t === undefined ? null : parseDuration(t);
    } catch {
      return null; // its own check reports it
    }
  };
  const run = ms(o.duration);
  const capture = ms(o.stacksDuration);
  if (run !== null && run < 2000)
    problems.push(
      `--stacks needs runs of 2 s or more (a capture lasts at least 1 s and ends 1 s before the run); --duration is ${o.duration}.`,
    );
  else if (run !== null && capture !== null && capture > run - 1000) {
    problems.push(
      `--stacks-duration ${o.stacksDuration} does not fit in --duration ${o.duration}: the capture ends 1 s before the run; write ${Math.floor((run - 1000) / 1000)}s or less.`,
    );
  }
  return problems;
}

function fail(problems: string[]): void {
  if (problems.length) throw new UsageError(problems.join('\n'));
}

export interface RunPrecheck {
  gates: Gate[];
  output: ClaimedOutput;
  /** --baseline: the saved experiment, read and checked. */
  baseline: Baseline | null;
}

/** --baseline DIR: a saved experiment (its folder or experiment.json) with a completed run to compare with. */
export function readBaseline(dir: string | undefined, gates: readonly Gate[], problems: string[]): Baseline | null {
  if (dir !== undefined && dir.trim() === '') return null; // reported as an empty value
  if (dir === undefined) {
    for (const g of gates)
      if (g.against === 'baseline')
        problems.push(`--assert "${g.text}" compares with a baseline: give --baseline DIR (a saved experiment), or write a number.`);
    return null;
  }
  let experiment;
  try {
    experiment = readExperimentFile(dir);
  } catch (e) {
    problems.push(`--baseline ${dir}: ${(e as Error).message}`);
    return null;
  }
  const completed = experiment.runs.filter((r) => r.status === 'completed');
  if (!completed.length) {
    problems.push(`--baseline ${dir}: the experiment has no completed run to compare with; give one that completed.`);
    return null;
  }
  // A latency gate against a baseline that measured none would fail on every cell after the whole run.
  if (!completed.some((r) => r.latency && r.latency.count > 0))
    for (const g of gates)
      if (g.against === 'baseline' && g.metric.kind === 'latency')
        problems.push(
          `--assert "${g.text}": the baseline ${dir} has no per-call latency (it ran in server-loop); compare rows_per_sec with it, or give a baseline run in client-loop.`,
        );
  return { experiment, dir };
}

/**
 * Checks a `spinlab run` before it connects and claims its output folder. Throws UsageError listing every problem;
 * on success the caller runs into `output.dir` and calls `output.releaseIfUnused()` when it ends, whatever happened.
 */
export function precheckRun(o: RunPrecheckArgs, typed: Typed): RunPrecheck {
  const kind = runKind(o);
  const problems = [
    ...(kind === 'scenario' && o.scenario === undefined
      ? ['Say what to run: --scenario ID, --preset ID (spinlab scenarios lists both) or --sql "..." for your own T-SQL.']
      : []),
    ...emptyValueProblems(o as unknown as Record<string, unknown>, VALUED as [string, string][]),
    ...inapplicableProblems(o, kind, typed),
    ...(kind !== 'custom' && o.labDb.trim() !== '' ? [labDbProblem(o.labDb)].filter((p): p is string => p !== null) : []),
    ...stacksProblems(o),
    ...repeatProblems(o.repeat, o.maxRepeat, o.assert?.length ?? 0),
  ];
  let gates: Gate[] = [];
  try {
    gates = parseGates(o.assert);
    problems.push(...gateProblems(gates, { kind, mode: kind === 'custom' ? 'client-loop' : o.mode, anyName: !!o.anyName }));
  } catch (e) {
    problems.push((e as Error).message);
  }
  const baseline = readBaseline(o.baseline, gates, problems);
  problems.push(...interleaveProblems(o, baseline), ...baselineThreadProblems(o, gates, baseline));
  if (o.out !== undefined) problems.push(...outDirProblems(o.out));
  // A notebook inside --out: that folder is made by the claim, so only the file's name is checked here.
  const nb = notebookChoice(o)?.file;
  problems.push(...notebookProblems(o, 'experiment', true, nb !== undefined && o.out !== undefined && inside(nb, o.out)));
  fail(problems);
  const label = kind === 'preset' ? o.preset! : kind === 'custom' ? 'custom' : (o.scenario ?? 'run');
  return { gates: canonicalGates(gates), output: claimOutput(o.out, label), baseline };
}

/** --interleave: needs a baseline it can run again, and repetitions to pair. */
function interleaveProblems(o: RunPrecheckArgs, baseline: Baseline | null): string[] {
  if (!o.interleave) return [];
  if (!o.baseline) return ['--interleave runs a saved baseline again beside this run: give --baseline DIR too.'];
  if (o.repeat !== undefined && o.repeat.trim() === '1')
    return ['--interleave pairs the two arms block by block: give --repeat 2 or more (default 3).'];
  const p = baseline ? interleaveProblem(baseline.experiment, o.scenario) : null;
  return p ? [p] : [];
}

function inside(file: string, dir: string): boolean {
  return path.dirname(path.resolve(file)) === path.resolve(dir);
}

export interface WatchPrecheckArgs extends NotebookFlags {
  compare?: string;
  mark?: string;
  window?: string;
  json?: boolean;
  out?: string;
  notebook?: string;
  duration?: string;
  interval?: string;
  title?: string;
}

/** Checks `spinlab watch` before it connects; claims the output folder of a watch (null for --compare, which reads). */
export function precheckWatch(o: WatchPrecheckArgs): ClaimedOutput | null {
  const problems = emptyValueProblems(o as Record<string, unknown>, [
    ['duration', '--duration'],
    ['interval', '--interval'],
    ['title', '--title'],
    ['compare', '--compare'],
    ['mark', '--mark'],
    ['window', '--window'],
  ]);
  if (o.compare !== undefined) {
    for (const [k, flag] of [
      ['out', '--out'],
      ['notebook', '--notebook'],
      ['force', '--force'],
      ['duration', '--duration'],
    ] as const) {
      if (o[k] !== undefined)
        problems.push(`${flag} goes with watching; --compare reads a saved watch and writes nothing: leave ${flag} out.`);
    }
    fail(problems);
    return null;
  }
  for (const [k, flag] of [
    ['mark', '--mark'],
    ['window', '--window'],
    ['json', '--json'],
  ] as const) {
    if (o[k] !== undefined)
      problems.push(`${flag} goes with --compare DIR (comparing a saved watch around a mark); a live watch does not take it.`);
  }
  if (o.out !== undefined) problems.push(...outDirProblems(o.out));
  const nb = o.notebook;
  problems.push(...notebookProblems(o, 'watch', false, nb !== undefined && o.out !== undefined && inside(nb, o.out)));
  fail(problems);
  return claimOutput(o.out, 'watch');
}
