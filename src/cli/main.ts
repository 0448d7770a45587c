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
import { targetFromArgs, UsageError, deployCommand, cleanupCommand, restoreCommand, topologyCommand, checkCommand } from './commands';
import { Progress } from './progress';
import { exportExperiment, readExperimentFile, writeNotebookFile } from '../engine/notebook/export';
import { readNotebookFile } from '../engine/notebook/read';
import { appendToNotebook, rerunExperiment } from '../engine/notebook/rerun';

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

  program.command('check').description('what this server is and what Spinlock Lab can do on it with this login, with the GRANT for each missing permission (exit 0: everything asked for can run)')
    .addOption(conn()).addOption(labDb()).option('--json', 'machine-readable output (docs/check.md)')
    .option('--feature <list>', 'only these: sample, deploy, affinity, delayed-durability, in-memory, watch, event-sessions (default: all)')
    .action(async (o) => {
      const r = await checkCommand(targetFromArgs(o.connection), o.labDb, o.feature, !!o.json);
      out(r.text);
      setExit(r.ok ? EXIT.ok : EXIT.failed);
    });

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
    .addOption(new Option('--delayed-durability <mode>', 'set on the lab database for the experiment (allowed behaves as disabled: the scenarios\' commits do not ask for delayed durability)').choices(['disabled', 'allowed', 'forced']))
    .option('--affinity <spec>', 'process affinity for the experiment: auto, cpu:2-11, numa:0, numa:1-first-core, exclude-core0')
    .option('--no-deploy', 'use the scenario as already deployed')
    .option('--out <dir>', 'output folder (experiment.json, samples.jsonl)')
    .option('--title <text>', 'a title for the experiment').option('--question <text>', 'the question it asks')
    .addOption(labDb()).option('--json', 'print the experiment record instead of the table')
    .option('--notebook <file>', 'also save the experiment as a Jupyter notebook (.ipynb)')
    .action(async (o) => setExit(o.preset ? await runPresetCommand(o, out, err) : await runCommand(o, out, err)));

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

export async function runCommand(o: RunArgs, out: (s: string) => void, err: (s: string) => void): Promise<number> {
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
    out(o.json ? JSON.stringify(experiment, null, 2) + '\n' : resultsReport(experiment, scenario.unit) + `\n\nSaved ${file}\n`);
    if (o.notebook) out(`Saved ${writeNotebookFile(o.notebook, [experiment])}\n`);
    return experiment.status === 'completed' ? EXIT.ok : experiment.status === 'cancelled' ? EXIT.cancelled : EXIT.failed;
  } finally {
    bar.done();
  }
}

export async function runPresetCommand(o: RunArgs, out: (s: string) => void, err: (s: string) => void): Promise<number> {
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
    return experiment.status === 'completed' ? EXIT.ok : experiment.status === 'cancelled' ? EXIT.cancelled : EXIT.failed;
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
  const report = experiment.preset ? presetReport(experiment, getPreset(experiment.preset.id)) : resultsReport(experiment, getScenario(experiment.scenario.id).unit);
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
    if (e instanceof UsageError || e instanceof ParamError || (e as Error).name === 'AffinityError' || (e as Error).name === 'ConnectionStringError' || (e as Error).name === 'NotebookError') {
      process.stderr.write(`spinlab: ${(e as Error).message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`spinlab: ${(e as Error).message}\n`);
    return EXIT.failed;
  }
}

