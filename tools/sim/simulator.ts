// The Spinlock Lab simulator: the TDS wire layer (tds/) in front of the simulated instance (model/). It is NOT a
// SQL Server: every number it serves is synthetic, produced by model/contention.ts from rules taken from the seed
// posts. `startSimulator` is the in-process API (tests, `spinlab demo`); `runSimCommand` is `spinlab sim`.
import { randomBytes } from 'node:crypto';
import { Command, InvalidArgumentError } from 'commander';
import { TdsServer } from './tds';
import { ModelHandler } from './model/handler';
import { SessionLayer } from './session/layer';
import { LoginSpec, ModelOptions, Permission, SimModel } from './model/instance';
import type { LoginFault, StatementFault } from './model/faults';
import { BackgroundSpec, parseBackground, startBackground } from './model/background';
import { parsePlatform, type Platform } from './model/platform';
import { parseUptime } from './model/uptime';
import { DIP_EVERY_S, parseNoise, PAUSE_MS } from './model/noise';
import { DEFAULT_SEED, instanceName, instancesProblem } from './instances';

export interface SimulatorOptions extends Omit<ModelOptions, 'password'> {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only: '127.0.0.1' (default) or '::1'. */
  host?: '127.0.0.1' | '::1';
  /** Password of the sa login; generated when omitted. */
  password?: string;
  /** Where the wire layer logs (default: stderr). */
  log?: (line: string) => void;
  /** The simulator's own synthetic workload (`--background disk-insert:8`). */
  background?: BackgroundSpec[];
}

export interface SimulatorFaults {
  /** Make a procedure (by name) or a batch ('custom/<its text>') answer with this error. */
  failStatement(target: string, fault: StatementFault): void;
  /** Make any of these batches (by text: a test passes a product file's batches) answer with this error. */
  failBatches(texts: readonly string[], fault: StatementFault): void;
  /** Refuse the next logins (fault.times of them; to fault.database only, when given) with this error. */
  failLogins(fault: LoginFault): void;
  clearFailures(target?: string): void;
  /**
   * An instance restart as clients see it: every session dropped, counters, sqlserver_start_time and ms_ticks reset,
   * affinity back to its startup value; databases, objects and delayed durability (database settings) kept.
   * Returns how many sessions were dropped.
   */
  restart(): number;
  dropSession(spid: number, afterMs?: number): boolean;
  refuseConnections(refuse: boolean): Promise<void>;
  setResponseDelay(ms: number): void;
}

export interface Simulator {
  readonly host: string;
  readonly port: number;
  readonly password: string;
  /** ADO.NET style, with the real password: for the process that started the simulator only. */
  readonly connectionString: string;
  /** The same with the password masked, for logs and banners seen by others. */
  readonly redactedConnectionString: string;
  readonly model: SimModel;
  readonly handler: ModelHandler;
  readonly server: TdsServer;
  readonly faults: SimulatorFaults;
  close(): Promise<void>;
}

export function generatePassword(): string {
  return `Sim-${randomBytes(9).toString('base64url')}1!`;
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const host = opts.host ?? '127.0.0.1';
  if (host !== '127.0.0.1' && host !== '::1') throw new Error('the simulator listens on loopback only (127.0.0.1 or ::1)');
  const password = opts.password ?? generatePassword();
  const model = new SimModel({ ...opts, password });
  const handler = new ModelHandler(model);
  const isSysadmin = (login: string) => model.logins.get(login.toLowerCase())?.permissions === 'all';
  const [major, , build] = model.versionInfo.build.split('.').map(Number);
  const server = new TdsServer({
    host,
    port: opts.port ?? 0,
    handler: new SessionLayer(handler, isSysadmin),
    serverName: model.serverName,
    productVersion: { major, minor: 0, build },
    log: opts.log,
  });
  model.connections = {
    list: () =>
      server
        .sessions()
        .map((s) => ({ spid: s.spid, database: s.database, hostName: s.hostName, appName: s.appName, clientPid: s.clientPid })),
    kill: (spid) => server.faults.dropSession(spid, 0),
  };
  const addr = await server.listen();
  const stopBackground = startBackground(model, opts.background ?? []);
  const cs = (pw: string) =>
    `Server=${host === '::1' ? '[::1]' : host},${addr.port};User Id=sa;Password=${pw};Encrypt=false;TrustServerCertificate=true`;
  let closed = false;
  return {
    host,
    port: addr.port,
    password,
    model,
    handler,
    server,
    connectionString: cs(password),
    redactedConnectionString: cs('********'),
    faults: {
      failStatement: (t, f) => handler.faults.failStatement(t, f),
      failBatches: (t, f) => handler.faults.failBatches(t, f),
      failLogins: (f) => handler.faults.failLogins(f),
      clearFailures: (t) => handler.faults.clear(t),
      restart: () => {
        const dropped = server.faults.dropAll();
        model.restart();
        return dropped;
      },
      dropSession: (spid, afterMs) => server.faults.dropSession(spid, afterMs),
      refuseConnections: (r) => server.faults.refuseConnections(r),
      setResponseDelay: (ms) => server.faults.setResponseDelay(ms),
    },
    async close() {
      if (closed) return;
      closed = true;
      stopBackground();
      model.workloads.abortAll();
      await server.close();
    },
  };
}

/**
 * `--instances`: n simulators in this process, the i-th on port + i (any free port each when port is 0), named by
 * instanceName and seeded with seed + i so their numbers differ. When one cannot start, those already started are
 * closed and its error thrown, with the port it was for.
 */
export async function startInstances(n: number, opts: SimulatorOptions & { port: number }): Promise<Simulator[]> {
  const problem = instancesProblem(n, opts.port);
  if (problem) throw new Error(problem);
  const started: Simulator[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const port = opts.port === 0 ? 0 : opts.port + i;
      const seed = n === 1 ? opts.seed : (opts.seed ?? DEFAULT_SEED) + i;
      started.push(
        await startSimulator({ ...opts, port, seed, serverName: instanceName(opts.serverName ?? 'SPINLAB-SIM', i, n) }).catch(
          (e: Error) => {
            throw Object.assign(e, { port });
          },
        ),
      );
    }
  } catch (e) {
    await Promise.all(started.map((s) => s.close()));
    throw e;
  }
  return started;
}

const PERMISSIONS: Permission[] = [
  'CONTROL SERVER',
  'VIEW SERVER STATE',
  'VIEW SERVER PERFORMANCE STATE',
  'ALTER SETTINGS',
  'ALTER SERVER STATE',
  'VIEW DATABASE STATE',
  'VIEW DATABASE PERFORMANCE STATE',
  'CREATE ANY DATABASE',
  'ALTER ANY DATABASE',
  'ALTER ANY EVENT SESSION',
];

/** 'name:password' (no permissions) or 'name:password:VIEW SERVER STATE,ALTER SETTINGS' or 'name:password:all'. */
export function parseLogin(spec: string): LoginSpec {
  const [name, password, perms] = spec.split(':');
  if (!name || password === undefined) throw new InvalidArgumentError(`login must be NAME:PASSWORD[:PERM,PERM], not '${spec}'`);
  if (perms === 'all') return { name, password, permissions: 'all' };
  const list = (perms ?? '')
    .split(',')
    .map((p) => p.trim().toUpperCase())
    .filter(Boolean);
  for (const p of list)
    if (!PERMISSIONS.includes(p as Permission))
      throw new InvalidArgumentError(`unknown permission '${p}' (one of: ${PERMISSIONS.join(', ')})`);
  return { name, password, permissions: list as Permission[] };
}

/** `spinlab sim [--port 14330] [--password PW] [--topology 2x10x2] [--version 16] ...`: runs until Ctrl+C / SIGTERM. */
export async function runSimCommand(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  const int = (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n)) throw new InvalidArgumentError('not an integer');
    return n;
  };
  const program = new Command('spinlab sim')
    .description('Start the Spinlock Lab TDS simulator on loopback: NOT a SQL Server, every number is synthetic.')
    .option('--port <port>', 'TCP port (0 = any free port)', int, 14330)
    .option(
      '--instances <n>',
      `serve n instances from this one process, each its own model and server name (${instanceName('SPINLAB-SIM', 0, 2)}, ${instanceName('SPINLAB-SIM', 1, 2)}, ...; ${instanceName('SPINLAB-SIM', 0, 10)}, ... from 10), on n consecutive ports from --port (any free ports with --port 0)`,
      int,
      1,
    )
    .option('--password <password>', 'password of the sa login (default: SPINLAB_SIM_PASSWORD, else generated)')
    .option('--topology <SxCxT>', 'sockets x cores per socket x threads per core', '2x10x2')
    .option('--soft-numa', 'split sockets of more than 8 cores into soft-NUMA nodes, as SQL Server 2016+ does automatically')
    .option(
      '--platform <platform>',
      'box (SQL Server, the default) or managed-instance (Azure SQL Managed Instance: EngineEdition 8, version 12.x, the newest engine)',
      'box',
    )
    .option('--version <major>', 'SQL Server major version to imitate, 13 (2016) to 17 (2025); default 16 (SQL Server only)', int)
    .option('--memory-model <model>', 'CONVENTIONAL, LOCK_PAGES or LARGE_PAGES (read-only)', 'CONVENTIONAL')
    .option('--trace-flags <list>', 'global trace flags to report, e.g. 1117,8008 (read-only)', '')
    .option('--clock-ghz <ghz>', 'clock rate behind cpu_ticks', (v) => Number(v), 2.4)
    .option(
      '--login <spec>',
      'extra login NAME:PASSWORD[:PERM,PERM|all] (repeatable)',
      (v, acc: LoginSpec[]) => [...acc, parseLogin(v)],
      [] as LoginSpec[],
    )
    .option('--seed <n>', 'noise seed (the per-step jitter and --noise)', int)
    .option(
      '--noise <percent>',
      `noise on purpose, e.g. 10% (seeded by --seed; synthetic): (1) run-to-run spread: each burst of load (workload sessions ` +
        `starting while none was active, a session idle for ${PAUSE_MS / 1000} s no longer counting: so each run) draws a ` +
        `lognormal throughput factor with mean 1 and that coefficient of variation, held for the burst; (2) slow drift: +-0.3x the noise over a period of 3-7 minutes; ` +
        `(3) steps: a dip of 3-5x the noise (30-50% at 10%, at most 80%) for 1-2 s, on average once per ${DIP_EVERY_S} s. ` +
        `Counts per second (rows, transactions, spins, waits, log) follow the factor; CPU busy and wait time per second do not. ` +
        `A client loop or custom workload can only be slowed: factors above 1 count as 1 there. Default: off`,
      (v) => {
        try {
          return parseNoise(v);
        } catch (e) {
          throw new InvalidArgumentError((e as Error).message);
        }
      },
    )
    .option(
      '--uptime <duration>',
      "how long the instance has been up, e.g. 400d, 12h, 30m: its start time that far back and a busy server's counters (past 2^31 where that long makes them)",
      (v) => {
        try {
          return parseUptime(v);
        } catch (e) {
          throw new InvalidArgumentError((e as Error).message);
        }
      },
    )
    .option(
      '--watcher-cost-ms <ms>',
      'extra server CPU (ms) charged to each batch that reads sys.dm_os_spinlock_stats (a monitor tick), to see the watch keep to its budget',
      (v) => Number(v),
      0,
    )
    .option(
      '--background <scenario:sessions>',
      "a synthetic workload of the simulator's own, e.g. disk-insert:8 (repeatable)",
      (v, acc: BackgroundSpec[]) => {
        try {
          return [...acc, parseBackground(v)];
        } catch (e) {
          throw new InvalidArgumentError((e as Error).message);
        }
      },
      [] as BackgroundSpec[],
    )
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: out });
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    const code = (e as { exitCode?: number }).exitCode;
    return code === 0 ? 0 : 2;
  }
  const o = program.opts();
  const mm = String(o.memoryModel).toUpperCase();
  if (!['CONVENTIONAL', 'LOCK_PAGES', 'LARGE_PAGES'].includes(mm)) {
    out(`--memory-model must be CONVENTIONAL, LOCK_PAGES or LARGE_PAGES\n`);
    return 2;
  }
  let platform: Platform;
  try {
    platform = parsePlatform(String(o.platform));
  } catch (e) {
    out(`${(e as Error).message}\n`);
    return 2;
  }
  if (platform === 'managed-instance' && o.version !== undefined) {
    out('--version does not apply to --platform managed-instance: a Managed Instance runs the newest engine and reports 12.x\n');
    return 2;
  }
  const problem = instancesProblem(o.instances, o.port);
  if (problem) {
    out(`spinlab sim: ${problem}.\n`);
    return 2;
  }
  const envPw = process.env.SPINLAB_SIM_PASSWORD;
  const password: string = o.password ?? envPw ?? generatePassword();
  let sims: Simulator[];
  try {
    sims = await startInstances(o.instances, {
      port: o.port,
      password,
      topology: o.topology,
      softNuma: !!o.softNuma,
      version: o.version,
      platform,
      memoryModel: mm as 'CONVENTIONAL',
      traceFlags: String(o.traceFlags).split(',').filter(Boolean).map(Number),
      clockHz: o.clockGhz * 1e9,
      logins: o.login,
      seed: o.seed,
      noise: o.noise,
      background: o.background,
      uptimeMs: o.uptime,
      watcherCostMs: o.watcherCostMs,
    });
  } catch (e) {
    const inUse = (e as NodeJS.ErrnoException).code === 'EADDRINUSE';
    const port = (e as { port?: number }).port ?? o.port;
    out(
      inUse
        ? `spinlab sim: port ${port} on 127.0.0.1 is in use (another simulator, or a SQL Server?); give another --port, or --port 0 for any free one.\n`
        : `spinlab sim: ${(e as Error).message}\n`,
    );
    // A port another program holds is a resource of this machine: exit 5, as every spinlab listener says it.
    return inUse ? 5 : 1;
  }
  const sim = sims[0];
  const m = sim.model;
  out(
    [
      '',
      '  SPINLOCK LAB SIMULATOR: not a SQL Server. Every number it serves is synthetic.',
      `  Imitates ${m.versionInfo.name} (${m.versionInfo.build}) on ${m.machine.shape.sockets} sockets x ${m.machine.shape.coresPerSocket} cores x ${m.machine.shape.threadsPerCore} threads = ${m.machine.cpuCount} CPUs, ${m.machine.nodeCount} NUMA nodes.`,
      ...(sims.length === 1
        ? [`  Listening on ${sim.host}:${sim.port} (loopback only).`]
        : [
            `  ${sims.length} instances, each its own model, counters and server name, on loopback only (the same sa password):`,
            ...sims.map((s) => `    ${s.model.serverName} listening on ${s.host}:${s.port}`),
          ]),
      ...(o.uptime ? [`  Up since ${m.startTime.toISOString()} (--uptime): counters as a busy server's after that long (synthetic).`] : []),
      ...(m.noise
        ? [
            `  NOISE ON (--noise ${Math.round(m.noise.cv * 1000) / 10}%, seed ${o.seed ?? 'the default'}): synthetic run-to-run spread, drift and dips, added on purpose.`,
          ]
        : []),
      ...(o.background.length
        ? [
            `  Background workload (synthetic): ${o.background.map((b: BackgroundSpec) => `${b.scenario} x ${b.sessions} sessions`).join(', ')} in [SpinlabSimBackground]${sims.length > 1 ? ', in each instance' : ''}.`,
          ]
        : []),
      `  Connection string${sims.length > 1 ? ' (of the first; the others differ by port)' : ''}: ${sim.connectionString}`,
      o.password || envPw ? '' : `  (generated password for sa: ${password})`,
      '  Ctrl+C stops it.',
      '',
    ].join('\n') + '\n',
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await Promise.all(sims.map((s) => s.close()));
  out(`Spinlock Lab simulator stopped${sims.length > 1 ? ` (${sims.length} instances)` : ''}.\n`);
  return 0;
}
