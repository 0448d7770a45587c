// Load driver, client-loop mode, against the simulator: one procedure with disk-insert's client-loop arguments
// (@key_base, @offset, @batch_size), registered in the simulator by simProcess.ts and answered at once (the real
// dbo.spinlab_disk_insert_batch runs the contention model: milliseconds of simulator CPU per call, which makes every
// client look alike), called over and over at the same concurrency by three clients, each in a process of its own (the simulator in a fourth):
//   ours     Spinlock Lab's WorkloadSessions.runPhase on its default client path: lean (tedious logs in, then each call
//            is a prebuilt RPC on the socket, src/db/lean/), latency recorded
//   ours-driver  the same through the ordinary driver (--client-path driver: one tedious RPC per call)
//   tedious  a bare tedious loop: one Connection per session, Request + callProcedure, no mssql, no latency histogram
//   native   bench/native/dblib_loop.c, FreeTDS db-lib, one process per session (dbrpcinit/dbrpcparam/dbrpcsend)
//   workers1 / workers2  ours on client worker threads (src/engine/workers/clientPool.ts), the same sessions on 1 or 2
//            workers, as `spinlab run --client-workers 1|2` runs them: the client's CPU is the whole process's (every thread)
//   workers1-paced / workers2-paced  the same with the simulator holding each answer a few ms (bench/workers.ts)
// Client CPU comes from process.cpuUsage() (getrusage for the C client) over the measured window only; the
// simulator's CPU over the same window is reported apart. Rounds alternate the clients so drift hits all of them.
//
// Also a child role: `node out/bench/driver.js client --kind ours|tedious --port P --sessions N --seconds S`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection, Request, TYPES } from 'tedious';
import type { DbTarget } from '../src/db/target';
import { withAdmin } from '../src/cli/commands';
import { deployScenario } from '../src/engine/lab';
import { KEY_BLOCK_SIZE, WorkloadSessions } from '../src/engine/load';
import type { ClientPath, PhaseFailure } from '../src/engine/loadDriver';
import { LatencyRecorder } from '../src/engine/histogram';
import { ClientWorkerPool } from '../src/engine/workers/clientPool';
import { defaultParameters, getScenario, type ScenarioManifest } from '../src/engine/scenarios';
import { cpuMicros, forkRole, fromParent, next, runRole, stopChild, toParent, type Msg } from './ipc';
import { BENCH_PROCEDURE, BENCH_SIM_PASSWORD } from './constants';
import { median } from './stats';
import { summariseFile, type Breakdown } from './cpuprofile';
import { buildNative, runNative } from './nativeClient';
import { isPaced, PACE_REPLY_DELAY_MS, setReplyDelay, workersOf, type WorkerKind } from './workers';

export const SCENARIO = 'disk-insert';
export const PROCEDURE = BENCH_PROCEDURE;
export const LAB_DB = 'SpinlockLab';
const BATCH_SIZE = 1;

export type ClientKind = 'ours' | 'ours-driver' | 'tedious' | 'native' | WorkerKind;

export interface ClientRun {
  kind: ClientKind;
  calls: number;
  errors: number;
  ms: number;
  clientCpuUs: number;
  serverCpuUs: number;
}

export interface ClientFigures {
  kind: ClientKind;
  /** Median over rounds. */
  callsPerSec: number;
  clientUsPerCall: number;
  serverUsPerCall: number;
  rounds: ClientRun[];
}

export interface DriverResult {
  sessions: number;
  /** The machine's CPUs, shared by the client under test and the simulator. */
  cores?: number;
  seconds: number;
  rounds: number;
  procedure: string;
  clients: ClientFigures[];
  /** Why the native client has no figures, when it has none. */
  nativeMissing: string | null;
  /** One extra, unmeasured run of ours and of bare tedious under node --cpu-prof: where each one's client CPU goes. */
  profiles?: { kind: 'ours' | 'tedious'; calls: number; clientUsPerCall: number; breakdown: Breakdown }[];
}

export function benchTarget(port: number, database = LAB_DB): DbTarget {
  return {
    server: '127.0.0.1',
    port,
    database,
    user: 'sa',
    password: BENCH_SIM_PASSWORD,
    authentication: 'sql',
    encrypt: false,
    trustServerCertificate: true,
    connectTimeoutMs: 15_000,
  };
}

/** Creates the lab database and deploys disk-insert (no seed rows) through the engine, as `spinlab run` does. */
export async function deployDiskInsert(port: number): Promise<void> {
  const scenario = getScenario(SCENARIO);
  const params = { ...defaultParameters(scenario), seed_rows: 0, batch_size: BATCH_SIZE };
  await withAdmin(benchTarget(port, 'master'), (admin, identity) =>
    deployScenario(benchTarget(port, 'master'), admin, identity, LAB_DB, scenario, params, () => undefined),
  );
}

// ---- the client roles ----

interface Loop {
  /** Runs the loop on every session until `ms` from now; returns calls and errors. */
  run(ms: number): Promise<{ calls: number; errors: number }>;
  close(): Promise<void>;
}

/** disk-insert's manifest with its client-loop procedure swapped for the benchmark's (same arguments). */
export function benchScenario(): ScenarioManifest {
  const m = getScenario(SCENARIO);
  return { ...m, workload: { ...m.workload, clientLoop: { ...m.workload.clientLoop, procedure: PROCEDURE } } };
}

async function oursLoop(port: number, sessions: number, clientPath: ClientPath = 'lean'): Promise<Loop> {
  const scenario = benchScenario();
  const params = { ...defaultParameters(scenario), seed_rows: 0, batch_size: BATCH_SIZE };
  const failures: PhaseFailure[] = [];
  const ws = await WorkloadSessions.open(benchTarget(port), LAB_DB, sessions, scenario, params, failures, undefined, clientPath);
  if (failures.length) throw new Error(`ours: ${failures[0].message}`);
  return {
    async run(ms) {
      // What a measured client-loop run does in the engine: a LatencyRecorder per run, one phase of `ms`.
      const r = await ws.runPhase(
        { phase: 'measure', mode: 'client-loop', durationMs: ms, rows: null, latency: new LatencyRecorder() },
        new AbortController().signal,
      );
      return { calls: r.calls, errors: r.failures.length };
    },
    close: () => ws.close(),
  };
}

async function poolLoop(port: number, sessions: number, workers: number): Promise<Loop> {
  const scenario = benchScenario();
  const params = { ...defaultParameters(scenario), seed_rows: 0, batch_size: BATCH_SIZE };
  const failures: PhaseFailure[] = [];
  const pool = await ClientWorkerPool.open(
    { kind: 'builtin', target: benchTarget(port), labDatabase: LAB_DB, scenario, params },
    sessions,
    workers,
    failures,
  );
  if (failures.length) throw new Error(`workers${workers}: ${failures[0].message}`);
  return {
    async run(ms) {
      const r = await pool.runPhase(
        { phase: 'measure', mode: 'client-loop', durationMs: ms, rows: null, latency: new LatencyRecorder() },
        new AbortController().signal,
      );
      return { calls: r.calls, errors: r.failures.length };
    },
    close: () => pool.close(),
  };
}

function tediousConnection(port: number): Promise<Connection> {
  const c = new Connection({
    server: '127.0.0.1',
    authentication: { type: 'default', options: { userName: 'sa', password: BENCH_SIM_PASSWORD } },
    options: { port, database: LAB_DB, encrypt: false, trustServerCertificate: true },
  });
  return new Promise((resolve, reject) => c.connect((err) => (err ? reject(err) : resolve(c))));
}

function tediousCall(c: Connection, keyBase: number, offset: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const r = new Request(PROCEDURE, (err) => (err ? reject(err) : resolve()));
    r.addParameter('key_base', TYPES.BigInt, keyBase);
    r.addParameter('offset', TYPES.BigInt, offset);
    r.addParameter('batch_size', TYPES.Int, BATCH_SIZE);
    c.callProcedure(r);
  });
}

async function tediousLoop(port: number, sessions: number): Promise<Loop> {
  const conns = await Promise.all(Array.from({ length: sessions }, () => tediousConnection(port)));
  const offsets = conns.map(() => 0);
  return {
    async run(ms) {
      const end = performance.now() + ms;
      let calls = 0;
      let errors = 0;
      await Promise.all(
        conns.map(async (c, i) => {
          const base = (i + 1) * KEY_BLOCK_SIZE;
          while (performance.now() < end) {
            try {
              await tediousCall(c, base, offsets[i]);
              offsets[i] += BATCH_SIZE;
              calls++;
            } catch {
              errors++;
              break;
            }
          }
        }),
      );
      return { calls, errors };
    },
    async close() {
      for (const c of conns) c.close();
    },
  };
}

async function clientRole(argv: string[]): Promise<void> {
  const opt = (name: string) => argv[argv.indexOf(`--${name}`) + 1];
  const kind = opt('kind') as ClientKind;
  const port = Number(opt('port'));
  const sessions = Number(opt('sessions'));
  const warmupMs = Number(opt('warmup-ms'));
  const workers = workersOf(kind);
  const loop =
    kind === 'ours' || kind === 'ours-driver'
      ? await oursLoop(port, sessions, kind === 'ours' ? 'lean' : 'driver')
      : workers
        ? await poolLoop(port, sessions, workers)
        : await tediousLoop(port, sessions);
  await loop.run(warmupMs);
  toParent({ kind: 'ready' });
  const { ms } = await fromParent<Msg & { ms: number }>('go');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await loop.run(ms);
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  toParent({ kind: 'result', calls: r.calls, errors: r.errors, ms: elapsed, cpuUs: cpuMicros(cpu) });
  await loop.close();
  await fromParent('stop');
  process.exit(0);
}

// ---- the parent ----

export interface DriverOptions {
  sessions: number;
  seconds: number;
  rounds: number;
  warmupMs: number;
  log: (s: string) => void;
  /** Write a V8 CPU profile of each Node client here (node --cpu-prof). */
  profileDir?: string;
  /** Also run ours on 1 and 2 client worker threads (default true). */
  workers?: boolean;
  /** After the rounds, profile ours and bare tedious once each (default true). */
  profile?: boolean;
}

async function simCpu(sim: ReturnType<typeof forkRole>): Promise<number> {
  sim.send({ kind: 'cpu' });
  const c = await next<Msg & { user: number; system: number }>(sim, 'cpu');
  return c.user + c.system;
}

async function nodeClient(
  kind: Exclude<ClientKind, 'native'>,
  sim: ReturnType<typeof forkRole>,
  port: number,
  o: DriverOptions,
  profileFile?: string,
): Promise<ClientRun> {
  const prof = profileFile
    ? { dir: path.dirname(profileFile), name: path.basename(profileFile) }
    : o.profileDir
      ? { dir: o.profileDir, name: `${kind}-${Date.now()}.cpuprofile` }
      : null;
  const child = forkRole(
    path.join(__dirname, 'driver.js'),
    ['client', '--kind', kind, '--port', String(port), '--sessions', String(o.sessions), '--warmup-ms', String(o.warmupMs)],
    prof ? ['--cpu-prof', `--cpu-prof-dir=${prof.dir}`, `--cpu-prof-name=${prof.name}`] : [],
  );
  try {
    await next(child, 'ready');
    const s0 = await simCpu(sim);
    child.send({ kind: 'go', ms: o.seconds * 1000 });
    const r = await next<Msg & { calls: number; errors: number; ms: number; cpuUs: number }>(child, 'result', o.seconds * 1000 + 60_000);
    const s1 = await simCpu(sim);
    return { kind, calls: r.calls, errors: r.errors, ms: r.ms, clientCpuUs: r.cpuUs, serverCpuUs: s1 - s0 };
  } finally {
    await stopChild(child);
  }
}

export function figuresOf(kind: ClientKind, runs: ClientRun[]): ClientFigures {
  return {
    kind,
    callsPerSec: median(runs.map((r) => (r.calls * 1000) / r.ms)),
    clientUsPerCall: median(runs.map((r) => r.clientCpuUs / Math.max(1, r.calls))),
    serverUsPerCall: median(runs.map((r) => r.serverCpuUs / Math.max(1, r.calls))),
    rounds: runs,
  };
}

export async function benchDriver(o: DriverOptions): Promise<DriverResult> {
  const native = buildNative(o.log);
  if ('missing' in native) o.log(`driver: native client not built: ${native.missing}`);
  const sim = forkRole(path.join(__dirname, 'simProcess.js'), []);
  try {
    const { port } = await next<Msg & { port: number }>(sim, 'listening');
    await deployDiskInsert(port);
    sim.send({ kind: 'bench-procedure', database: LAB_DB });
    await next(sim, 'bench-procedure');
    const kinds: ClientKind[] = [
      'ours',
      'ours-driver',
      'tedious',
      ...('binary' in native ? ['native' as const] : []),
      ...(o.workers === false ? [] : (['workers1', 'workers2', 'workers1-paced', 'workers2-paced'] as const)),
    ];
    const runs = new Map<ClientKind, ClientRun[]>(kinds.map((k) => [k, []]));
    for (let round = 0; round < o.rounds; round++) {
      // Rotate the order each round so no client always runs first (after the simulator idled) or last.
      const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]);
      for (const kind of order) {
        let run: ClientRun;
        if (kind === 'native') {
          let s0 = 0;
          const r = await runNative(
            (native as { binary: string }).binary,
            port,
            LAB_DB,
            PROCEDURE,
            o.sessions,
            o.warmupMs,
            o.seconds * 1000,
            async () => {
              s0 = await simCpu(sim);
            },
          );
          const s1 = await simCpu(sim);
          run = { kind, calls: r.calls, errors: r.errors, ms: r.ms, clientCpuUs: r.cpuUs, serverCpuUs: s1 - s0 };
        } else if (isPaced(kind)) {
          await setReplyDelay(sim, PACE_REPLY_DELAY_MS);
          try {
            run = await nodeClient(kind, sim, port, o);
          } finally {
            await setReplyDelay(sim, 0);
          }
        } else {
          run = await nodeClient(kind, sim, port, o);
        }
        runs.get(kind)!.push(run);
        o.log(
          `driver: round ${round + 1}/${o.rounds} ${kind.padEnd(14)} ${Math.round((run.calls * 1000) / run.ms)} calls/s, ` +
            `client ${(run.clientCpuUs / Math.max(1, run.calls)).toFixed(1)} us/call, simulator ${(run.serverCpuUs / Math.max(1, run.calls)).toFixed(1)} us/call` +
            (run.errors ? `, ${run.errors} errors` : ''),
        );
      }
    }
    const profiles: NonNullable<DriverResult['profiles']> = [];
    if (o.profile !== false) {
      // Not in the figures above: profiling slows the client. Its shares, applied to this run's measured CPU per call.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-cpuprof-'));
      for (const kind of ['ours', 'tedious'] as const) {
        const file = path.join(dir, `${kind}.cpuprofile`);
        const run = await nodeClient(kind, sim, port, o, file);
        profiles.push({
          kind,
          calls: run.calls,
          clientUsPerCall: run.clientCpuUs / Math.max(1, run.calls),
          breakdown: summariseFile(file),
        });
        o.log(`driver: profiled ${kind}: ${file}`);
      }
    }
    return {
      sessions: o.sessions,
      cores: os.cpus().length,
      seconds: o.seconds,
      rounds: o.rounds,
      procedure: PROCEDURE,
      clients: kinds.map((k) => figuresOf(k, runs.get(k)!)),
      nativeMissing: 'missing' in native ? native.missing : null,
      ...(profiles.length ? { profiles } : {}),
    };
  } finally {
    await stopChild(sim);
  }
}

if (require.main === module) {
  const role = process.argv[2];
  if (role === 'client') runRole(() => clientRole(process.argv.slice(3)));
  else {
    // Standalone: node out/bench/driver.js [--sessions 16] [--seconds 5] [--rounds 1]
    const a = (n: string, d: number) => (process.argv.includes(`--${n}`) ? Number(process.argv[process.argv.indexOf(`--${n}`) + 1]) : d);
    benchDriver({
      sessions: a('sessions', 16),
      seconds: a('seconds', 5),
      rounds: a('rounds', 1),
      warmupMs: a('warmup-ms', 1000),
      log: console.log,
      profileDir: process.argv.includes('--profile') ? process.argv[process.argv.indexOf('--profile') + 1] : undefined,
    })
      .then((r) =>
        console.log(
          JSON.stringify(
            r.clients.map(({ rounds: _r, ...f }) => f),
            null,
            2,
          ),
        ),
      )
      .catch((e) => {
        console.error(e);
        process.exit(1);
      });
  }
}
