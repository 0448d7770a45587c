// `spinlab tune`: find the best settings for a workload on this server within a time budget, and say why. Everything
// is checked before anything connects; progress goes to stderr (one line per trial, one per round), the explained
// result to stdout.
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import { parseDuration, resolveParams } from '../shared/params';
import {
  objectiveText,
  parseBudget,
  parseConstraint,
  parseObjective,
  type TuneConstraint,
  type TuneInfo,
  type TuneObjective,
  type TuneSpaceRequest,
} from '../shared/tune';
import { figureText } from '../shared/numberText';
import { notASpinlock } from '../shared/names';
import { getScenario } from '../engine/scenarios';
import { runTune, type TuneProgress } from '../engine/tune';
import { tuneReport } from '../engine/tuneReport';
import { CUSTOM_SCENARIO_ID } from '../engine/custom/manifest';
import { DEFAULT_LAB_DATABASE } from '../engine/lab';
import { objectiveOf } from '../engine/tune/objective';
import { checkTuneRequest } from '../engine/tune/run';
import { checkBatchSizes } from '../engine/tune/space';
import { labDbArg, targetFromArgs, UsageError } from './commands';
import { customWorkloadFrom, isCustom, resolveParamRows, type CustomArgs } from './custom';
import { finish, withCancel } from './run';
import { outcomeOf, savedLine } from './resultSaving';
import { claimOutput, outDirProblems } from './output';
import { notebookChoice, notebookProblems } from './notebookOut';
import { ADD_TO, FORCE } from './options';
import { EXIT, exitOf } from './exitCodes';
import { plural } from '../shared/plural';

interface TuneArgs extends CustomArgs {
  connection?: string;
  scenario?: string;
  preset?: string;
  budget: string;
  objective: string;
  constraint: string[];
  allow: string[];
  affinity: string[];
  batchSize?: string;
  sessions?: string;
  sharedServer?: boolean;
  apply?: boolean;
  trial: string;
  warmup: string;
  interval: string;
  mode: 'server-loop' | 'client-loop';
  set: string[];
  deploy: boolean;
  out?: string;
  title?: string;
  labDb: string;
  json?: boolean;
  notebook?: string;
  addTo?: string | boolean;
  force?: boolean;
}

const collect = (v: string, prev: string[]) => [...prev, v];

function intList(flag: string, text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((s) => s.trim());
  if (!parts.length || parts.some((p) => !/^\d+$/.test(p) || Number(p) < 1))
    throw new UsageError(`${flag} takes whole numbers from 1, separated by commas (e.g. 1,2,5,10); got '${text}'.`);
  return parts.map(Number);
}

function usage<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** Every flag checked before anything connects. */
function checked(o: TuneArgs) {
  const sources = [o.scenario, o.preset, isCustom(o) ? 'sql' : undefined].filter(Boolean);
  if (sources.length !== 1)
    throw new UsageError('Say what to tune: one of --scenario ID, --preset ID (its scenario), or --sql/--sql-file.');
  const budgetMs = usage(() => parseBudget(o.budget));
  const objective: TuneObjective = usage(() => parseObjective(o.objective));
  // A wait or latch typed as the spinlock is refused here; any other name is checked against the server's own list
  // once connected, before anything changes (engine/tune/names.ts).
  const other = objective.kind === 'spins-per-row' ? notASpinlock(objective.spinlock) : null;
  if (other)
    throw new UsageError(
      `--objective ${o.objective}: ${other.name} is a ${other.kind}, not a spinlock (${other.view} lists it); spins per row counts a spinlock's spins (sys.dm_os_spinlock_stats). ` +
        'Tune for throughput or p99 instead, or name a spinlock, e.g. spins-per-row:LOGCACHE_ACCESS.',
    );
  const constraints: TuneConstraint[] = o.constraint.map((c) => usage(() => parseConstraint(c)));
  const allow = o.allow.map((a) => a.toLowerCase());
  const unknown = allow.filter((a) => a !== 'forced');
  if (unknown.length) throw new UsageError(`--allow takes 'forced' (FORCED delayed durability); got ${unknown.join(', ')}.`);
  const request: TuneSpaceRequest = {
    ...(o.affinity.length ? { affinity: o.affinity } : {}),
    ...(o.batchSize ? { batchSizes: intList('--batch-size', o.batchSize) } : {}),
    ...(o.sessions ? { sessions: intList('--sessions', o.sessions) } : {}),
    ...(allow.length ? { allow: ['forced' as const] } : {}),
  };
  const typed = (c: TuneConstraint) => o.constraint[constraints.indexOf(c)].replace(/\s+/g, '');
  const p99 = constraints.find((c) => c.figure === 'p99Us');
  if (p99 && !isCustom(o) && o.mode !== 'client-loop')
    throw new UsageError(
      `--constraint ${typed(p99)}: a server-loop tune measures no per-call latency (each session runs its whole loop in one call), so no trial could meet it; add --mode client-loop, or leave the constraint out.`,
    );
  const limits = constraints.filter((c) => c.figure === 'sessions');
  const allowed = request.sessions?.filter((n) => limits.every((c) => (c.op === '<=' ? n <= c.value : n >= c.value)));
  if (allowed && !allowed.length)
    throw new UsageError(
      `${limits.map((c) => `--constraint ${typed(c)}`).join(' and ')} leaves none of --sessions ${request.sessions!.join(',')} to try: give session counts within the limit, or widen it.`,
    );
  const trialMs = usage(() => parseDuration(o.trial));
  const warmupMs = usage(() => parseDuration(o.warmup, { allowZero: true }));
  const intervalMs = usage(() => parseDuration(o.interval));
  if (trialMs < 2000) throw new UsageError(`--trial ${o.trial} is too short to measure: give 2s or more.`);
  // The output paths, before anything connects: the folder new or empty, the notebook new unless told.
  const nb = notebookChoice(o)?.file;
  const paths = [
    ...(o.out !== undefined ? outDirProblems(o.out) : []),
    ...notebookProblems(o, 'tune', true, nb !== undefined && o.out !== undefined && path.dirname(path.resolve(nb)) === path.resolve(o.out)),
  ];
  if (paths.length) throw new UsageError(paths.join('\n'));
  if (intervalMs < 250 || intervalMs > trialMs) throw new UsageError(`--interval must be from 250ms to the trial's length (${o.trial}).`);
  return { budgetMs, objective, constraints, request, trialMs, warmupMs, intervalMs };
}

/** One line per trial and per round on stderr. */
function tuneProgress(err: (s: string) => void, objective: TuneObjective, unit: string) {
  let rounds = 0;
  let trials = 0;
  const ot = objectiveText(objective, unit);
  return (p: TuneProgress) => {
    if (p.kind === 'event' && p.event.level !== 'info') err(`${p.event.level}: ${p.event.message}\n`);
    if (p.kind === 'run-end') {
      trials++;
      const v = objectiveOf(p.record, objective);
      err(
        `  trial ${trials}: ${p.record.arm.label} at ${plural(p.record.threads, 'session')}: ${v === null ? p.record.status : `${figureText(v)} ${ot.unit}`}\n`,
      );
    }
    if (p.kind === 'tune') {
      const t: TuneInfo = p.tune;
      const done = t.rounds.length - 1;
      if (done >= 1 && done > rounds) {
        rounds = done;
        const r = t.rounds[done - 1];
        const racing = r.standings.filter((s) => s.state === 'racing');
        const lead = racing[0];
        const label = (id: string) => t.configs.find((c) => c.id === id)?.label ?? id;
        err(
          `round ${r.round} (${r.stage}) done: ${racing.length} of ${t.configs.length} configurations still racing` +
            (lead ? `; leading: ${label(lead.config)} at ${plural(lead.threads, 'session')}` : '') +
            (r.noiseCv !== null ? `; trial-to-trial noise ${Math.round(r.noiseCv * 100)}%` : '') +
            '\n',
        );
      }
    }
  };
}

export async function tuneCommand(o: TuneArgs, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const c = checked(o);
  const target = targetFromArgs(o.connection);
  const custom = isCustom(o) ? customWorkloadFrom(o, target) : null;
  const scenario = o.scenario ? getScenario(o.scenario) : null;
  // Refused before anything connects or the plan is printed: the plan says what the tune will change on the server.
  checkTuneRequest({ objective: c.objective, constraints: c.constraints, mode: custom ? 'client-loop' : o.mode });
  if (c.request.batchSizes?.length && !o.preset) checkBatchSizes(scenario, c.request.batchSizes);
  const parameters = scenario ? usage(() => resolveParams(scenario.parameters, { set: o.set })) : {};
  const table = custom ? await resolveParamRows(target, custom.workload, o, custom.csv) : null;
  const output = claimOutput(o.out, 'tune');
  const outDir = output.dir;
  try {
    err(
      `This tune: up to ${Math.round(c.budgetMs / 60000)} min (the budget), trials of ${o.trial} after ${o.warmup} of warm-up. ` +
        `It changes CPU affinity (server-wide: every session on this server feels it)${c.request.allow ? ' and delayed durability' : ''} ` +
        'for each trial, journaled first and put back after the trial (spinlab restore after a crash).\n',
    );
    const r = await outcomeOf(
      withCancel(err, (signal) =>
        runTune(
          {
            target,
            labDatabase: custom ? custom.workload.database : o.labDb,
            scenarioId: custom ? CUSTOM_SCENARIO_ID : (scenario?.id ?? ''),
            fromPreset: o.preset ? { id: o.preset, set: o.set } : undefined,
            parameters,
            custom: custom ? { workload: custom.workload, table } : null,
            mode: custom ? 'client-loop' : o.mode,
            objective: c.objective,
            constraints: c.constraints,
            budgetMs: c.budgetMs,
            trialMs: c.trialMs,
            warmupMs: c.warmupMs,
            intervalMs: c.intervalMs,
            request: c.request,
            sharedServer: !!o.sharedServer,
            apply: !!o.apply,
            outDir,
            title: o.title,
            deploy: o.deploy,
          },
          signal,
          tuneProgress(err, c.objective, custom ? 'calls/s' : 'rows/s'),
        ),
      ),
    );
    const { experiment } = r;
    out(o.json ? JSON.stringify(experiment, null, 2) + '\n' : `${tuneReport(experiment).join('\n')}\n\n${savedLine(r)}`);
    // A search that ran and named nothing (every score tied at 0, say) did not do what was asked: the report says why.
    const code = () => (experiment.status === 'completed' && !experiment.tune?.result ? EXIT.failed : exitOf(experiment.status));
    return finish(r, o, code, out);
  } finally {
    output.releaseIfUnused();
  }
}

export function addTuneCommand(program: Command, out: (s: string) => void, err: (s: string) => void, setExit: (c: number) => void): void {
  program
    .command('tune')
    .description(
      'find the best settings (affinity, rows per transaction, sessions; FORCED delayed durability only with --allow forced) for a workload within a time budget, and explain why',
    )
    .addOption(
      new Option('-c, --connection <string>', 'ADO.NET connection string (or SPINLAB_CONNECTION; password may come from SPINLAB_PASSWORD)'),
    )
    .option('--scenario <id>', 'scenario id (spinlab scenarios)')
    .option('--preset <id>', "tune the scenario a preset runs, with the preset's settings (--set)")
    .option('--budget <time>', 'wall time for the whole search, e.g. 20m, 1h (at least 1m)', '10m')
    .option(
      '--objective <what>',
      'throughput (rows or calls per second), p99 (latency; client loop), or spins-per-row:SPINLOCK',
      'throughput',
    )
    .option('--constraint <limit>', 'a limit the winner must meet: p99<=2ms, sessions<=16, throughput>=50000 (repeatable)', collect, [])
    .option(
      '--allow <what>',
      "'forced': also try FORCED delayed durability, which trades durability for speed (never tried otherwise)",
      collect,
      [],
    )
    .option(
      '--affinity <spec>',
      'an affinity to try instead of those built from the topology (repeatable): auto, cpu:2-11, numa:0, exclude-core0',
      collect,
      [],
    )
    .option('--batch-size <list>', 'rows per transaction to try, e.g. 1,2 (default: the current value and 1,2,5,10)')
    .option('--sessions <list>', 'session counts to try, e.g. 8,16,24 (default: a ladder up to the CPUs each affinity leaves)')
    .option('--shared-server', 'run although other sessions are working on the server: warns, and widens the intervals')
    .option(
      '--apply',
      'leave the winning affinity and delayed durability applied at the end (default: put everything back, print the T-SQL)',
    )
    .option('--trial <time>', 'measured time of each trial', '4s')
    .option('--warmup <time>', 'unmeasured warm-up before each trial', '1s')
    .option('--interval <time>', 'sampling interval', '1s')
    .addOption(new Option('--mode <mode>', 'how the load runs').choices(['server-loop', 'client-loop']).default('server-loop'))
    .option('--set <k=v>', 'scenario parameter, or preset setting (repeatable)', collect, [])
    .option('--no-deploy', 'use the scenario as already deployed')
    .option('--out <dir>', 'output folder (experiment.json, samples.jsonl): new or empty')
    .option('--title <text>', 'a title for the tune')
    .addOption(
      new Option('--lab-db <name>', 'the lab database Spinlock Lab creates and owns (never a system database)')
        .default(DEFAULT_LAB_DATABASE)
        .argParser(labDbArg),
    )
    .option('--json', 'print the tune record instead of the report')
    .option('--notebook <file>', 'also save the tune as a Jupyter notebook (.ipynb): a new file (see --add-to, --force)')
    .option(...ADD_TO)
    .option(...FORCE)
    .option('--sql <batch>', 'custom workload: T-SQL to run (repeatable)', collect, [])
    .option('--sql-file <file>', 'custom workload: a .sql file (repeatable)', collect, [])
    .option('--database <name>', "custom workload: the database it runs in (default: the connection's, else master)")
    .action(async (o: TuneArgs) => setExit(await tuneCommand(o, out, err)));
}
