// spinlab watch (record a server's own workload, read-only), spinlab watch --compare (the windows around a mark) and
// spinlab mark (drop a mark into the running watch).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { parseDuration } from '../shared/params';
import { formatNumber } from '../shared/analysis';
import type { WatchTick } from '../shared/watch';
import { isBenignWait } from '../shared/benign';
import { DEFAULT_COST_BUDGET_MS_PER_SEC, describeMonitorCost } from '../shared/monitorCost';
import { defaultStateDir } from '../engine/journal';
import { runWatch, type WatchProgress } from '../engine/watch/run';
import { compareAroundMark } from '../engine/watch/read';
import { activeWatchDir, dropMark } from '../engine/watch/marks';
import { notebookChoice, writeWatchNotebookChoice } from './notebookOut';
import { table } from '../engine/report';
import { describeCoverage, describeGap } from '../shared/watchGaps';
import { targetFromArgs, UsageError } from './commands';
import { precheckWatch } from './precheck';
import { EXIT, exitOf } from './exitCodes';
import { fleetCommand } from './fleet';
import { plural } from '../shared/plural';

type WithCancel = <T>(err: (s: string) => void, task: (signal: AbortSignal) => Promise<T>, what?: string) => Promise<T>;

const int = (name: string, lo: number, hi: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < lo || n > hi) throw new UsageError(`${name} must be a whole number from ${lo} to ${hi}, not "${v}".`);
  return n;
};

const num = (name: string, lo: number, hi: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < lo || n > hi) throw new UsageError(`${name} must be a number from ${lo} to ${hi}, not "${v}".`);
  return n;
};

/** One line per tick on stderr: the figures a reader scans for. */
export function tickLine(t: WatchTick): string {
  const top = Object.entries(t.spinlocks).sort((a, b) => b[1].spins - a[1].spins)[0];
  const wait = Object.entries(t.waits)
    .filter(([k]) => !isBenignWait(k))
    .sort((a, b) => b[1].waitMs - a[1].waitMs)[0];
  const s = t.intervalMs / 1000;
  return (
    `${(t.t / 1000).toFixed(1).padStart(7)} s  batches ${formatNumber(t.batchRequestsPerSec)}/s  tx ${formatNumber(t.transactionsPerSec)}/s` +
    `  spins ${formatNumber(t.all.spins / s)}/s${top ? ` (${top[0]} ${formatNumber(top[1].spins / s)})` : ''}` +
    `  waits ${formatNumber(t.all.waitMs / s)} ms/s${wait ? ` (${wait[0]})` : ''}  latches ${formatNumber(t.all.latchMs / s)} ms/s` +
    `  waiting now ${t.requests.filter((r) => r.waitType).length}/${t.requests.length}\n`
  );
}

export function addWatchCommands(
  program: Command,
  out: (s: string) => void,
  err: (s: string) => void,
  setExit: (code: number) => void,
  withCancel: WithCancel,
): void {
  program
    .command('watch')
    .description('watch any server, read-only: live spinlock, wait and latch deltas under its own workload (needs only VIEW SERVER STATE)')
    .option('-c, --connection <string>', 'ADO.NET connection string (or SPINLAB_CONNECTION; password may come from SPINLAB_PASSWORD)')
    .option('--duration <time>', 'how long to watch (e.g. 10s, 8h; default: until Ctrl+C)')
    .option('--interval <time>', 'time between ticks, 250ms or more (default 1s)', '1s')
    .option('--out <dir>', 'output folder for this watch (experiment.json, samples.jsonl, marks.jsonl): new or empty')
    .option('--top-requests <n>', 'requests listed per tick (default 10)', int('--top-requests', 0, 100), 10)
    .option(
      '--text-chars <n>',
      "characters of each request's statement kept (default 100; 0 keeps none)",
      int('--text-chars', 0, 4000),
      100,
    )
    .option('--title <text>', 'a title for the watch')
    .option('--notebook <file>', 'also save the watch as a Jupyter notebook (.ipynb) when it ends: a new file (see --force)')
    .option('--force', 'replace an existing --notebook')
    .option(
      '--cost-budget <ms>',
      'server CPU the watch may cost, in ms per second of watching (default 10: 1% of one core); over it the interval doubles, up to 60 s; 0: no budget',
      num('--cost-budget', 0, 1000),
      DEFAULT_COST_BUDGET_MS_PER_SEC,
    )
    .option(
      '--full-ticks',
      'send the whole tick batch every tick and create nothing, not even session temporary tables in tempdb (more bytes per tick)',
    )
    .option('--quiet', 'no line per tick')
    .option('--compare <dir>', 'instead of watching: compare the windows before and after a mark of a saved watch')
    .option('--mark <name>', 'with --compare: the mark (its name, a unique part of it, or its id)')
    .option('--window <time>', 'with --compare: at most this long on each side of the mark (default: to the neighbouring marks)')
    .option('--json', 'with --compare: print the comparison as JSON')
    .option('--servers <file>', 'watch every server of a JSON or YAML list, each on its own connection, and export their metrics')
    .option('--prometheus <[host]:port>', 'serve a Prometheus scrape on /metrics and health on /healthz (e.g. :9464), for -c or --servers')
    .option('--otlp <url>', 'push metrics by OTLP/HTTP to a collector (e.g. http://collector:4318/v1/metrics), for -c or --servers')
    .option('--otlp-interval <time>', 'with --otlp: time between pushes (default 10s)')
    .action(async (o) => {
      if (o.servers) {
        if (o.connection || o.duration || o.notebook || o.compare)
          throw new UsageError(
            '--servers takes its connections from the file and runs until stopped: leave out -c, --duration, --notebook and --compare.',
          );
        return setExit((await fleetCommand(o, err, withCancel)) || EXIT.cancelled);
      }
      if (o.prometheus || o.otlp) {
        // One server exported as a fleet of one: the same metrics, /healthz and reconnects, until stopped.
        if (o.duration || o.notebook || o.compare)
          throw new UsageError('--prometheus and --otlp watch until stopped: leave out --duration, --notebook and --compare.');
        const target = targetFromArgs(o.connection);
        const intervalMs = parseDuration(o.interval);
        if (intervalMs < 250) throw new UsageError(`--interval must be 250ms or more, not ${o.interval}.`);
        const single = { name: target.server.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64) || 'server', target, intervalMs };
        return setExit((await fleetCommand({ ...o, single }, err, withCancel)) || EXIT.cancelled);
      }
      const output = precheckWatch(o);
      if (!output) return setExit(await compareCommand(o, out));
      try {
        setExit(await watchCommand({ ...o, out: output.dir }, out, err, withCancel));
      } finally {
        output.releaseIfUnused();
      }
    });

  program
    .command('mark')
    .description('drop a named mark into the running watch ("index rebuilt", "affinity changed")')
    .argument('<name>', 'what just happened')
    .option('--dir <dir>', "the watch's output folder (default: the watch running now)")
    .action((name: string, o: { dir?: string }) => {
      const dir = o.dir ?? activeWatchDir(process.env.SPINLAB_STATE_DIR ?? defaultStateDir());
      const m = dropMark(dir, name);
      out(`Marked "${m.name}" at ${m.at} in ${dir} (saved at the watch's next tick).\n`);
    });
}

interface WatchArgs {
  connection?: string;
  duration?: string;
  interval: string;
  out?: string;
  topRequests: number;
  textChars: number;
  title?: string;
  notebook?: string;
  force?: boolean;
  quiet?: boolean;
  fullTicks?: boolean;
  costBudget: number;
}

async function watchCommand(o: WatchArgs, out: (s: string) => void, err: (s: string) => void, withCancel: WithCancel): Promise<number> {
  const intervalMs = parseDuration(o.interval);
  if (intervalMs < 250)
    throw new UsageError(`--interval must be 250ms or more (a tick is one round trip to the server), not ${o.interval}.`);
  const durationMs = o.duration ? parseDuration(o.duration) : null;
  const target = targetFromArgs(o.connection);
  const outDir = o.out ?? path.join('spinlab-results', `${new Date().toISOString().replace(/[:.]/g, '-')}-watch`);
  const { record, file } = await withCancel(
    err,
    (signal) =>
      runWatch(
        {
          target,
          outDir,
          title: o.title,
          stateDir: process.env.SPINLAB_STATE_DIR ?? defaultStateDir(),
          settings: {
            intervalMs,
            durationMs,
            topRequests: o.topRequests,
            textChars: o.textChars,
            costBudgetMsPerSec: o.costBudget,
            ...(o.fullTicks ? { fullTicks: true } : {}),
          },
        },
        signal,
        (p: WatchProgress) => {
          if (p.kind === 'status') err(`${p.message}\n`);
          else if (p.kind === 'event') err(`${p.event.level}: ${p.event.message}\n`);
          else if (p.kind === 'mark') err(`mark "${p.mark.name}" at ${(p.mark.t / 1000).toFixed(1)} s\n`);
          else if (p.kind === 'gap')
            err(`gap at ${(p.gap.fromT / 1000).toFixed(1)}-${(p.gap.toT / 1000).toFixed(1)} s: ${describeGap(p.gap)} (${p.gap.detail})\n`);
          else if (!o.quiet) err(tickLine(p.tick));
        },
      ),
    'ending the watch; the ticks taken so far are kept',
  );
  if (record.simulated) out('SIMULATED: the Spinlock Lab simulator; every number below is synthetic.\n');
  out(`${plural(record.ticks, 'tick')}, ${plural(record.marks.length, 'mark')}; status ${record.status}.\n`);
  // The real length on the watch's one clock, the gaps, and the time the rates are per second of.
  if (record.coverage) out(`${describeCoverage(record.coverage, record.gaps ?? [])}.\n`);
  if (record.roundTripMs) out(`round trip per tick: median ${record.roundTripMs.p50} ms, max ${record.roundTripMs.max} ms\n`);
  if (record.cost) out(`${describeMonitorCost(record.cost, record.simulated)}\n`);
  else if (record.serverCpuMsPerTick != null)
    out(`server CPU of the watch's own session: ${formatNumber(record.serverCpuMsPerTick)} ms per tick\n`);
  if (record.diagnosis.length) out(`\nWhat stands out:\n${record.diagnosis.map((d) => `- ${d}`).join('\n')}\n`);
  out(`\nSaved ${file} and ${path.join(outDir, record.samplesFile)}\n`);
  const nb = notebookChoice(o);
  if (nb) out(`${await writeWatchNotebookChoice(outDir, nb)}\n`);
  return exitOf(record.status);
}

async function compareCommand(
  o: { compare: string; mark?: string; window?: string; json?: boolean },
  out: (s: string) => void,
): Promise<number> {
  if (!o.mark) throw new UsageError('Say which mark: spinlab watch --compare DIR --mark NAME.');
  const { record, mark, comparison } = await compareAroundMark(o.compare, o.mark, o.window ? parseDuration(o.window) : null);
  if (o.json) {
    out(
      JSON.stringify(
        {
          watch: record.id,
          mark,
          before: { fromT: comparison.a.fromT, toT: comparison.a.toT, ticks: comparison.a.ticks },
          after: { fromT: comparison.b.fromT, toT: comparison.b.toT, ticks: comparison.b.ticks },
          figures: comparison.figures,
          summary: comparison.summary,
        },
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  if (record.simulated) out('SIMULATED: the Spinlock Lab simulator; every number below is synthetic.\n');
  const span = (w: typeof comparison.a) => `${(w.fromT / 1000).toFixed(1)}-${(w.toT / 1000).toFixed(1)} s, ${plural(w.ticks, 'tick')}`;
  out(`Mark "${mark.name}" at ${(mark.t / 1000).toFixed(1)} s: before (${span(comparison.a)}) against after (${span(comparison.b)})\n\n`);
  const cell = (v: number | null) => (v === null ? '-' : formatNumber(v));
  out(
    table(
      ['figure', 'unit', 'before', 'after', 'change'],
      comparison.figures.map((f) => [
        f.label,
        f.unit,
        cell(f.a),
        cell(f.b),
        f.changePct === null ? '-' : `${f.changePct > 0 ? '+' : ''}${f.changePct.toFixed(0)}%`,
      ]),
    ) + '\n',
  );
  out(`\n${comparison.summary.join('\n')}\n`);
  return 0;
}

/** True when `dirOrFile` is (or holds) the experiment.json of a watch. */
export function isWatchRecord(dirOrFile: string): boolean {
  const file = dirOrFile.endsWith('.json') ? dirOrFile : path.join(dirOrFile, 'experiment.json');
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { kind?: unknown }).kind === 'watch';
  } catch {
    return false;
  }
}
