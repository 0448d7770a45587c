// The spinlab command: a thin host over the engine. Exit codes: 0 done, 1 failed, 2 bad usage, 130 cancelled.
import { Command, CommanderError, Option } from 'commander';
import * as path from 'node:path';
import { ParamError, resolveParams } from '../shared/params';
import { loadSettingsFrom } from '../engine/runSettings';
import { listScenarios, getScenario } from '../engine/scenarios';
import { DEFAULT_LAB_DATABASE } from '../engine/lab';
import { runExperiment, type ExperimentProgress } from '../engine/experiment';
import { resultsReport } from '../engine/report';
import { describePreset, listPresets } from '../engine/presets';
import { presetRequest, runPreset } from '../engine/presetRun';
import { presetReport } from '../engine/presetReport';
import { getPreset } from '../engine/presets';
import { targetFromArgs, UsageError, deployCommand, cleanupCommand, restoreCommand, topologyCommand } from './commands';
import { Progress } from './progress';
import { exportExperiment, readExperimentFile, writeNotebookFile } from '../engine/notebook/export';
import { readNotebookFile } from '../engine/notebook/read';
import { appendToNotebook, rerunExperiment } from '../engine/notebook/rerun';
import { applyGates, parseGates } from './gates';
import { customLoad, customWorkloadFrom, isCustom, resolveParamRows, type CustomArgs } from './custom';
import { customReport, sessionWaitsSection } from '../engine/custom/report';
import { CUSTOM_SCENARIO_ID } from '../engine/custom/manifest';

const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

function collect(v: string, prev: string[]): string[] {
  return [...prev, v];
}

export function buildProgram(out: (s: string) => void, err: (s: string) => void, setExit: (code: number) => void): Command {
  const program = new Command('spinlab')
    .description('Spinlock Lab: deploy SQL Server contention scenarios, run concurrent load, and measure spinlock, wait and latch deltas.')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: err });
  const conn = () => new Option('-c, --connection <string>', 'ADO.NET connection string (or SPINLAB_CONNECTION; password may come from SPINLAB_PASSWORD)');
  const labDb = () => new Option('--lab-db <name>', 'the lab database Spinlock Lab creates and owns').default(DEFAULT_LAB_DATABASE);

  program.command('scenarios').description('list the scenarios and their parameters, and the presets that reproduce each seed post')
    .option('--json', 'machine-readable output: { scenarios, presets }')
    .action((o: { json?: boolean }) => {
      const list = listScenarios();
      const presets = listPresets();
      if (o.json) return out(JSON.stringify({ scenarios: list, presets: presets.map(describePreset) }, null, 2) + '\n');
      out('Scenarios (spinlab run --scenario ID)\n\n');
      for (const s of list) {
        out(`${s.id}  ${s.name}  (seed ${s.seed})\n  ${s.description}\n`);
        for (const p of s.parameters) out(`    --set ${p.name}=${p.default}  ${p.label}${p.values ? ` [${p.values.join('|')}]` : p.min !== undefined ? ` [${p.min}..${p.max}]` : ''}${p.unit ? ` ${p.unit}` : ''}\n`);
      }
      out('\nPresets: one per seed post (spinlab run --preset ID)\n\n');
      for (const p of presets) {
        out(`${p.id}  ${p.name}  (seed ${p.seed})\n  ${p.question}\n`);
        if (p.needs.length) out(`  needs ${p.needs.join(' and ')} for every comparison; without, it runs what it can and says so\n`);
        const load = [p.load.rows ? `--rows ${p.load.rows}` : `--duration ${p.load.duration}`, `--warmup ${p.load.warmup}`, `--interval ${p.load.interval}`].join(' ');
        out(`    --threads: ${p.threads}\n    ${load}\n`);
        for (const s of p.options) out(`    --set ${s.name}=${s.default}  ${s.label}${s.values ? ` [${s.values.join('|')}]` : s.min !== undefined ? ` [${s.min}..${s.max}]` : ''}${s.unit ? ` ${s.unit}` : ''}\n`);
      }
    });

  program.command('topology').description("show the server's shape: sockets, NUMA nodes, schedulers, log writer, memory model, trace flags")
    .addOption(conn()).option('--json', 'machine-readable output')
    .action(async (o) => { out(await topologyCommand(targetFromArgs(o.connection), !!o.json)); });

  for (const [name, fn] of [['deploy', deployCommand], ['cleanup', cleanupCommand]] as const) {
    program.command(name).description(name === 'deploy' ? 'create the lab database if needed and deploy a scenario into it' : "remove a scenario's objects from the lab database")
      .addOption(conn()).requiredOption('--scenario <id>', 'scenario id (spinlab scenarios)')
      .option('--set <k=v>', 'scenario parameter (repeatable)', collect, []).addOption(labDb())
      .action(async (o) => { out(await fn(targetFromArgs(o.connection), o.scenario, o.set, o.labDb)); });
  }

  program.command('restore').description('put back the settings an interrupted experiment changed (from its restore journal)')
    .addOption(conn()).action(async (o) => { out(await restoreCommand(targetFromArgs(o.connection))); });

  program.command('run').description('run a scenario at one or more thread counts, or a preset that reproduces a seed post, and print the results')
    .addOption(conn()).option('--scenario <id>', 'scenario id (spinlab scenarios)')
    .option('--preset <id>', 'a preset: numa-logwriter, isolate-core0, xdesmgr-batch, writelog, ring-buffer (spinlab scenarios lists their settings)')
    .option('--threads <list>', 'thread counts, run in order (e.g. 1,2,4,8; default 1,2,4, or the preset\'s, which follow the server)')
    .option('--duration <time>', 'measured time per run (e.g. 30s, 2m; default 30s, or the preset\'s)')
    .option('--rows <n>', 'or: rows per run, over all sessions (e.g. 1M)')
    .option('--warmup <time>', 'unmeasured warm-up before each run (default 5s)')
    .option('--interval <time>', 'sampling interval, 250ms or more (default 1s)')
    .addOption(new Option('--mode <mode>', 'server-loop: one EXEC per session; client-loop: one call per transaction, with latency').choices(['server-loop', 'client-loop']).default('server-loop'))
    .option('--set <k=v>', 'scenario parameter, or preset setting (repeatable)', collect, [])
    .addOption(new Option('--delayed-durability <mode>', 'set on the lab database for the experiment').choices(['disabled', 'allowed', 'forced']))
    .option('--affinity <spec>', 'process affinity for the experiment: auto, cpu:2-11, numa:0, numa:1-first-core, exclude-core0')
    .option('--no-deploy', 'use the scenario as already deployed')
    .option('--out <dir>', 'output folder (experiment.json, samples.jsonl)')
    .option('--title <text>', 'a title for the experiment').option('--question <text>', 'the question it asks')
    .addOption(labDb()).option('--json', 'print the experiment record instead of the table')
    .option('--notebook <file>', 'also save the experiment as a Jupyter notebook (.ipynb)')
    .option('--sql <batch>', 'custom workload: T-SQL to run (repeatable: calls take each in turn)', collect, [])
    .option('--sql-file <file>', 'custom workload: a .sql file (GO splits batches; repeatable)', collect, [])
    .option('--database <name>', 'custom workload: the database it runs in (default: the connection\'s, else master)')
    .option('--iterations <n>', 'custom workload: calls per session in each run (instead of --duration)')
    .option('--think-time <time>', 'custom workload: pause after each call (e.g. 10ms)')
    .option('--params-csv <file>', 'custom workload: parameter rows, a header of variable names then one row per call')
    .option('--params-query <sql>', 'custom workload: a query whose rows are the parameter values (run once, in --database)')
    .addOption(new Option('--params-order <order>', 'which row each call takes').choices(['round-robin', 'random']))
    .addOption(new Option('--params-scope <scope>', 'a row cursor per session, or one shared by all').choices(['session', 'shared']))
    .option('--query-timeout <time>', 'custom workload: cancel a call that runs longer (counted as a timeout)')
    .option('--stop-on-error', 'custom workload: end the run at the first failing call')
    .option('--assert <gate>', 'a CI gate every run must pass, e.g. "p99<5ms", "rows_per_sec>20000", "LOGCACHE_ACCESS.spins_per_row<50" (exit 1 when one fails)', collect, [])
    .action(async (o) => {
      const gates = parseGates(o.assert);
      setExit(o.preset ? await runPresetCommand(o, out, err, gates) : isCustom(o) ? await runCustomCommand(o, out, err, gates) : await runCommand(o, out, err, gates));
    });

  program.command('ostress').description('run a pasted ostress command line (-S -d -U -P -E -Q -i -n -r -q -o -t -b) as the equivalent spinlab run, printed first')
    .allowUnknownOption().helpOption(false).argument('[args...]')
    .action(async (args: string[]) => {
      const { translateOstress } = require('./ostress') as typeof import('./ostress');
      const t = translateOstress(args);
      out(`Equivalent: ${t.line}${t.password !== null ? '   (password: from -P here; set SPINLAB_PASSWORD when you run the line)' : ''}\n\n`);
      const before = process.env.SPINLAB_PASSWORD;
      if (t.password !== null) process.env.SPINLAB_PASSWORD = t.password;
      try {
        await program.parseAsync(['run', ...t.runArgs], { from: 'user' });
      } finally {
        if (before === undefined) delete process.env.SPINLAB_PASSWORD; else process.env.SPINLAB_PASSWORD = before;
      }
    });

  program.command('export').description('write a saved experiment as a notebook, CSV of its samples, or a T-SQL script bundle')
    .argument('<dir>', 'the folder a run wrote (holding experiment.json), or the experiment.json itself')
    .option('--notebook <file>', 'a Jupyter notebook (.ipynb) that renders on GitHub and in Jupyter and re-runs in Spinlock Lab')
    .option('--csv <dir>', 'ticks.csv and deltas.csv: every sample of every run')
    .option('--tsql <dir>', 'numbered T-SQL scripts to replay it by hand, with the spinlab and ostress command lines')
    .action((dir: string, o: { notebook?: string; csv?: string; tsql?: string }) => {
      if (!o.notebook && !o.csv && !o.tsql) throw new UsageError('Say what to write: --notebook FILE, --csv DIR and/or --tsql DIR.');
      const written = exportExperiment([readExperimentFile(dir)], { notebook: o.notebook, csvDir: o.csv, tsqlDir: o.tsql });
      out(written.map((f) => `wrote ${f}`).join('\n') + '\n');
    });

  program.command('rerun').description('run a saved notebook\'s experiment again against a server and add the new runs beside the originals')
    .argument('<notebook>', 'a .ipynb saved by Spinlock Lab').addOption(conn()).addOption(new Option('--lab-db <name>', 'lab database (default: the one the notebook used)'))
    .option('--out <dir>', 'output folder for the new experiment.json and samples.jsonl')
    .action(async (file: string, o: { connection?: string; labDb?: string; out?: string }) => setExit(await rerunCommand(file, o, out, err)));

  program.command('sim').description('start the Spinlock Lab TDS simulator (synthetic numbers, not a SQL Server)')
    .allowUnknownOption().helpOption(false).argument('[args...]')
    .action(async (args: string[]) => {
      const sim = require('../../tools/sim/simulator') as { runSimCommand(argv: string[]): Promise<number> };
      setExit(await sim.runSimCommand(args));
    });

  program.command('demo').description('start the simulator, run disk-insert over a short sweep, print the results')
    .option('--out <dir>', 'output folder').action(async (o) => {
      const demo = require('./demo') as { runDemo(outDir: string | undefined, out: (s: string) => void): Promise<number> };
      setExit(await demo.runDemo(o.out, out));
    });
  return program;
}

interface RunArgs {
  connection?: string; scenario?: string; preset?: string; threads?: string; duration?: string; rows?: string; warmup?: string; interval?: string;
  mode: 'server-loop' | 'client-loop'; set: string[]; delayedDurability?: string; affinity?: string; deploy: boolean;
  out?: string; title?: string; question?: string; labDb: string; json?: boolean; notebook?: string;
}
type Gates = ReturnType<typeof parseGates>;
const exitOf = (status: string) => (status === 'completed' ? EXIT.ok : status === 'cancelled' ? EXIT.cancelled : EXIT.failed);

export async function runCommand(o: RunArgs, out: (s: string) => void, err: (s: string) => void, gates: Gates = []): Promise<number> {
  if (!o.scenario) throw new UsageError('Say what to run: --scenario ID or --preset ID (spinlab scenarios lists both).');
  const target = targetFromArgs(o.connection);
  const scenario = getScenario(o.scenario);
  const parameters = resolveParams(scenario.parameters, { set: o.set });
  const load = loadSettingsFrom({ mode: o.mode, threads: o.threads, duration: o.duration, rows: o.rows, warmup: o.warmup, interval: o.interval });
  const outDir = o.out ?? path.join('spinlab-results', `${new Date().toISOString().replace(/[:.]/g, '-')}-${scenario.id}`);
  const bar = new Progress(process.stderr, load.threads.length, load.durationMs);
  try {
    const { experiment, file } = await withCancel(err, (signal) => runExperiment({
      target, scenarioId: scenario.id, parameters, labDatabase: o.labDb, load,
      knobs: { delayedDurability: o.delayedDurability?.toUpperCase() as 'DISABLED' | 'ALLOWED' | 'FORCED' | undefined, affinity: o.affinity },
      outDir, title: o.title, question: o.question, deploy: o.deploy,
    }, signal, (p: ExperimentProgress) => bar.update(p)));
    bar.done();
    out(o.json ? JSON.stringify(experiment, null, 2) + '\n' : resultsReport(experiment, scenario.unit) + `${sessionWaitsSection(experiment.runs)}\n\nSaved ${file}\n`);
    if (o.notebook) out(`Saved ${writeNotebookFile(o.notebook, [experiment])}\n`);
    return applyGates(gates, experiment, exitOf(experiment.status), out, err);
  } finally {
    bar.done();
  }
}

export async function runCustomCommand(o: RunArgs & CustomArgs, out: (s: string) => void, err: (s: string) => void, gates: Gates = []): Promise<number> {
  if (o.scenario) throw new UsageError('Give --scenario or --sql/--sql-file, not both.');
  if (o.iterations && o.duration) throw new UsageError('Give --iterations or --duration, not both: a custom run ends after a number of calls per session or after a time.');
  if (!o.deploy) throw new UsageError('--no-deploy has no meaning for a custom workload: nothing is ever deployed in your database.');
  const target = targetFromArgs(o.connection);
  const { workload, csv } = customWorkloadFrom(o, target);
  const load = customLoad(loadSettingsFrom({ mode: 'client-loop', threads: o.threads, duration: o.duration, warmup: o.warmup, interval: o.interval }), workload, !!o.rows);
  const table = await resolveParamRows(target, workload, o, csv);
  err(workload.writes ? `Note: this workload WRITES to [${workload.database}] (${workload.writes}).\n` : `The workload only reads in [${workload.database}].\n`);
  const outDir = o.out ?? path.join('spinlab-results', `${new Date().toISOString().replace(/[:.]/g, '-')}-custom`);
  const bar = new Progress(process.stderr, load.threads.length, load.durationMs);
  try {
    const { experiment, file } = await withCancel(err, (signal) => runExperiment({
      target, scenarioId: CUSTOM_SCENARIO_ID, parameters: {}, labDatabase: workload.database, load,
      knobs: { delayedDurability: o.delayedDurability?.toUpperCase() as 'DISABLED' | 'ALLOWED' | 'FORCED' | undefined, affinity: o.affinity },
      outDir, title: o.title ?? `Custom workload in [${workload.database}]: ${load.threads.join(', ')} threads`, question: o.question, deploy: false,
      custom: { workload, table },
    }, signal, (p: ExperimentProgress) => bar.update(p)));
    bar.done();
    out(o.json ? JSON.stringify(experiment, null, 2) + '\n' : `${resultsReport(experiment, 'calls')}\n\n${customReport(experiment)}\n\nSaved ${file}\n`);
    if (o.notebook) out(`Saved ${writeNotebookFile(o.notebook, [experiment])}\n`);
    return applyGates(gates, experiment, exitOf(experiment.status), out, err);
  } finally {
    bar.done();
  }
}

export async function runPresetCommand(o: RunArgs, out: (s: string) => void, err: (s: string) => void, gates: Gates = []): Promise<number> {
  if (o.scenario) throw new UsageError('Give --scenario or --preset, not both: a preset chooses its own scenarios.');
  if (o.delayedDurability || o.affinity) {
    throw new UsageError(`--delayed-durability and --affinity are set by the preset's arms; change its settings with --set (spinlab scenarios lists those of ${o.preset}).`);
  }
  const req = presetRequest({ presetId: o.preset!, set: o.set, mode: o.mode, threads: o.threads, duration: o.duration, rows: o.rows, warmup: o.warmup, interval: o.interval });
  const target = targetFromArgs(o.connection);
  const outDir = o.out ?? path.join('spinlab-results', `${new Date().toISOString().replace(/[:.]/g, '-')}-${req.preset.id}`);
  let bar: Progress | null = null;
  try {
    const { experiment, file, plan } = await withCancel(err, (signal) => runPreset(req, { target, labDatabase: o.labDb, outDir, title: o.title, deploy: o.deploy }, signal,
      (p: ExperimentProgress) => (bar ? bar.update(p) : p.kind === 'status' && err(`${p.message}\n`)),
      (plan) => { bar = new Progress(process.stderr, plan.arms.reduce((s, a) => s + a.threads.length, 0), req.load.durationMs); }));
    (bar as Progress | null)?.done();
    out(o.json ? JSON.stringify(experiment, null, 2) + '\n' : presetReport(experiment, req.preset) + `\n\nSaved ${file}\n`);
    if (o.notebook) out(`Saved ${writeNotebookFile(o.notebook, [experiment])}\n`);
    return applyGates(gates, experiment, exitOf(experiment.status), out, err);
  } finally {
    (bar as Progress | null)?.done();
  }
}

export async function rerunCommand(file: string, o: { connection?: string; labDb?: string; out?: string }, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const { record } = readNotebookFile(file);
  const original = record.experiments[0];
  const target = targetFromArgs(o.connection);
  const outDir = o.out ?? path.join('spinlab-results', `${new Date().toISOString().replace(/[:.]/g, '-')}-rerun-${original.scenario.id}`);
  const { experiment, status } = await withCancel(err, (signal) => rerunExperiment(original, { target, outDir, labDatabase: o.labDb }, signal)
    .then((r) => ({ experiment: r.experiment, status: r.experiment.status })));
  const all = appendToNotebook(file, experiment);
  const report = experiment.preset ? presetReport(experiment, getPreset(experiment.preset.id))
    : resultsReport(experiment, getScenario(experiment.scenario.id).unit) + (experiment.custom ? `\n\n${customReport(experiment)}` : sessionWaitsSection(experiment.runs));
  out(report + `\n\nAdded to ${file} (${all.length} experiments)\n`);
  return status === 'completed' ? EXIT.ok : status === 'cancelled' ? EXIT.cancelled : EXIT.failed;
}

/** Runs `task` with Ctrl+C (and SIGTERM) turned into a clean cancel: sessions stopped, knobs restored. */
async function withCancel<T>(err: (s: string) => void, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) { err('\nCancelling: stopping sessions and restoring settings (Ctrl+C again to quit at once)...\n'); ac.abort(); }
    else process.exit(EXIT.cancelled);
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

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram((s) => process.stdout.write(s), (s) => process.stderr.write(s), (c) => { code = c; });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (e instanceof UsageError || e instanceof ParamError || (e as Error).name === 'UsageError' || (e as Error).name === 'AffinityError' || (e as Error).name === 'ConnectionStringError' || (e as Error).name === 'NotebookError') {
      process.stderr.write(`spinlab: ${(e as Error).message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`spinlab: ${(e as Error).message}\n`);
    return EXIT.failed;
  }
}

