// `spinlab run --sql ... / --sql-file ...`: a custom workload from the command line. Reads the statements and the
// parameter rows, checks every variable is bound before anything connects, and runs it as an experiment like any
// other (warm-up, knobs, sampling, notebook), in the database the user names.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DbTarget } from '../db/target';
import type { CustomWorkload, LoadSettings } from '../shared/experiment';
import { parseDuration } from '../shared/params';
import { splitBatches, unboundVariables, writeReason } from '../engine/custom/batch';
import {
  checkBinding,
  embeddedCsv,
  paramsFromCsv,
  paramsFromQuery,
  type ParamTable,
  type PickOrder,
  type PickScope,
} from '../engine/custom/params';
import { targetFromArgs, UsageError } from './commands';
import { loadSettingsFrom } from '../engine/runSettings';
import { runExperiment, type ExperimentProgress } from '../engine/experiment';
import { resultsReport } from '../engine/report';
import { CUSTOM_SCENARIO_ID } from '../engine/custom/manifest';
import type { Gate } from '../shared/gates';
import { applyGates, sequentialGates, type Baseline } from './gates';
import { Progress } from './progress';
import { RunStacks, runStacksPlan } from './runStacks';
import { finish, repeatChoice, sayOverrun, withCancel, type RunArgs } from './run';
import { outcomeOf, savedLine } from './resultSaving';
import { planTime } from '../shared/planTime';
import { exitOf } from './exitCodes';
import { counts } from '../shared/plural';

export interface CustomArgs {
  sql: string[];
  sqlFile: string[];
  database?: string;
  iterations?: string;
  /** 'all': an iteration runs every statement in order (as ostress runs its file); 'one' (default): one call. */
  perIteration?: string;
  thinkTime?: string;
  paramsCsv?: string;
  paramsQuery?: string;
  paramsOrder?: string;
  paramsScope?: string;
  queryTimeout?: string;
  stopOnError?: boolean;
}

export function isCustom(o: { sql?: string[]; sqlFile?: string[] }): boolean {
  return (o.sql?.length ?? 0) + (o.sqlFile?.length ?? 0) > 0;
}

function positiveInt(flag: string, text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new UsageError(`${flag} ${text}: write a whole number of 1 or more.`);
  return Number(text);
}

/** The statements, in the order given: each --sql, then each --sql-file's GO-separated batches. */
export function readStatements(o: CustomArgs): { source: string; text: string }[] {
  const out: { source: string; text: string }[] = [];
  o.sql.forEach((text, i) => {
    for (const b of splitBatches(text)) out.push({ source: `--sql ${i + 1}`, text: b });
  });
  for (const file of o.sqlFile) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`--sql-file ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
    }
    const batches = splitBatches(text);
    if (!batches.length) throw new UsageError(`--sql-file ${file}: holds no statement.`);
    for (const b of batches) out.push({ source: path.basename(file), text: b });
  }
  if (!out.length) throw new UsageError('--sql is empty: give the T-SQL to run, e.g. --sql "SELECT 1".');
  return out;
}

/** Everything about the workload but the rows of a parameter query (read once connected). */
export function customWorkloadFrom(o: CustomArgs, target: DbTarget): { workload: CustomWorkload; csv: ParamTable | null } {
  const statements = readStatements(o);
  if (o.paramsCsv && o.paramsQuery) throw new UsageError('Give --params-csv or --params-query, not both.');
  const order = (o.paramsOrder ?? 'round-robin') as PickOrder;
  const scope = (o.paramsScope ?? 'session') as PickScope;
  const csv = o.paramsCsv ? paramsFromCsv(o.paramsCsv) : null;
  const variables = [...new Set(statements.flatMap((s) => unboundVariables(s.text)))];
  if (!o.paramsQuery) checkBinding(variables, csv);
  const database = o.database ?? target.database ?? 'master';
  const workload: CustomWorkload = {
    statements,
    database,
    params: csv
      ? {
          kind: 'csv',
          from: path.resolve(o.paramsCsv!),
          ...embeddedCsv(path.resolve(o.paramsCsv!)),
          columns: csv.columns,
          rows: csv.rows.length,
          order,
          scope,
        }
      : o.paramsQuery
        ? { kind: 'query', from: o.paramsQuery, columns: [], rows: 0, order, scope }
        : null,
    iterations: o.iterations ? positiveInt('--iterations', o.iterations) : null,
    ...(o.perIteration === 'all' ? { perIteration: 'all' as const } : {}),
    thinkTimeMs: o.thinkTime ? parseDuration(o.thinkTime, { allowZero: true }) : 0,
    queryTimeoutMs: o.queryTimeout ? parseDuration(o.queryTimeout) : null,
    stopOnError: !!o.stopOnError,
    writes: writeReason(statements.map((s) => s.text)),
  };
  return { workload, csv };
}

/** Fills in a parameter query's rows and checks the binding against its columns. */
export async function resolveParamRows(
  target: DbTarget,
  w: CustomWorkload,
  o: CustomArgs,
  csv: ParamTable | null,
): Promise<ParamTable | null> {
  if (!o.paramsQuery) return csv;
  const table = await paramsFromQuery(target, w.database, o.paramsQuery);
  checkBinding([...new Set(w.statements.flatMap((s) => unboundVariables(s.text)))], table);
  w.params = { ...w.params!, columns: table.columns, rows: table.rows.length };
  return table;
}

/** A custom run's load: per-call latency always (client loop); iterations replace the duration when given. */
export function customLoad(load: LoadSettings, w: CustomWorkload, rowsGiven: boolean): LoadSettings {
  if (rowsGiven)
    throw new UsageError('--rows counts rows of the built-in scenarios; a custom workload runs --iterations per session or a --duration.');
  return { ...load, mode: 'client-loop', durationMs: w.iterations !== null ? null : load.durationMs, rows: null };
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : /(s|sh|ch|x)$/.test(word) ? 'es' : 's'}`;

/**
 * What each session sends in a run that ends on --iterations, said before it runs: "Each session runs the 3 batches in
 * order, 10 times: 2 sessions x 10 iterations x 3 batches = 60 batches per run".
 */
export function iterationsPlan(w: CustomWorkload, threads: readonly number[]): string {
  const k = w.statements.length;
  const r = w.iterations ?? 0;
  const each = (n: number) =>
    w.perIteration === 'all'
      ? `${count(n, 'session')} x ${count(r, 'iteration')} x ${count(k, 'batch')} = ${count(n * r * k, 'batch')}`
      : `${count(n, 'session')} x ${count(r, 'call')} = ${count(n * r, 'call')}`;
  const head =
    w.perIteration === 'all'
      ? `Each session runs the ${k === 1 ? 'batch' : `${k} batches in order`}, ${r} time${r === 1 ? '' : 's'}`
      : k === 1
        ? `Each session runs the batch ${r} time${r === 1 ? '' : 's'}`
        : `Each session makes ${count(r, 'call')}, taking the ${k} batches in turn (one batch per iteration; --per-iteration all runs them all each iteration, as ostress does)`;
  return `${head}: ${threads.map(each).join('; ')} per run.`;
}

export async function runCustomCommand(
  o: RunArgs & CustomArgs,
  out: (s: string) => void,
  err: (s: string) => void,
  gates: Gate[] = [],
  baseline: Baseline | null = null,
): Promise<number> {
  if (o.scenario) throw new UsageError('Give --scenario or --sql/--sql-file, not both.');
  if (o.iterations && o.duration)
    throw new UsageError(
      'Give --iterations or --duration, not both: a custom run ends after a number of calls per session or after a time.',
    );
  if (!o.deploy) throw new UsageError('--no-deploy has no meaning for a custom workload: nothing is ever deployed in your database.');
  const target = targetFromArgs(o.connection);
  const { workload, csv } = customWorkloadFrom(o, target);
  const load = customLoad(
    loadSettingsFrom({
      mode: 'client-loop',
      threads: o.threads,
      duration: o.duration,
      warmup: o.warmup,
      interval: o.interval,
      clientWorkers: o.clientWorkers,
    }),
    workload,
    !!o.rows,
  );
  const table = await resolveParamRows(target, workload, o, csv);
  err(
    workload.writes
      ? `Note: this workload WRITES to [${workload.database}] (${workload.writes}).\n`
      : `The workload only reads in [${workload.database}].\n`,
  );
  const outDir = o.out ?? path.join('spinlab-results', `${new Date().toISOString().replace(/[:.]/g, '-')}-custom`);
  const stacksPlan = runStacksPlan(o.stacks, o.stacksDuration);
  const { repeat, auto } = repeatChoice(o, gates);
  const time = planTime([load], load, repeat, false, auto);
  err(`This experiment: ${time.text}\n`);
  if (workload.iterations !== null) err(`${iterationsPlan(workload, load.threads)}\n`);
  const stacks = stacksPlan ? new RunStacks(stacksPlan, target, time.runs - 1, err) : null;
  const bar = new Progress(process.stderr, time.runs, load.durationMs, repeat, auto);
  const began = Date.now();
  try {
    const r = await outcomeOf(
      withCancel(err, (signal) =>
        runExperiment(
          {
            target,
            scenarioId: CUSTOM_SCENARIO_ID,
            parameters: {},
            labDatabase: workload.database,
            load,
            knobs: {
              delayedDurability: o.delayedDurability?.toUpperCase() as 'DISABLED' | 'ALLOWED' | 'FORCED' | undefined,
              affinity: o.affinity,
            },
            outDir,
            title: o.title ?? `Custom workload in [${workload.database}]: ${counts(load.threads, 'thread')}`,
            question: o.question,
            deploy: false,
            custom: { workload, table },
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
    out(o.json ? JSON.stringify(experiment, null, 2) + '\n' : `${resultsReport(experiment, 'calls')}\n${stacksOut}\n${savedLine(r)}`);
    return finish(r, o, () => applyGates(gates, experiment, exitOf(experiment.status), out, err, baseline), out);
  } finally {
    bar.done();
  }
}
