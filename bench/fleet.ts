// A fleet from one process: `spinlab watch --servers FILE` (the real CLI, a child process of its own) watching 1, 10
// and 50 simulated servers at 1 s, served by one `spinlab sim --instances 50` process (also its own). Over the measured
// window: the watch's CPU (utime + stime from /proc/<pid>/stat, as % of one core), its resident memory (VmRSS sampled
// every second: the highest and the last), each server's tick start against its slot on its own schedule (bench/
// fleetProbe.ts, preloaded into the child) and the slots skipped, and the event loop's delay. Prometheus scrapes
// /metrics every 15 s during the window, as a deployment would. Linux only (/proc).
//   node out/bench/fleet.js [seconds] [servers,servers,...] [--cpu-prof FOLDER] [--vs OTHER-CHECKOUT (built)]
//     [--alloc-prof FOLDER: every allocation of the window, sampled; with --promoted-only, those that outlived the young generation] [--memory SECONDS: where the watch's memory is, every so often] [--heap-snapshots FOLDER --heap-at S,S,...]
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { percentile, tickJitter } from './stats';
import type { ProbeMemory, ProbeReport } from './fleetProbe';

const ROOT = path.resolve(__dirname, '..', '..');

const PASSWORD = 'Bench-Fleet-Pw1!';
const SCRAPE_EVERY_MS = 15_000;

export interface FleetRow {
  /** Which build's watch ran: 'this build', or a label given with --vs (another checkout, compared side by side). */
  build: string;
  servers: number;
  /** The measured window (after every server was up and the warm-up). */
  seconds: number;
  cpuPctOfCore: number;
  /** The simulator process's CPU over the same window (every instance), % of one core. */
  simCpuPctOfCore: number;
  /** Round trip of every server's ticks together, p50 and p99 (ms). */
  rttP50Ms: number;
  rttP99Ms: number;
  rssMaxMb: number;
  rssEndMb: number;
  /** Ticks started in the window, over all servers. */
  ticks: number;
  /** The worst server's start jitter p99 and max (ms), and which it was. */
  worstJitterP99Ms: number;
  worstJitterMaxMs: number;
  worstServer: string;
  /** The p99 over every server's ticks together. */
  allJitterP99Ms: number;
  /** Schedule slots that passed without a tick, over all servers, and on the worst server. */
  skippedTicks: number;
  worstSkipped: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Lines of the watch's log that tell of trouble (gaps, restarts, warnings) in the whole run, and the first few. */
  troubleLines: number;
  trouble: string[];
}

export interface FleetOptions {
  counts: number[];
  /** Measured seconds at each count. */
  seconds: (servers: number) => number;
  warmupS: number;
  log: (s: string) => void;
  /** Profile the watch child (node --cpu-prof) into this folder: where its CPU goes. */
  cpuProfDir?: string;
  /** A sampling profile of every allocation the watch child makes in the window (bench/fleetProbe.ts), into this folder. */
  allocProfDir?: string;
  /** With allocProfDir: only the allocations that outlived the young generation (what fills the old one). */
  promotedOnly?: boolean;
  /** Log where the watch's memory is (heap spaces, external, ArrayBuffers) every this many seconds of the run. */
  memoryEveryS?: number;
  /** Heap snapshots of the watch child into this folder (node --heapsnapshot-signal), at these seconds of the window. */
  heapSnapshots?: { dir: string; atS: number[] };
  /** The builds whose watch is measured, in turn at each count (default: this one). */
  builds?: { label: string; root: string }[];
}

interface Started {
  proc: ChildProcess;
  text: () => string;
}

/** Spawns the CLI and waits until its output matches `ready` (or it exits). */
async function spawnCli(root: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, nodeArgs: string[] = []): Promise<Started> {
  const proc = spawn(process.execPath, [...nodeArgs, path.join(root, 'bin', 'spinlab.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`spinlab ${args[0]} did not start in 60 s:\n${text}`)), 60_000);
    const on = (d: Buffer) => {
      text += d;
      if (text.length > 1e6) text = text.slice(-5e5); // a long watch's log is kept short
      if (ready.test(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', on);
    proc.stderr!.on('data', on);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`spinlab ${args[0]} exited (${code}):\n${text}`));
    });
  });
  return { proc, text: () => text };
}

async function stop(p: ChildProcess, ms = 30_000): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** user + system CPU of a process so far, in ms (/proc/<pid>/stat fields 14 and 15). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function getJson(url: string): Promise<unknown> {
  const r = await fetch(url);
  return r.json();
}

/** One measured fleet of `ports.length` servers. */
async function measure(
  build: { label: string; root: string },
  ports: number[],
  simPid: number,
  dir: string,
  o: FleetOptions,
): Promise<FleetRow> {
  const n = ports.length;
  const seconds = o.seconds(n);
  const names = ports.map((_, i) => `sim${String(i + 1).padStart(2, '0')}`);
  const serversFile = path.join(dir, `servers-${n}.json`);
  const servers = ports.map((port, i) => ({
    name: names[i],
    server: '127.0.0.1',
    port,
    user: 'sa',
    passwordEnv: 'SPINLAB_BENCH_FLEET_PASSWORD',
    interval: '1s',
    encrypt: true,
    trustServerCertificate: true,
  }));
  fs.writeFileSync(serversFile, JSON.stringify({ servers }, null, 2));
  const probeFile = path.join(dir, `probe-${n}-${build.label.replace(/\W+/g, '-')}.json`);
  const args = [
    'watch',
    '--servers',
    serversFile,
    '--prometheus',
    '127.0.0.1:0',
    '--out',
    path.join(dir, `watch-${n}-${build.label.replace(/\W+/g, '-')}`),
  ];
  const env: NodeJS.ProcessEnv = {
    SPINLAB_BENCH_FLEET_PASSWORD: PASSWORD,
    SPINLAB_FLEET_PROBE: probeFile,
    SPINLAB_BENCH_FLEET_ROOT: build.root,
  };
  if (o.allocProfDir)
    env.SPINLAB_FLEET_ALLOC_PROFILE = path.join(o.allocProfDir, `watch-${n}-${build.label.replace(/\W+/g, '-')}.heapprofile`);
  if (o.allocProfDir && o.promotedOnly) env.SPINLAB_FLEET_ALLOC_PROMOTED = '1';
  if (o.memoryEveryS) env.SPINLAB_FLEET_MEMORY_EVERY_MS = String(o.memoryEveryS * 1000);
  const nodeArgs = ['--require', path.join(__dirname, 'fleetProbe.js')];
  if (o.heapSnapshots) nodeArgs.push('--heapsnapshot-signal=SIGUSR1', `--diagnostic-dir=${o.heapSnapshots.dir}`);
  const snapshotsAt = [...(o.heapSnapshots?.atS ?? [])].sort((a, b) => a - b);
  if (o.cpuProfDir)
    nodeArgs.push(
      '--cpu-prof',
      '--cpu-prof-dir',
      o.cpuProfDir,
      '--cpu-prof-name',
      `watch-${n}-${build.label.replace(/\W+/g, '-')}.cpuprofile`,
    );
  const watch = await spawnCli(build.root, args, env, /metrics on (http:\/\/\S+)\/metrics/, nodeArgs);
  const pid = watch.proc.pid!;
  try {
    const base = /metrics on (http:\/\/\S+)\/metrics/.exec(watch.text())![1];
    const upWithinMs = 60_000 + n * 1000;
    const upBy = Date.now() + upWithinMs;
    for (;;) {
      const h = (await getJson(`${base}/healthz`)) as { servers: { state: string }[] };
      if (h.servers.every((s) => s.state === 'up')) break;
      if (Date.now() > upBy) throw new Error(`not every server was up after ${upWithinMs / 1000} s:\n${watch.text().slice(-2000)}`);
      await sleep(500);
    }
    await sleep(o.warmupS * 1000);
    process.kill(pid, 'SIGUSR2'); // the probe's event loop histogram from here
    const t0 = Date.now();
    const cpu0 = cpuMs(pid);
    const simCpu0 = cpuMs(simPid);
    let rssMax = rssMb(pid);
    let nextScrape = t0;
    while (Date.now() - t0 < seconds * 1000) {
      if (Date.now() >= nextScrape) {
        await (await fetch(`${base}/metrics`)).text();
        nextScrape += SCRAPE_EVERY_MS;
      }
      await sleep(1000 - ((Date.now() - t0) % 1000));
      rssMax = Math.max(rssMax, rssMb(pid));
      if (snapshotsAt.length && Date.now() - t0 >= snapshotsAt[0] * 1000) {
        o.log(`fleet: heap snapshot of the watch at ${snapshotsAt.shift()} s (RSS ${rssMb(pid).toFixed(0)} MB)`);
        process.kill(pid, 'SIGUSR1');
      }
    }
    const t1 = Date.now();
    const cpu1 = cpuMs(pid);
    const simCpu1 = cpuMs(simPid);
    const rssEnd = rssMb(pid);
    await stop(watch.proc);
    if (!fs.existsSync(probeFile)) throw new Error(`the watch left no probe file (it did not exit cleanly):\n${watch.text().slice(-2000)}`);
    const probe = JSON.parse(fs.readFileSync(probeFile, 'utf8')) as ProbeReport;
    for (const m of probe.memory ?? []) o.log(`fleet: ${n} server(s), ${Math.round((m.atMs - t0) / 1000)} s: ${describeMemory(m)}`);
    const trouble = watch
      .text()
      .split('\n')
      .filter((l) => /^\[\S+\] /.test(l) && !/\] (connecting to|watching) /.test(l) && !/Spinlock Lab simulator: every number/.test(l));
    return {
      ...timeliness(probe, ports, names, t0, t1),
      build: build.label,
      servers: n,
      seconds: (t1 - t0) / 1000,
      cpuPctOfCore: (100 * (cpu1 - cpu0)) / (t1 - t0),
      simCpuPctOfCore: (100 * (simCpu1 - simCpu0)) / (t1 - t0),
      rssMaxMb: Math.max(rssMax, rssEnd),
      rssEndMb: rssEnd,
      troubleLines: trouble.length,
      trouble: trouble.slice(0, 5),
    };
  } finally {
    await stop(watch.proc);
  }
}

/** One memory reading as a line: where the resident memory is, in MB. */
export function describeMemory(m: ProbeMemory): string {
  const f = (x: number) => x.toFixed(1);
  const spaces = Object.entries(m.spaces)
    .filter(([, v]) => v.size >= 1)
    .map(([k, v]) => `${k.replace(/_space$/, '')} ${f(v.used)}/${f(v.size)}`)
    .join(', ');
  return (
    `RSS ${f(m.rss)} MB: heap used ${f(m.heapUsed)} of ${f(m.heapTotal)} committed (${spaces}), external ${f(m.external)} ` +
    `(ArrayBuffers ${f(m.arrayBuffers)}), the rest (code, stacks, malloc, freed pages not yet returned) ${f(m.rss - m.heapTotal - m.external)}`
  );
}

type Timeliness = Omit<
  FleetRow,
  'build' | 'servers' | 'seconds' | 'cpuPctOfCore' | 'simCpuPctOfCore' | 'rssMaxMb' | 'rssEndMb' | 'troubleLines' | 'trouble'
>;

/** Each server's ticks started in [t0, t1] against its own schedule; the worst server by p99. */
export function timeliness(probe: ProbeReport, ports: number[], names: string[], t0: number, t1: number): Timeliness {
  let worst = { p99: -1, max: NaN, name: '', skipped: 0 };
  let ticks = 0,
    skipped = 0,
    worstSkipped = 0;
  const all: number[] = [];
  const rtts: number[] = [];
  ports.forEach((port, i) => {
    // A server whose watch started again has more than one sampler: its longest-lived one is the one measured.
    const s = probe.samplers.filter((x) => x.port === port).sort((a, b) => b.starts.length - a.starts.length)[0];
    const idx = s ? s.starts.map((t, k) => k).filter((k) => s.starts[k] >= t0 && s.starts[k] <= t1) : [];
    if (!s || idx.length === 0) throw new Error(`${names[i]} (port ${port}) started no tick in the measured window`);
    const starts = idx.map((k) => s.starts[k]);
    const j = tickJitter(starts, s.slots[idx[0]], s.intervalMs);
    ticks += j.ticks;
    skipped += j.skipped;
    worstSkipped = Math.max(worstSkipped, j.skipped);
    for (const [k, t] of starts.entries()) all.push(Math.abs(t - s.slots[idx[k]]));
    for (const k of idx) if (Number.isFinite(s.rtts[k])) rtts.push(s.rtts[k]);
    if (j.p99Ms > worst.p99) worst = { p99: j.p99Ms, max: j.maxMs, name: names[i], skipped: j.skipped };
  });
  return {
    ticks,
    worstJitterP99Ms: worst.p99,
    worstJitterMaxMs: worst.max,
    worstServer: worst.name,
    allJitterP99Ms: percentile(all, 99),
    rttP50Ms: percentile(rtts, 50),
    rttP99Ms: percentile(rtts, 99),
    skippedTicks: skipped,
    worstSkipped,
    loopDelayP99Ms: probe.loopDelay.p99Ms,
    loopDelayMaxMs: probe.loopDelay.maxMs,
  };
}

/** Every count in turn against one simulator process serving the largest. */
export async function benchFleet(o: FleetOptions): Promise<FleetRow[]> {
  if (process.platform !== 'linux') throw new Error('the fleet bench reads /proc: Linux only');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-bench-fleet-'));
  const most = Math.max(...o.counts);
  const sim = await spawnCli(ROOT, ['sim', '--port', '0', '--instances', String(most), '--password', PASSWORD], {}, /Ctrl\+C stops it/);
  const rows: FleetRow[] = [];
  try {
    const ports = [...sim.text().matchAll(/listening on 127\.0\.0\.1:(\d+)/gi)].map((m) => Number(m[1]));
    if (ports.length !== most) throw new Error(`the simulator printed ${ports.length} ports, not ${most}:\n${sim.text()}`);
    for (const n of o.counts)
      for (const build of o.builds ?? [{ label: 'this build', root: ROOT }]) {
        const r = await measure(build, ports.slice(0, n), sim.proc.pid!, dir, o);
        o.log(
          `fleet (${build.label}): ${n} server(s) at 1 s for ${r.seconds.toFixed(0)} s: ${r.cpuPctOfCore.toFixed(2)}% of a core, RSS max ${r.rssMaxMb.toFixed(0)} MB (end ${r.rssEndMb.toFixed(0)}), ` +
            `tick start jitter p99 ${r.allJitterP99Ms.toFixed(2)} ms (worst server ${r.worstServer}: p99 ${r.worstJitterP99Ms.toFixed(2)}, max ${r.worstJitterMaxMs.toFixed(2)}), ` +
            `${r.skippedTicks} slot(s) skipped, round trip p50 ${r.rttP50Ms.toFixed(1)} p99 ${r.rttP99Ms.toFixed(1)} ms, event loop delay p99 ${r.loopDelayP99Ms.toFixed(2)} ms; ` +
            `the simulator (its own process) ${r.simCpuPctOfCore.toFixed(1)}% of a core`,
        );
        if (r.troubleLines) o.log(`fleet: ${r.troubleLines} line(s) of trouble in the watch's log, e.g.\n  ${r.trouble.join('\n  ')}`);
        rows.push(r);
      }
  } finally {
    await stop(sim.proc);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (require.main === module) {
  const seconds = Number(process.argv[2] ?? 60);
  const counts = (process.argv[3] ?? '1,10,50').split(',').map(Number);
  const flag = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const cpuProfDir = flag('--cpu-prof') ? path.resolve(flag('--cpu-prof')!) : undefined;
  const vs = flag('--vs');
  const builds = vs
    ? [
        { label: 'other build', root: path.resolve(vs) },
        { label: 'this build', root: ROOT },
      ]
    : undefined;
  const allocProfDir = flag('--alloc-prof') ? path.resolve(flag('--alloc-prof')!) : undefined;
  if (allocProfDir) fs.mkdirSync(allocProfDir, { recursive: true });
  const memoryEveryS = flag('--memory') ? Number(flag('--memory')) : undefined;
  const heapSnapshots = flag('--heap-snapshots')
    ? { dir: path.resolve(flag('--heap-snapshots')!), atS: (flag('--heap-at') ?? '60').split(',').map(Number) }
    : undefined;
  if (heapSnapshots) fs.mkdirSync(heapSnapshots.dir, { recursive: true });
  const log = (s: string) => console.log(s);
  const promotedOnly = process.argv.includes('--promoted-only');
  benchFleet({
    counts,
    seconds: () => seconds,
    warmupS: 5,
    log,
    cpuProfDir,
    builds,
    memoryEveryS,
    heapSnapshots,
    allocProfDir,
    promotedOnly,
  }).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
