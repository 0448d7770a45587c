// The spinlab command: a thin host over the engine. Exit codes: exitCodes.ts (the README's table).
import { Command, Option } from 'commander';
import { listScenarios } from '../engine/scenarios';
import { citePost, citePosts, getPost } from '../shared/posts';
import { DEFAULT_LAB_DATABASE, TOOL_VERSION } from '../engine/lab';
import { describePreset, listPresets } from '../engine/presets';
import {
  targetFromArgs,
  deployCommand,
  cleanupCommand,
  dropLabCommand,
  restoreCommand,
  topologyCommand,
  checkCommand,
  labDbArg,
} from './commands';
import { rerunCommand, runCommand, runPresetCommand, withCancel } from './run';
import { EXIT, exitForError } from './exitCodes';
import { terminalAsk, type Ask } from './rerunPlan';
import { precheckRun } from './precheck';
import { isCustom, runCustomCommand } from './custom';
import { asksForHelp, OSTRESS_HELP, OSTRESS_SUPPORTED, translateOstress } from './ostress';
import { runDemo } from './demo';
import { addWatchCommands } from './watch';
import { addExportCommand } from './export';
import { addStacksCommand } from './stacks';
import { addCompareCommand } from './compare';
import { addHistoryCommand } from './history';
import { addTuneCommand } from './tune';
import { DEFAULT_MAX_REPEAT } from '../shared/sequential';
import { ADD_TO, FORCE } from './options';
import { fitTables } from '../engine/textTable';
import { terminalWidth } from './terminal';

function collect(v: string, prev: string[]): string[] {
  return [...prev, v];
}

/** ask: how rerun asks before running (undefined: on the terminal when there is one; null: never, as without one). */
export function buildProgram(
  out: (s: string) => void,
  err: (s: string) => void,
  setExit: (code: number) => void,
  ask?: Ask | null,
): Command {
  const program = new Command('spinlab')
    .description('Spinlock Lab: deploy SQL Server contention scenarios, run concurrent load, and measure spinlock, wait and latch deltas.')
    .version(TOOL_VERSION, '-V, --version', 'print the version')
    // Options before the command are spinlab's, after it the command's: sim has its own --version (of SQL Server).
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: err });
  const conn = () =>
    new Option('-c, --connection <string>', 'ADO.NET connection string (or SPINLAB_CONNECTION; password may come from SPINLAB_PASSWORD)');
  // `run` checks its --lab-db with the rest of its options (precheck.ts): a custom workload takes --database instead.
  const labDb = (checked = true) => {
    const o = new Option('--lab-db <name>', 'the lab database Spinlock Lab creates and owns (never a system database)').default(
      DEFAULT_LAB_DATABASE,
    );
    return checked ? o.argParser(labDbArg) : o;
  };

  program
    .command('scenarios')
    .description('list the scenarios and their parameters, and the presets that reproduce each post')
    .option('--json', 'machine-readable output: { scenarios, presets }')
    .action((o: { json?: boolean }) => {
      const list = listScenarios();
      const presets = listPresets();
      if (o.json)
        return out(
          JSON.stringify(
            { scenarios: list.map((s) => ({ ...s, posts: s.posts.map(getPost) })), presets: presets.map(describePreset) },
            null,
            2,
          ) + '\n',
        );
      out('Scenarios (spinlab run --scenario ID)\n\n');
      for (const s of list) {
        out(`${s.id}  ${s.name}\n  ${s.description}\n  from ${citePosts(s.posts)}\n`);
        for (const p of s.parameters)
          out(
            `    --set ${p.name}=${p.default}  ${p.label}${p.values ? ` [${p.values.join('|')}]` : p.min !== undefined ? ` [${p.min}..${p.max}]` : ''}${p.unit ? ` ${p.unit}` : ''}\n`,
          );
      }
      out('\nPresets: one per post (spinlab run --preset ID)\n\n');
      for (const p of presets) {
        out(`${p.id}  ${p.name}\n  ${p.question}\n  reproduces ${citePost(p.post)}\n`);
        if (p.needs.length) out(`  needs ${p.needs.join(' and ')} for every comparison; without, it runs what it can and says so\n`);
        const load = [
          p.load.rows ? `--rows ${p.load.rows}` : `--duration ${p.load.duration}`,
          `--warmup ${p.load.warmup}`,
          `--interval ${p.load.interval}`,
        ].join(' ');
        out(`    --threads: ${p.threads}\n    ${load}\n`);
        for (const s of p.options)
          out(
            `    --set ${s.name}=${s.default}  ${s.label}${s.values ? ` [${s.values.join('|')}]` : s.min !== undefined ? ` [${s.min}..${s.max}]` : ''}${s.unit ? ` ${s.unit}` : ''}\n`,
          );
      }
    });

  program
    .command('topology')
    .description("show the server's shape: sockets, NUMA nodes, schedulers, log writer, memory model, trace flags")
    .addOption(conn())
    .option('--json', 'machine-readable output')
    .action(async (o) => {
      out(await topologyCommand(targetFromArgs(o.connection), !!o.json));
    });

  program
    .command('check')
    .description(
      'what this server is and what Spinlock Lab can do on it with this login, with the GRANT for each missing permission (exit 0: everything asked for can run)',
    )
    .addOption(conn())
    .addOption(labDb())
    .option('--json', 'machine-readable output (docs/check.md)')
    .option('--feature <list>', 'only these: sample, deploy, affinity, delayed-durability, in-memory, watch, event-sessions (default: all)')
    .action(async (o) => {
      const r = await checkCommand(targetFromArgs(o.connection), o.labDb, o.feature, !!o.json);
      out(r.text);
      setExit(r.ok ? EXIT.ok : EXIT.failed);
    });

  for (const [name, fn] of [
    ['deploy', deployCommand],
    ['cleanup', cleanupCommand],
  ] as const) {
    program
      .command(name)
      .description(
        name === 'deploy'
          ? 'create the lab database if needed and deploy a scenario into it'
          : "remove a scenario's objects from the lab database",
      )
      .addOption(conn())
      .requiredOption('--scenario <id>', 'scenario id (spinlab scenarios)')
      .option('--set <k=v>', 'scenario parameter (repeatable)', collect, [])
      .addOption(labDb())
      .action(async (o) => {
        out(await fn(targetFromArgs(o.connection), o.scenario, o.set, o.labDb));
      });
  }

  program
    .command('drop-lab')
    .description('drop the lab database (only one Spinlock Lab created: it carries its mark), with every scenario in it')
    .addOption(conn())
    .addOption(labDb())
    .action(async (o) => {
      out(await dropLabCommand(targetFromArgs(o.connection), o.labDb));
    });

  program
    .command('restore')
    .description(
      'put back the settings an interrupted experiment changed (from its restore journal); refused while that experiment still runs',
    )
    .addOption(conn())
    .option('--force', 'restore even though the experiment that wrote the journal still holds its lock (it is stuck)')
    .action(async (o) => {
      out(await restoreCommand(targetFromArgs(o.connection), undefined, !!o.force));
    });

  program
    .command('run')
    .description(
      'run a scenario at one or more thread counts, or a preset that reproduces one of the posts it is built on, and print the results',
    )
    .addOption(conn())
    .option('--scenario <id>', 'scenario id (spinlab scenarios)')
    .option(
      '--preset <id>',
      'a preset: numa-logwriter, isolate-core0, xdesmgr-batch, writelog, ring-buffer (spinlab scenarios lists their settings)',
    )
    .option('--threads <list>', "thread counts, run in order (e.g. 1,2,4,8; default 1,2,4, or the preset's, which follow the server)")
    .option('--duration <time>', "measured time per run (e.g. 30s, 2m; default 30s, or the preset's)")
    .option('--rows <n>', 'or: rows per run, over all sessions (e.g. 1M)')
    .option('--warmup <time>', 'unmeasured warm-up before each run (default 5s)')
    .option('--interval <time>', 'sampling interval, 250ms or more (default 1s)')
    .option(
      '--repeat <n>',
      "runs of each thread count (of each arm, for a preset), 1 to 100, or auto: repeat until every --assert gate is decided; arms take turns (A B, B A, ...). Default auto with --assert, else 1, or the preset's (3)",
    )
    .option('--max-repeat <n>', `with --repeat auto: the most repetitions, 2 to 100 (default ${DEFAULT_MAX_REPEAT})`)
    .addOption(
      new Option('--mode <mode>', 'server-loop: one EXEC per session; client-loop: one call per transaction, with latency')
        .choices(['server-loop', 'client-loop'])
        .default('server-loop'),
    )
    .option(
      '--client-workers <n>',
      'client-loop and custom workloads: worker threads the sessions run on (default one per client core; 0: one event loop)',
    )
    .addOption(
      new Option(
        '--client-path <path>',
        'client-loop: lean sends each call as a prebuilt RPC on a plaintext connection tedious logged in (the default where it can); driver forces the ordinary driver',
      ).choices(['lean', 'driver']),
    )
    .option('--set <k=v>', 'scenario parameter, or preset setting (repeatable)', collect, [])
    .addOption(
      new Option(
        '--delayed-durability <mode>',
        "set on the lab database for the experiment (allowed behaves as disabled: the scenarios' commits do not ask for delayed durability)",
      ).choices(['disabled', 'allowed', 'forced']),
    )
    .option('--affinity <spec>', 'process affinity for the experiment: auto, cpu:2-11, numa:0, numa:1-first-core, exclude-core0')
    .option('--no-deploy', 'use the scenario as already deployed')
    .option(
      '--out <dir>',
      'output folder for this experiment (experiment.json, samples.jsonl): new or empty; default a new one under spinlab-results/',
    )
    .option('--title <text>', 'a title for the experiment')
    .option('--question <text>', 'the question it asks')
    .addOption(labDb(false))
    .option('--json', 'print the experiment record instead of the table')
    .option('--notebook <file>', 'also save the experiment as a Jupyter notebook (.ipynb): a new file (see --add-to, --force)')
    .option(...ADD_TO)
    .option(...FORCE)
    .option(
      '--stacks <spinlock>',
      "also capture the call stacks behind this spinlock's backoffs during the last run (as spinlab stacks does; kept with that run)",
    )
    .option('--stacks-duration <time>', "with --stacks: how long to capture (default 10s, at most the run's measured time less 1 s)")
    .option('--sql <batch>', 'custom workload: T-SQL to run (repeatable: calls take each in turn)', collect, [])
    .option('--sql-file <file>', 'custom workload: a .sql file (GO splits batches; repeatable)', collect, [])
    .option('--database <name>', "custom workload: the database it runs in (default: the connection's, else master)")
    .option('--iterations <n>', 'custom workload: iterations per session in each run (instead of --duration)')
    .addOption(
      new Option(
        '--per-iteration <what>',
        'custom workload: what an iteration runs: one batch (each session taking them in turn; the default), or all of them in order, as ostress runs its input file',
      ).choices(['one', 'all']),
    )
    .option('--think-time <time>', 'custom workload: pause after each call (e.g. 10ms)')
    .option('--params-csv <file>', 'custom workload: parameter rows, a header of variable names then one row per call')
    .option('--params-query <sql>', 'custom workload: a query whose rows are the parameter values (run once, in --database)')
    .addOption(new Option('--params-order <order>', 'which row each call takes').choices(['round-robin', 'random']))
    .addOption(new Option('--params-scope <scope>', 'a row cursor per session, or one shared by all').choices(['session', 'shared']))
    .option('--query-timeout <time>', 'custom workload: cancel a call that runs longer (counted as a timeout)')
    .option('--stop-on-error', 'custom workload: end the run at the first failing call')
    .option(
      '--assert <gate>',
      'a CI gate, judged on the 95% interval over each arm and thread count\'s repetitions (never on one run), e.g. "p99<5ms", "rows_per_sec>20000", "LOGCACHE_ACCESS.spins_per_row<50", "rows_per_sec >= baseline - 5%", "rows_per_sec within 5% of baseline" (90% interval inside the band) (exit 1 when one fails, 7 when one cannot be decided at this noise)',
      collect,
      [],
    )
    .option(
      '--baseline <dir>',
      'a saved experiment (its folder or experiment.json) to compare with: gates may name it ("p99 <= baseline + 10%"), and the report says how this run compares',
    )
    .option(
      '--interleave',
      "with --baseline: run the baseline's settings again beside this run's, taking turns (A B, B A ...), so the verdict is paired instead of across sessions",
    )
    .option(
      '--any-name',
      'with --assert and --stacks: accept a spinlock or wait name Spinlock Lab does not list (names differ between versions)',
    )
    .action(async (opts, cmd: Command) => {
      // Checked before anything connects; the output folder is claimed for this experiment and removed if left unused.
      const { gates, output, baseline } = precheckRun(opts, {
        mode: cmd.getOptionValueSource('mode') === 'cli',
        labDb: cmd.getOptionValueSource('labDb') === 'cli',
      });
      try {
        const o = { ...opts, out: output.dir };
        setExit(
          o.preset
            ? await runPresetCommand(o, out, err, gates, baseline)
            : isCustom(o)
              ? await runCustomCommand(o, out, err, gates, baseline)
              : await runCommand(o, out, err, gates, baseline),
        );
      } finally {
        output.releaseIfUnused();
      }
    });

  program
    .command('ostress')
    .description(
      `run a pasted ostress command line (${OSTRESS_SUPPORTED}; not -E) as the equivalent spinlab run, printed first with where it differs (spinlab ostress -? for more)`,
    )
    .allowUnknownOption()
    .helpOption(false)
    .argument('[args...]')
    .action(async (args: string[]) => {
      if (asksForHelp(args)) return out(OSTRESS_HELP);
      const t = translateOstress(args);
      out(
        `Equivalent: ${t.line}${t.password !== null ? '   (password: from -P here; set SPINLAB_PASSWORD when you run the line)' : ''}\n` +
          `Differs from ostress: ${t.differences.join('; ')}.\n\n`,
      );
      const before = process.env.SPINLAB_PASSWORD;
      if (t.password !== null) process.env.SPINLAB_PASSWORD = t.password;
      try {
        await program.parseAsync(['run', ...t.runArgs], { from: 'user' });
      } finally {
        if (before === undefined) delete process.env.SPINLAB_PASSWORD;
        else process.env.SPINLAB_PASSWORD = before;
      }
    });

  program
    .command('rerun')
    .description("run a saved notebook's experiment again against a server and add the new runs beside the originals")
    .argument('<notebook>', 'a .ipynb saved by Spinlock Lab')
    .addOption(conn())
    .addOption(new Option('--lab-db <name>', 'lab database (default: the one the notebook used)').argParser(labDbArg))
    .option('--out <dir>', 'output folder for the new experiment.json and samples.jsonl')
    .option('-y, --yes', 'run the printed plan without asking (for scripts: read the plan first)')
    .option('--dry-run', "print the plan (what the notebook's record will run, and where its cells disagree) and stop")
    .action(async (file: string, o: { connection?: string; labDb?: string; out?: string; yes?: boolean; dryRun?: boolean }) =>
      setExit(await rerunCommand(file, o, out, err, ask === undefined ? terminalAsk() : ask)),
    );

  program
    .command('sim')
    .description('start the Spinlock Lab TDS simulator (synthetic numbers, not a SQL Server)')
    .allowUnknownOption()
    .helpOption(false)
    .argument('[args...]')
    .action(async (args: string[]) => {
      const sim = require('../../tools/sim/simulator') as { runSimCommand(argv: string[]): Promise<number> };
      setExit(await sim.runSimCommand(args));
    });

  addExportCommand(program, out);
  addCompareCommand(program, out);
  addHistoryCommand(program, out, err);
  addTuneCommand(program, out, err, setExit);
  addWatchCommands(program, out, err, setExit, withCancel);
  addStacksCommand(program, out, err, setExit, withCancel);

  program
    .command('demo')
    .description('start the simulator, run disk-insert over a short sweep, print the results')
    .option('--out <dir>', 'output folder')
    .action(async (o) => {
      setExit(await runDemo(o.out, out));
    });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  // Tables fitted to the terminal (a pipe keeps whole lines unless COLUMNS says a width: terminal.ts).
  const width = terminalWidth();
  const program = buildProgram(
    (s) => process.stdout.write(fitTables(s, width)),
    (s) => process.stderr.write(s),
    (c) => {
      code = c;
    },
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    return exitForError(e, (s) => process.stderr.write(s));
  }
}
