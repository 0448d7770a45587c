// `npm run bench` (after npm run build): every benchmark figure, printed and written to bench/results.md.
//   node out/bench/run.js [--quick] [--only driver,sampler,scale,panel,fleet] [--sessions 16]
// --quick is a short run for development; it writes out/bench/results-quick.md and leaves bench/results.md alone.
// Not a timed test: nothing here fails on a slow figure, only on a part that cannot run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchDriver, type ClientKind, type DriverResult } from './driver';
import { benchActivation, benchPanel, benchVsix, ROOT, type ActivationFigures, type PanelFigures, type VsixFigures } from './panel';
import { benchSampler, type SamplerFigures } from './sampler';
import { benchFleet, type FleetRow } from './fleet';
import { addFleetFigures } from './fleetReport';
import { benchScale } from './scale';
import { addScaleFigures, type ScaleCell } from './scaleReport';
import { addFigure, goalRows, type Figures, type Goal } from './figures';
import { PACE_REPLY_DELAY_MS } from './workers';
import { renderResults, type Machine } from './report';
import { readmeBlock, replaceReadmeBlock } from './readme';
import { markdownTable } from './stats';

interface Args {
  quick: boolean;
  only: Set<string>;
  sessions: number;
}

/** Every part, in the order they run; the default runs them all. */
const PARTS = ['driver', 'sampler', 'scale', 'panel', 'fleet'];

function parseArgs(argv: string[]): Args {
  const val = (n: string) => (argv.includes(`--${n}`) ? argv[argv.indexOf(`--${n}`) + 1] : undefined);
  const only = new Set(
    (val('only') ?? PARTS.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const o of only) if (!PARTS.includes(o)) throw new Error(`--only takes ${PARTS.join(', ')}; not '${o}'`);
  return { quick: argv.includes('--quick'), only, sessions: Number(val('sessions') ?? 16) };
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg()[0],
  };
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const log = (s: string) => console.log(s);
  const m = machine();
  const started = Date.now();
  log(
    `bench: ${a.quick ? 'quick run' : 'full run'} on ${m.cpu} (${m.cores} CPUs), Node ${m.node}, load average ${m.loadAverage.toFixed(2)}`,
  );
  let driver: DriverResult | null = null;
  let sampler: SamplerFigures[] | null = null;
  let panel: PanelFigures | null = null;
  let activation: ActivationFigures | null = null;
  let vsix: VsixFigures | null = null;
  let fleet: FleetRow[] | null = null;
  let scale: ScaleCell[] | null = null;
  const failures: string[] = [];
  const part = async (name: string, fn: () => Promise<void>) => {
    if (!a.only.has(name)) return;
    try {
      await fn();
    } catch (err) {
      failures.push(`${name}: ${(err as Error).message}`);
      log(`bench: ${name} failed: ${(err as Error).stack ?? err}`);
    }
  };
  await part('driver', async () => {
    driver = await benchDriver({
      sessions: a.sessions,
      seconds: a.quick ? 3 : 10,
      rounds: a.quick ? 1 : 3,
      warmupMs: a.quick ? 500 : 2000,
      log,
    });
  });
  await part('sampler', async () => {
    sampler = await benchSampler({
      sessions: 64,
      plans: a.quick
        ? [
            [1000, 5],
            [250, 20],
          ]
        : [
            [1000, 60],
            [250, 240],
          ],
      log,
    });
  });
  await part('scale', async () => {
    scale = await benchScale({ ticks: a.quick ? 3 : 10, log });
  });
  await part('panel', async () => {
    panel = await benchPanel(a.quick ? 5 : 30, log, a.quick ? 1 : 3);
    activation = benchActivation(a.quick ? 3 : 10, log);
    vsix = benchVsix(log);
  });
  await part('fleet', async () => {
    // 50 servers for 10 minutes (the goal), 1 and 10 for one to show the cost per server; --quick about a minute.
    fleet = await benchFleet({
      counts: [1, 10, 50],
      seconds: (n) => (a.quick ? (n === 50 ? 20 : 5) : n === 50 ? 600 : 60),
      warmupS: a.quick ? 3 : 30,
      log,
    });
  });
  const figures = collectFigures(driver, sampler, panel, activation);
  if (scale) addScaleFigures(figures, scale);
  if (fleet) addFleetFigures(figures, fleet);
  const text = renderResults({
    figures,
    machine: m,
    quick: a.quick,
    seconds: (Date.now() - started) / 1000,
    driver,
    sampler,
    panel,
    activation,
    vsix,
    fleet,
    scale,
    failures,
  });
  const file = a.quick ? path.join(ROOT, 'out', 'bench', 'results-quick.md') : path.join(ROOT, 'bench', 'results.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const json = a.quick ? path.join(ROOT, 'out', 'bench', 'results-quick.json') : path.join(ROOT, 'bench', 'results.json');
  fs.writeFileSync(json, JSON.stringify({ machine: m, quick: a.quick, figures }, null, 2) + '\n');
  // A full run of every part rewrites the README's block, so its tables are this run's; a partial or quick run leaves it.
  if (!a.quick && PARTS.every((p) => a.only.has(p)) && !failures.length) {
    const readme = path.join(ROOT, 'README.md');
    const block = readmeBlock({ machine: m, driver, scale, fleet, panel }, figures);
    fs.writeFileSync(readme, replaceReadmeBlock(fs.readFileSync(readme, 'utf8'), block));
    console.log('bench: README.md performance block rewritten from this run');
  }
  console.log(`\n${text}`);
  console.log(`\n## Goals\n\n${markdownTable(['figure', 'value', 'goal', 'verdict'], goalRows(figures))}`);
  console.log(`bench: written to ${path.relative(ROOT, file)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (failures.length) process.exitCode = 1;
}

/** The named figures of bench/results.json, from each part that ran. */
function collectFigures(
  driver: DriverResult | null,
  sampler: SamplerFigures[] | null,
  panel: PanelFigures | null,
  activation: ActivationFigures | null,
): Figures {
  const f: Figures = {};
  if (panel) {
    addFigure(f, 'panel_tick_1h_p50_ms', panel.tickP50Ms, 'ms', { op: '<=', target: 4 });
    addFigure(f, 'panel_tick_1h_p95_ms', panel.tickP95Ms, 'ms');
    addFigure(f, 'panel_first_draw_1h_ms', panel.loadMs, 'ms', { op: '<=', target: 60 });
    addFigure(
      f,
      'panel_tick_1h_next_frame_p50_ms',
      panel.tickFrameP50Ms,
      'ms',
      undefined,
      'until the display frame after the draw (60 Hz)',
    );
    const four = panel.fourHours;
    if (four) {
      addFigure(f, 'panel_tick_4h_p50_ms', four.tickP50Ms, 'ms');
      addFigure(f, 'panel_first_draw_4h_ms', four.loadMs, 'ms');
    }
    const eight = panel.eightHours;
    if (eight) {
      addFigure(f, 'panel_tick_8h_p50_ms', eight.tickP50Ms, 'ms', { op: '<=', target: 8 });
      addFigure(f, 'panel_tick_8h_p95_ms', eight.tickP95Ms, 'ms');
      addFigure(f, 'panel_first_draw_8h_ms', eight.loadMs, 'ms', { op: '<=', target: 150 });
    }
  }
  if (activation) {
    addFigure(f, 'activation_ms', activation.totalMs, 'ms', { op: '<=', target: 50 });
    addFigure(f, 'activation_code_loading_ms', activation.codeLoadingMs, 'ms');
    addFigure(f, 'activation_activate_ms', activation.activateMs, 'ms');
    addFigure(f, 'activation_first_use_ms', activation.firstUseMs, 'ms', undefined, 'the first spinlab.open: loads dist/lab.js');
  }
  const oneSecond = sampler?.find((s) => s.intervalMs === 1000 && s.way === 'delta');
  if (oneSecond) {
    addFigure(f, 'sampler_bytes_per_tick_1s', oneSecond.bytesReceived + oneSecond.bytesSent, 'bytes', { op: '<=', target: 4096 });
    addFigure(f, 'sampler_bytes_sent_per_tick_1s', oneSecond.bytesSent, 'bytes');
    addFigure(f, 'sampler_round_trip_1s_p50_ms', oneSecond.rttP50Ms, 'ms');
  }
  const oneSecondFull = sampler?.find((s) => s.intervalMs === 1000 && s.way === 'full');
  if (oneSecondFull) {
    addFigure(
      f,
      'sampler_full_bytes_per_tick_1s',
      oneSecondFull.bytesReceived + oneSecondFull.bytesSent,
      'bytes',
      undefined,
      'sql/dmv/sample.sql every tick, for comparison',
    );
    addFigure(f, 'sampler_full_round_trip_1s_p50_ms', oneSecondFull.rttP50Ms, 'ms');
  }
  const ours = driver?.clients.find((c) => c.kind === 'ours');
  const bare = driver?.clients.find((c) => c.kind === 'tedious');
  ratioFigure(f, driver, 'client_loop_vs_tedious_calls', ['ours', 'tedious'], 'callsPerSec', { op: '>=', target: 0.95 });
  if (ours && bare) {
    addFigure(f, 'client_loop_cpu_per_call_us', ours.clientUsPerCall, 'µs', { op: '<=', target: bare.clientUsPerCall });
  }
  // Issue #32: the client loop's CPU per call against the C client's (FreeTDS db-lib), side by side in one run.
  ratioFigure(f, driver, 'client_loop_cpu_vs_native_ratio', ['ours', 'native'], 'clientUsPerCall', { op: '<=', target: 2 });
  ratioFigure(
    f,
    driver,
    'client_loop_driver_path_cpu_vs_native_ratio',
    ['ours-driver', 'native'],
    'clientUsPerCall',
    undefined,
    'the same loop through the ordinary driver (--client-path driver)',
  );
  // Client worker threads: the same sessions on 2 workers against 1. The CPU ratio's goal (within 10%) is on the paced
  // runs, the same calls per second inside the CPUs; saturated, the simulator shares the same cores and the ratios
  // measure its share of them (bench/workers.ts), so they are printed without a goal.
  const shared = `${driver?.sessions} sessions; the simulator shares the client's ${driver?.cores ?? '?'} CPUs`;
  ratioFigure(f, driver, 'client_loop_2_workers_vs_1_calls', ['workers2', 'workers1'], 'callsPerSec', undefined, shared);
  ratioFigure(
    f,
    driver,
    'client_loop_2_workers_cpu_per_call_ratio',
    ['workers2', 'workers1'],
    'clientUsPerCall',
    undefined,
    `saturated (${shared}); the goal is on client_loop_2_workers_cpu_per_call_ratio_paced`,
  );
  const paced = `${driver?.sessions} sessions paced: the simulator answers after ${PACE_REPLY_DELAY_MS} ms`;
  ratioFigure(f, driver, 'client_loop_2_workers_vs_1_calls_paced', ['workers2-paced', 'workers1-paced'], 'callsPerSec', undefined, paced);
  ratioFigure(
    f,
    driver,
    'client_loop_2_workers_cpu_per_call_ratio_paced',
    ['workers2-paced', 'workers1-paced'],
    'clientUsPerCall',
    { op: '<=', target: 1.1 },
    paced,
  );
  return f;
}

/** One driver client's figure over another's, when both ran (the figure is left out otherwise). */
function ratioFigure(
  f: Figures,
  driver: DriverResult | null,
  name: string,
  [of, over]: [ClientKind, ClientKind],
  per: 'callsPerSec' | 'clientUsPerCall',
  goal?: Goal,
  note?: string,
): void {
  const a = driver?.clients.find((c) => c.kind === of);
  const b = driver?.clients.find((c) => c.kind === over);
  if (a && b) addFigure(f, name, a[per] / b[per], 'ratio', goal, note);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
