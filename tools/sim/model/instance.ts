// The simulated SQL Server instance: its configuration, the state the product's statements change (databases,
// objects, affinity, delayed durability), logins, sessions, and the counters the contention model drives.
import type { TableData } from './tableData';
import type { ParamDef } from './paramDef';
import { Clock, realClock, rng } from './clock';
import { computeRates, emptyRates, noiseAmplitude, Rates, WorkloadProfile } from './contention';
import { dilate, LoadNoise } from './noise';
import { CounterStore } from './counters';
import { placeTask } from './placement';
import { Affinity, autoAffinity, Machine, parseAffinity, parseShape, DEFAULT_SHAPE } from './topology';
import { WorkloadResult, WorkloadRunner } from './workloads';
import { ClientCall, ClientLoop } from './clientloop';
import { XeState } from './xe';
import { addBusyHistory } from './uptime';
import type { ResponseItem, SessionContext, RpcParam } from '../tds/contract';
import { MANAGED_INSTANCE, MANAGED_INSTANCE_FEATURE_VERSION, physicalDatabaseName, VERSIONS, type Platform } from './platform';

export type Permission =
  | 'CONTROL SERVER'
  | 'ALTER ANY CONNECTION'
  | 'VIEW SERVER STATE'
  | 'VIEW SERVER PERFORMANCE STATE'
  | 'ALTER SETTINGS'
  | 'ALTER SERVER STATE'
  | 'VIEW DATABASE STATE'
  | 'VIEW DATABASE PERFORMANCE STATE'
  | 'CREATE ANY DATABASE'
  | 'ALTER ANY DATABASE'
  | 'ALTER ANY EVENT SESSION'
  // SQL Server 2022's finer event-session permissions (each covered by ALTER ANY EVENT SESSION).
  | 'CREATE ANY EVENT SESSION'
  | 'DROP ANY EVENT SESSION'
  | 'ALTER ANY EVENT SESSION ENABLE'
  | 'ALTER ANY EVENT SESSION DISABLE';

export interface LoginSpec {
  name: string;
  password: string;
  /** 'all' = sysadmin. */
  permissions: Permission[] | 'all';
}

export interface ModelOptions {
  /** Major version 13-17 (2016-2025); default 16 (SQL Server 2022). SQL Server only: a Managed Instance has none to choose. */
  version?: number;
  /** SQL Server ('box', the default) or Azure SQL Managed Instance (model/platform.ts). */
  platform?: Platform;
  /** SOCKETSxCORESxTHREADS, default 2x10x2. */
  topology?: string;
  /** Automatic soft-NUMA as SQL Server 2016+ does it (sockets of more than 8 cores split); default off. */
  softNuma?: boolean;
  /** Clock rate behind cpu_ticks, default 2.4 GHz. */
  clockHz?: number;
  memoryModel?: 'CONVENTIONAL' | 'LOCK_PAGES' | 'LARGE_PAGES';
  traceFlags?: number[];
  /** Password of the default login sa (sysadmin). */
  password?: string;
  /** More logins; a login named sa here replaces the default. */
  logins?: LoginSpec[];
  serverName?: string;
  seed?: number;
  clock?: Clock;
  /** How long the instance has been up when the simulator starts (ms; default 0): a busy server's counters that long. */
  uptimeMs?: number;
  /** Extra CPU (ms) each monitor tick batch costs its session, to make the watcher expensive in tests; default 0. */
  watcherCostMs?: number;
  /** Noise on purpose (--noise, model/noise.ts): the coefficient of variation of run-to-run throughput, e.g. 0.1. */
  noise?: number;
}

export interface ProcCall {
  model: SimModel;
  session: SessionContext;
  db: Database;
  params: Map<string, RpcParam>;
  signal: AbortSignal;
}

export interface SimObject {
  name: string; // 'dbo.x'
  type: 'U' | 'P' | 'SO' | 'FN';
  objectId: number;
  createDate: Date;
  memoryOptimized?: boolean;
  durability?: 'SCHEMA_AND_DATA' | 'SCHEMA_ONLY';
  /** sys.objects.is_ms_shipped: a table SQL Server's own tools made in a user database (dbo.sysdiagrams). */
  msShipped?: boolean;
  nativelyCompiled?: boolean;
  /** For procedures: the declared parameters, in order (positional binding, Msg 201/8144/8145). */
  params?: ParamDef[];
  /** For procedures: what calling it does. */
  run?: (call: ProcCall) => Promise<ResponseItem[]>;
  /** Scenario facts a procedure needs at run time (e.g. where a ring buffer takes its slot numbers). */
  meta?: Record<string, string>;
  /** For sequences. */
  nextValue?: bigint;
  /** For tables created by DDL: columns, keys and rows (tableData.ts). */
  data?: TableData;
}

export interface Database {
  id: number;
  name: string;
  createDate: Date;
  recovery: 'FULL' | 'SIMPLE';
  delayedDurability: 'DISABLED' | 'ALLOWED' | 'FORCED';
  properties: Map<string, string>;
  hasXtpFilegroup: boolean;
  /** sys.databases.physical_database_name: a GUID for a user database on Managed Instance (its counters' instance_name). */
  physicalName: string;
  objects: Map<string, SimObject>;
  /** The login that created it (its dbo, holding every permission in it); undefined: sa's. */
  owner?: string;
}

/** A session of the simulator's own workload (--background, model/background.ts). */
export interface BackgroundSession {
  spid: number;
  scenario: string;
  database: string;
  /** The statement the session is "running", for sys.dm_exec_requests / sys.dm_exec_sql_text. */
  text: string;
  startedAt: Date;
}

/** A signed-in wire session as the server lists it (sys.dm_exec_sessions' client columns). */
export interface LiveConnection {
  spid: number;
  database: string;
  hostName?: string;
  appName?: string;
  clientPid?: number;
}

export interface SessionInfo {
  spid: number;
  login: string;
  nodeSlot: number;
  loginTime: Date;
}

export class SimModel {
  /** The SQL Server major version whose features and permissions the model has (the newest on Managed Instance). */
  readonly version: number;
  readonly platform: Platform;
  readonly machine: Machine;
  readonly clockHz: number;
  /** Extra CPU (ms) charged to the session of each batch that reads sys.dm_os_spinlock_stats (--watcher-cost-ms). */
  readonly watcherCostMs: number;
  readonly memoryModel: 'CONVENTIONAL' | 'LOCK_PAGES' | 'LARGE_PAGES';
  readonly traceFlags: number[];
  readonly serverName: string;
  readonly clock: Clock;
  readonly counters: CounterStore;
  readonly workloads: WorkloadRunner;
  /** Sessions calling one short workload call per transaction (the client loop). */
  readonly clientLoop: ClientLoop;
  readonly logins = new Map<string, LoginSpec>();
  readonly sessions = new Map<number, SessionInfo>();
  readonly databases = new Map<string, Database>();
  /** The simulator's own workload sessions (--background), by spid. */
  readonly background = new Map<number, BackgroundSession>();
  /** Extended Events sessions (model/xe.ts). */
  readonly xe = new XeState();
  /** Run-to-run spread, drift and steps on purpose (--noise); null without it. */
  readonly noise: LoadNoise | null;
  /** The wire sessions (set by the simulator): their current databases, and ending one (KILL, SINGLE_USER). */
  connections: { list(): LiveConnection[]; kill(spid: number): boolean } = { list: () => [], kill: () => false };
  affinity: Affinity;
  /** What the affinity was at startup: a restart goes back to it (the configured value, as SQL Server reads it). */
  startupAffinity: Affinity;
  startTime!: Date;
  private startMs = 0;
  private lastAdvance = 0;
  private rates: Rates | null = null;
  private nextObjectId = 1_000_000_000;
  private nextDbId = 5;
  private nodeSlots = 0;
  private rand: () => number;

  constructor(opts: ModelOptions = {}) {
    this.platform = opts.platform ?? 'box';
    if (this.platform === 'managed-instance' && opts.version !== undefined)
      throw new Error('a Managed Instance has no version to choose: it runs the newest engine');
    this.version = this.platform === 'managed-instance' ? MANAGED_INSTANCE_FEATURE_VERSION : (opts.version ?? 16);
    if (!VERSIONS[this.version]) throw new Error(`version must be 13 to 17 (2016 to 2025), not ${opts.version}`);
    this.machine = new Machine(opts.topology ? parseShape(opts.topology) : DEFAULT_SHAPE, opts.softNuma ?? false);
    this.clockHz = opts.clockHz ?? 2.4e9;
    this.watcherCostMs = opts.watcherCostMs ?? 0;
    this.memoryModel = opts.memoryModel ?? 'CONVENTIONAL';
    this.traceFlags = [...(opts.traceFlags ?? [])].sort((a, b) => a - b);
    this.serverName = opts.serverName ?? 'SPINLAB-SIM';
    this.clock = opts.clock ?? realClock;
    this.rand = rng(opts.seed ?? 20150101);
    this.noise = opts.noise ? new LoadNoise(opts.noise, opts.seed ?? 20150101, this.clock.now()) : null;
    this.counters = new CounterStore(this.rand);
    this.logins.set('sa', { name: 'sa', password: opts.password ?? '', permissions: 'all' });
    for (const l of opts.logins ?? []) this.logins.set(l.name.toLowerCase(), l);
    this.affinity = autoAffinity(this.machine);
    this.startupAffinity = this.affinity;
    const uptimeMs = opts.uptimeMs ?? 0;
    for (const [i, name] of ['master', 'tempdb', 'model', 'msdb'].entries()) {
      this.databases.set(name, this.newDb(i + 1, name, new Date(this.clock.now() - uptimeMs - 86_400_000 * 30)));
    }
    this.workloads = new WorkloadRunner({
      clock: this.clock,
      advance: () => this.advance(),
      ratesChanged: () => this.refreshRates(),
    });
    this.clientLoop = new ClientLoop({
      clock: this.clock,
      place: (spid) => placeTask(this.machine, this.onlineCpus(), this.busyCpus(), this.sessions.get(spid)?.nodeSlot ?? spid),
      advance: () => this.advance(),
      ratesChanged: () => this.refreshRates(),
      rateOf: (id) => this.rates?.workers.get(id),
      countRows: (call, rows) => this.countRows(call, rows),
      noise: () => this.noise,
    });
    this.boot(uptimeMs);
  }

  get versionInfo() {
    return this.managedInstance ? MANAGED_INSTANCE : VERSIONS[this.version];
  }
  get managedInstance(): boolean {
    return this.platform === 'managed-instance';
  }
  /** The major version the server reports (ProductMajorVersion): 12 on Managed Instance. */
  get productMajor(): number {
    return Number(this.versionInfo.build.split('.')[0]);
  }

  private newDb(id: number, name: string, createDate: Date): Database {
    const sys = id <= 4;
    return {
      id,
      name,
      createDate,
      recovery: sys && name !== 'model' ? 'SIMPLE' : 'FULL',
      delayedDurability: 'DISABLED',
      // Managed Instance adds a memory-optimized filegroup (XTP) to every database it creates.
      properties: new Map(),
      hasXtpFilegroup: !sys && this.managedInstance,
      objects: new Map(),
      physicalName: physicalDatabaseName(this.platform, id, name, createDate),
    };
  }

  /**
   * Start (or restart): counters from zero, clocks from zero, a little startup activity; with an uptime, the start lies
   * that far back and the counters hold a busy server's history of that length. tempdb is recreated at every start.
   */
  private boot(uptimeMs = 0): void {
    const now = this.clock.now();
    this.startMs = now - uptimeMs;
    this.startTime = new Date(Math.floor(this.startMs));
    this.lastAdvance = now;
    this.counters.reset();
    this.counters.integrate({ ...emptyRates() }, 30, this.machine.cpuCount, this.onlineCpus());
    if (uptimeMs > 0)
      addBusyHistory(
        this.counters,
        uptimeMs / 1000,
        this.onlineCpus(),
        [...this.databases.values()].map((d) => d.name),
      );
    const tempdb = this.databases.get('tempdb');
    if (tempdb) tempdb.createDate = this.startTime;
  }

  restart(): void {
    this.workloads.abortAll();
    this.clientLoop.drop();
    this.sessions.clear();
    this.xe.restart();
    this.affinity = this.startupAffinity;
    this.rates = null;
    this.boot();
  }

  // ---- time ----
  msTicks(): number {
    return Math.floor(this.clock.now() - this.startMs);
  }
  cpuTicks(): bigint {
    // RDTSC counts from machine boot; the simulated machine booted 90 s before the instance started.
    return BigInt(Math.floor((this.clock.now() - this.startMs + 90_000) * (this.clockHz / 1000)));
  }

  /** Called after each advance with the workload's sessions (spid, model worker id), the rates and the seconds. */
  onAdvanced: ((members: { spid: number; id: number }[], rates: Rates, dt: number) => void) | null = null;

  /** Integrates the rates in force since the last call. */
  advance(): void {
    const [from, now] = [this.lastAdvance, this.clock.now()];
    const dt = (now - from) / 1000;
    this.lastAdvance = now;
    if (dt <= 0) return;
    const rates = dilate(this.rates ?? emptyRates(), this.noise?.dilation(from, now, this.clientLoop.members().length > 0) ?? 1);
    this.counters.integrate(rates, dt, this.machine.cpuCount, this.onlineCpus());
    for (const c of this.workloads.active()) {
      const r = rates.workers.get(c.id);
      if (!r) continue;
      const k = dt * this.counters.noise(noiseAmplitude(c.profile));
      const rows = r.rowsPerSec * k;
      c.rows += rows;
      c.txns += r.txnsPerSec * k;
      this.countRows(c, rows);
    }
    // The modelled waits are the workload sessions' own: each session's sys.dm_exec_session_wait_stats gets its part.
    this.onAdvanced?.(
      [
        ...this.workloads.active().map((c) => ({ spid: c.spid, id: c.id })),
        ...this.clientLoop.members().map((m) => ({ spid: m.spid, id: m.workerId })),
      ],
      rates,
      dt,
    );
  }

  private countRows(c: Pick<ClientCall, 'database' | 'table' | 'profile'>, rows: number): void {
    const ops = this.counters.table(c.database, c.table);
    if (c.profile.operation === 'insert') ops.inserts += rows;
    else ops.updates += rows;
    const io = this.counters.io(c.database);
    io.writes += rows / 400; // lazy writer / checkpoint page writes
    io.bytesWritten += (rows / 400) * 65536;
    io.writeStallMs += (rows / 400) * 0.2;
  }

  /** CPUs of every workload call running now: server-loop calls and client-loop sessions. */
  private busyCpus(): number[] {
    return [...this.workloads.active().map((c) => c.placement.cpu), ...this.clientLoop.members().map((m) => m.placement.cpu)];
  }

  /** Recomputes the modelled rates (the active set or a setting that feeds the model changed). */
  refreshRates(): void {
    const calls = this.workloads.active();
    const dd = (db: string) => this.databases.get(db.toLowerCase())?.delayedDurability ?? 'DISABLED';
    this.rates = computeRates(
      [
        ...calls.map((c) => ({
          id: c.id,
          profile: c.profile,
          cpu: c.placement.cpu,
          node: c.placement.node,
          database: c.database,
          delayedDurability: dd(c.database),
        })),
        ...this.clientLoop.members().map((m) => ({
          id: m.workerId,
          profile: m.profile,
          cpu: m.placement.cpu,
          node: m.placement.node,
          database: m.database,
          delayedDurability: dd(m.database),
          thinkUs: m.thinkUs,
        })),
      ],
      { machine: this.machine, logWriterNode: 0 },
    );
    const busy = [...calls.map((c) => c.spid), ...this.clientLoop.members().map((m) => m.spid)];
    this.noise?.observe(this.clock.now(), busy);
    for (const c of calls) c.rate = (this.rates.workers.get(c.id)?.rowsPerSec ?? 0) * (this.noise?.factor(this.clock.now()) ?? 1);
  }

  /** Current modelled rates (for tests and the banner). */
  currentRates(): Rates {
    return this.rates ?? emptyRates();
  }

  // ---- sessions, logins, permissions ----
  login(user: string, password: string): LoginSpec | null {
    const l = this.logins.get(user.toLowerCase());
    return l && l.password === password ? l : null;
  }
  sessionStarted(spid: number, login: string): void {
    this.sessions.set(spid, { spid, login, nodeSlot: this.nodeSlots++, loginTime: new Date(this.clock.now()) });
  }
  sessionEnded(spid: number): void {
    this.sessions.delete(spid);
    this.clientLoop.drop(spid);
    this.noise?.forget(spid);
  }
  hasPermission(login: string, perm: Permission): boolean {
    const l = this.logins.get(login.toLowerCase());
    if (!l) return false;
    if (l.permissions === 'all' || l.permissions.includes('CONTROL SERVER')) return true;
    if (l.permissions.includes(perm)) return true;
    // The 2022 performance-state permissions are covered by the broader state permissions.
    if (perm === 'VIEW SERVER PERFORMANCE STATE') return l.permissions.includes('VIEW SERVER STATE');
    if (perm === 'VIEW DATABASE PERFORMANCE STATE')
      return l.permissions.includes('VIEW DATABASE STATE') || this.hasPermission(login, 'VIEW SERVER STATE');
    if (perm === 'VIEW DATABASE STATE') return l.permissions.includes('VIEW SERVER STATE');
    // SQL Server 2022's event-session permissions are each covered by ALTER ANY EVENT SESSION.
    if (/^(CREATE|DROP) ANY EVENT SESSION$|^ALTER ANY EVENT SESSION /.test(perm)) return l.permissions.includes('ALTER ANY EVENT SESSION');
    return false;
  }
  /** Whether the login may read server DMVs on this version. */
  canViewServerState(login: string): boolean {
    return this.hasPermission(login, this.version >= 16 ? 'VIEW SERVER PERFORMANCE STATE' : 'VIEW SERVER STATE');
  }

  // ---- databases and objects ----
  database(name: string): Database | undefined {
    return this.databases.get(name.toLowerCase());
  }
  createDatabase(name: string): Database {
    const db = this.newDb(this.nextDbId++, name, new Date(this.clock.now()));
    this.databases.set(name.toLowerCase(), db);
    return db;
  }
  dropDatabase(name: string): void {
    this.databases.delete(name.toLowerCase());
  }
  databaseById(id: number): Database | undefined {
    return [...this.databases.values()].find((d) => d.id === id);
  }
  addObject(db: Database, obj: Omit<SimObject, 'objectId' | 'createDate'>): SimObject {
    const o: SimObject = { ...obj, objectId: this.nextObjectId++, createDate: new Date(this.clock.now()) };
    db.objects.set(normaliseObjectName(obj.name), o);
    return o;
  }
  findObject(db: Database, name: string): SimObject | undefined {
    return db.objects.get(normaliseObjectName(name));
  }

  // ---- affinity ----
  onlineCpus(): number[] {
    return this.affinity.cpus;
  }
  /** Applies 'CPU = ...' / 'NUMANODE = ...'; throws AffinityError on bad ids. Running calls keep their CPUs. */
  setAffinity(spec: string): void {
    this.affinity = parseAffinity(spec, this.machine);
    this.affinityForm = /^\s*NUMANODE/i.test(spec) ? 'NUMANODE' : /AUTO/i.test(spec) ? 'AUTO' : 'CPU';
  }
  /** How the affinity in force was set (SQL Server keeps this to itself: no DMV shows it; tests read it here). */
  affinityForm: 'AUTO' | 'CPU' | 'NUMANODE' = 'AUTO';

  /** A session's CPU so far (ms): model/custom.ts's count, installed by the handler (custom.ts imports this file). */
  cpuUsedMs: (spid: number) => number = () => 0;
  /** A test's armed failure for a procedure call, by name (the handler's ModelFaults, installed by it); null: none. */
  procedureFault: (procName: string) => ResponseItem | null = () => null;

  // ---- workloads ----
  runWorkload(
    session: SessionContext,
    db: Database,
    table: string,
    profile: WorkloadProfile,
    target: { rows: number | null; durationMs: number | null; perCall?: boolean },
    signal: AbortSignal,
  ): Promise<WorkloadResult> {
    if (target.perCall && target.rows !== null) {
      return this.clientLoop.call({ spid: session.spid, database: db.name, table, profile, rows: target.rows }, signal);
    }
    const info = this.sessions.get(session.spid);
    const placement = placeTask(this.machine, this.onlineCpus(), this.busyCpus(), info?.nodeSlot ?? session.spid);
    return this.workloads.start(
      {
        spid: session.spid,
        database: db.name,
        table,
        profile,
        placement,
        targetRows: target.rows,
        durationMs: target.durationMs,
        cpuAtStart: this.cpuUsedMs(session.spid),
      },
      signal,
    );
  }

  random(): number {
    return this.rand();
  }
}

export function normaliseObjectName(name: string): string {
  const parts = name
    .replace(/[[\]"]/g, '')
    .split('.')
    .map((p) => p.trim().toLowerCase());
  return parts.length === 1 ? `dbo.${parts[0]}` : parts.slice(-2).join('.');
}
