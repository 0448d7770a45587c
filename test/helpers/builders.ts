// Test-data builders for the panel: a two-socket topology, identities, realistic ticks (the seeds' spinlocks, waits
// and latches, with a benign wait mixed in), finished runs, experiments and PanelState snapshots. Deterministic: a
// seeded generator, so a failing test fails the same way twice.
import { EXPERIMENT_SCHEMA_VERSION, type Experiment, type RunRecord, type Tick } from '../../src/shared/experiment';
import type { ExperimentSummary, PanelState, ScenarioSummary } from '../../src/shared/protocol';
import type { SchedulerInfo, ServerIdentity, Topology } from '../../src/shared/types';
import { listScenarios } from '../../src/engine/scenarios';
import { presetSummaries } from '../../src/host/presetPlans';
import { computeDerived, cpusUsedFromTicks, foldTicks } from '../../src/engine/totals';
import { summarise } from '../../src/host/history';
import type { StackCapture, StackFrame, StackNode } from '../../src/shared/stacks';

/** Mulberry32: a tiny seeded generator. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TopologyOptions {
  sockets?: number;
  coresPerSocket?: number;
  threadsPerCore?: number;
  /** CPUs whose scheduler is offline (affinity excludes them). */
  offline?: number[];
  logWriterCpus?: number[];
}

/** Sockets = NUMA nodes; CPUs numbered socket by socket, hyperthread siblings adjacent. */
export function topology(o: TopologyOptions = {}): Topology {
  const sockets = o.sockets ?? 2;
  const cores = o.coresPerSocket ?? 4;
  const tpc = o.threadsPerCore ?? 2;
  const perSocket = cores * tpc;
  const offline = new Set(o.offline ?? []);
  const schedulers: SchedulerInfo[] = [];
  for (let cpu = 0; cpu < sockets * perSocket; cpu++) {
    const online = !offline.has(cpu);
    schedulers.push({
      schedulerId: cpu,
      cpuId: cpu,
      nodeId: Math.floor(cpu / perSocket),
      status: online ? 'VISIBLE ONLINE' : 'VISIBLE OFFLINE',
      isOnline: online,
    });
  }
  const lw = o.logWriterCpus ?? [0];
  return {
    cpuCount: sockets * perSocket,
    hyperthreadRatio: perSocket,
    socketCount: sockets,
    coresPerSocket: cores,
    numaNodeCount: sockets,
    softNuma: 'OFF',
    memoryModel: 'LOCK_PAGES',
    largePageAllocationsKb: 0,
    lockedPageAllocationsKb: 8_388_608,
    affinityType: offline.size ? 'MANUAL' : 'AUTO',
    schedulers,
    nodes: Array.from({ length: sockets }, (_, n) => ({
      nodeId: n,
      state: 'ONLINE',
      onlineSchedulerCount: schedulers.filter((s) => s.nodeId === n && s.isOnline).length,
      cpuCount: perSocket,
      processorGroup: 0,
    })),
    logWriters: lw.map((cpu, i) => ({ sessionId: 3 + i, schedulerId: cpu, cpuId: cpu, nodeId: Math.floor(cpu / perSocket) })),
    traceFlags: [
      { flag: 1117, status: true, global: true, session: false },
      { flag: 3502, status: true, global: true, session: false },
    ],
  };
}

export function identity(over: Partial<ServerIdentity> = {}): ServerIdentity {
  return {
    serverName: 'SIMBOX',
    machineName: 'SIMBOX',
    productVersion: '16.0.4135.4',
    majorVersion: 16,
    edition: 'Developer Edition (64-bit)',
    engineEdition: 3,
    versionBanner: 'Microsoft SQL Server 2022 (RTM-CU15) - 16.0.4135.4 (X64)',
    simulated: true,
    xtpSupported: true,
    defaultDataPath: '/var/opt/mssql/data/',
    startTime: '2025-01-01T00:00:00.000Z',
    login: 'sa',
    permissions: { viewServerState: true, alterSettings: true, viewDatabaseState: true },
    ...over,
  };
}

export function scenarios(): ScenarioSummary[] {
  return listScenarios().map((m) => ({
    id: m.id,
    name: m.name,
    description: m.description,
    posts: [...m.posts],
    unit: m.unit,
    parameters: m.parameters,
    xtpWhen: m.features.filter((f) => f.feature === 'xtp').map((f) => f.when ?? {}),
  }));
}

export interface TickOptions {
  threads?: number;
  intervalMs?: number;
  seed?: number;
  /** Scales spinlock pressure (a second run with more contention). */
  contention?: number;
  nodes?: number;
}

/** The i-th tick of a run (0-based): throughput that grows with threads, spins that grow faster. */
export function tick(i: number, o: TickOptions = {}): Tick {
  const threads = o.threads ?? 8;
  const intervalMs = o.intervalMs ?? 1000;
  const r = rng((o.seed ?? 1) * 100_003 + i);
  const c = o.contention ?? 1;
  const sec = intervalMs / 1000;
  const jitter = () => 0.85 + 0.3 * r();
  const rowsPerSec = 9000 * Math.pow(threads, 0.7) * jitter();
  const rows = Math.round(rowsPerSec * sec);
  const spin = (base: number) => {
    const spins = Math.round(base * c * threads * threads * sec * jitter());
    return { spins, collisions: Math.round(spins / 12), backoffs: Math.round(spins / 150), sleepTime: 0 };
  };
  const wait = (ms: number, count: number) => ({
    waitMs: Math.round(ms * threads * sec * jitter()),
    count: Math.max(1, Math.round(count * threads * sec)),
    signalMs: Math.round(ms * sec * 0.1),
  });
  const nodes = o.nodes ?? 2;
  const cpuByNode: Record<string, number> = {};
  for (let n = 0; n < nodes; n++) cpuByNode[String(n)] = Math.min(100, (threads * 9 * jitter()) / (n + 1));
  const flushes = Math.round(rows * 0.6);
  return {
    t: (i + 1) * intervalMs,
    intervalMs,
    rows,
    rowsPerSec: rows / sec,
    transactions: Math.round(rows * 0.98),
    transactionsPerSec: Math.round(rows * 0.98) / sec,
    writeTransactionsPerSec: Math.round(rows * 0.98) / sec,
    batchRequestsPerSec: 2 * threads,
    spinlocks: {
      LOGCACHE_ACCESS: spin(5200),
      XDESMGR: spin(2100),
      LOGFLUSHQ: spin(900),
      SOS_SUSPEND_QUEUE: spin(300),
      LOCK_HASH: spin(120),
      BLOCKER_ENUM: spin(40),
      ...(i % 3 === 0 ? { SOS_CACHESTORE: spin(15) } : {}),
      ...(i > 20 ? { X_PACKET_LIST: spin(25) } : {}),
    },
    waits: {
      WRITELOG: wait(420, 600),
      PAGELATCH_EX: wait(80, 120),
      SOS_SCHEDULER_YIELD: wait(30, 200),
      LOGBUFFER: wait(12, 10),
      LAZYWRITER_SLEEP: wait(1000, 1),
    },
    latches: {
      ACCESS_METHODS_HOBT_VIRTUAL_ROOT: { waitMs: Math.round(15 * threads * sec * jitter()), count: 40 },
      LOG_MANAGER: { waitMs: Math.round(6 * threads * sec * jitter()), count: 9 },
      BUFFER: { waitMs: Math.round(3 * threads * sec * jitter()), count: 12 },
    },
    log: {
      flushes,
      bytesFlushed: flushes * 5120,
      flushesPerSec: flushes / sec,
      bytesFlushedPerSec: (flushes * 5120) / sec,
      flushWaitsPerSec: flushes / sec / 2,
      flushWaitTimeMs: Math.round(flushes * 0.2),
      avgWriteStallMs: 0.3,
    },
    pendingLogIo: Math.round(r() * 3),
    cpuByNode,
    cpuMs: Math.round(threads * intervalMs * 0.9),
    onlineSchedulers: 16,
    runnableTasks: Math.max(0, threads - 8),
  };
}

export function ticks(n: number, o: TickOptions = {}): Tick[] {
  return Array.from({ length: n }, (_, i) => tick(i, o));
}

export function runRecord(
  index: number,
  threads: number,
  o: TickOptions & { ticks?: number; status?: RunRecord['status']; latency?: boolean } = {},
): RunRecord {
  const timeline = ticks(o.ticks ?? 10, { ...o, threads, seed: (o.seed ?? 1) * 7 + index });
  const totals = foldTicks(timeline);
  const start = Date.parse('2025-03-01T10:00:00Z') + index * 60_000;
  // Asserted rather than typed: compiles whether or not RunRecord carries an arm (records before presets had none).
  return {
    index,
    threads,
    arm: {
      id: 'main',
      label: 'disk-insert',
      scenarioId: 'disk-insert',
      parameters: { batch_size: 1, seed_rows: 100000 },
      knobs: {},
      mode: 'server-loop',
    },
    status: o.status ?? 'completed',
    startedAt: new Date(start).toISOString(),
    endedAt: new Date(start + totals.elapsedMs).toISOString(),
    elapsedMs: totals.elapsedMs,
    rows: totals.rows,
    sessionsOk: threads,
    sessionFailures: [],
    timeline,
    totals,
    derived: computeDerived(totals, { cpusUsed: cpusUsedFromTicks(timeline) }),
    client: { cpuUserMs: 120, cpuSystemMs: 40, cpuUsPerCall: 12, eventLoopLagP99Ms: 2, eventLoopLagMaxMs: 5, rssMb: 90 },
    latency: o.latency
      ? {
          count: 10_000,
          meanUs: 300 * threads,
          p50Us: 250 * threads,
          p90Us: 500 * threads,
          p99Us: 900 * threads,
          p999Us: 1500 * threads,
          maxUs: 4000 * threads,
        }
      : null,
    events: [],
  } as RunRecord;
}

export function experiment(
  id: string,
  threads: number[],
  o: TickOptions & { ticks?: number; title?: string; latency?: boolean } = {},
): Experiment {
  return {
    schemaVersion: EXPERIMENT_SCHEMA_VERSION,
    id,
    title: o.title ?? `disk-insert ${threads.join(',')} threads`,
    question: null,
    createdAt: '2025-03-01T10:00:00.000Z',
    tool: { name: 'spinlock-lab', version: '0.1.0' },
    simulated: true,
    server: identity(),
    topology: topology(),
    labDatabase: 'SpinlockLab',
    scenario: { id: 'disk-insert', parameters: { batch_size: 1, seed_rows: 100000 } },
    load: { mode: 'server-loop', threads, durationMs: 10_000, rows: null, warmupMs: 0, intervalMs: 1000 },
    knobs: { before: null, applied: {}, restored: null },
    status: 'completed',
    runs: threads.map((t, i) => runRecord(i, t, o)),
    events: [],
  };
}

/** The history row the host would list for `e` (host/history.ts summarise). */
export function summaryOf(e: Experiment): ExperimentSummary {
  return summarise(e);
}

/** A disconnected panel: the form with a prefilled draft and two saved profiles. */
export function disconnectedState(): PanelState {
  return {
    editor: 'vscode',
    profiles: [
      {
        id: 'lab1',
        label: 'Lab box',
        server: 'lab1.contoso.local',
        port: null,
        instanceName: null,
        authentication: 'sql',
        user: 'spinlab',
        domain: '',
        encrypt: 'mandatory',
        trustServerCertificate: true,
        labDatabase: 'SpinlockLab',
      },
      {
        id: 'sim',
        label: 'Simulator',
        server: '127.0.0.1',
        port: 14330,
        instanceName: null,
        authentication: 'sql',
        user: 'sa',
        domain: '',
        encrypt: 'optional',
        trustServerCertificate: true,
        labDatabase: 'SpinlockLab',
      },
    ],
    savedPasswords: ['sim'],
    draft: null,
    connection: { status: 'disconnected', profileId: null, error: null },
    server: null,
    journal: null,
    runJournal: null,
    scenarios: scenarios(),
    selection: {
      scenarioId: 'disk-insert',
      parameters: { batch_size: 1, seed_rows: 100000 },
      run: { mode: 'server-loop', threads: '1,2,4,8', duration: '30s', rows: '', warmup: '2s', interval: '1s' },
      knobs: { delayedDurability: 'unchanged', affinity: '' },
    },
    busy: null,
    lastError: null,
    active: null,
    history: [],
    presets: presetSummaries(),
    presetPlans: [],
  };
}

/** Connected to the simulator, disk-insert deployed, with an optional active experiment. */
export function connectedState(over: Partial<PanelState> = {}): PanelState {
  const base = disconnectedState();
  const topo = topology();
  return {
    ...base,
    draft: base.profiles[1],
    connection: { status: 'connected', profileId: 'sim', error: null },
    server: {
      identity: identity(),
      topology: topo,
      knobs: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: topo.schedulers.map((s) => s.cpuId) } },
      deployed: ['disk-insert'],
      labExists: true,
    },
    ...over,
  };
}

/** A frame as the server gives it: module+offset, or a resolved name. */
export function stackFrame(raw: string): StackFrame {
  const m = /^([A-Za-z0-9_.]+)\+(0x[0-9A-Fa-f]+)$/.exec(raw);
  return m ? { raw, module: m[1], offset: m[2], symbol: null } : { raw, module: null, offset: null, symbol: raw };
}

/**
 * A capture of LOCK_HASH backoffs: stacks given innermost frame first (as package0.callstack lists them) with their
 * counts; the tree folds them outermost first under a root that holds every counted event.
 */
export function stackCapture(
  over: Partial<StackCapture> = {},
  stacks: { frames: string[]; count: number }[] = [
    {
      frames: ['sqlmin.dll+0x1A2B3C', 'sqlmin.dll+0x0F00D1', 'sqlmin.dll+0x22AA10', 'sqllang.dll+0x330001', 'sqldk.dll+0x004400'],
      count: 600,
    },
    {
      frames: ['sqlmin.dll+0x1A2B3C', 'sqlmin.dll+0x0F00D1', 'sqlmin.dll+0x77BB20', 'sqllang.dll+0x330001', 'sqldk.dll+0x004400'],
      count: 300,
    },
    { frames: ['sqlmin.dll+0x1A2B3C', 'sqlmin.dll+0x5E5E00', 'sqllang.dll+0x440002', 'sqldk.dll+0x004400'], count: 100 },
  ],
): StackCapture {
  const events = stacks.reduce((a, s) => a + s.count, 0);
  const tree: StackNode = { frame: 'all stacks', count: events, children: [] };
  for (const st of stacks) {
    let node = tree;
    for (const f of [...st.frames].reverse()) {
      let child = node.children.find((c) => c.frame === f);
      if (!child) node.children.push((child = { frame: f, count: 0, children: [] }));
      child.count += st.count;
      node = child;
    }
  }
  return {
    spinlock: 'LOCK_HASH',
    mapKey: 42,
    session: 'SpinlockLab_stacks_1',
    startedAt: '2026-11-24T01:00:00.000Z',
    durationMs: 10_000,
    events,
    dmvBackoffs: events + 20,
    simulated: true,
    buckets: stacks.map((s) => ({ count: s.count, share: events ? s.count / events : 0, frames: s.frames.map(stackFrame) })),
    otherCount: 0,
    tree,
    notes: [
      'The event fired for every backoff of LOCK_HASH the server counted while the session ran.',
      "The simulator's frames are synthetic and labelled: no real call stack was read.",
    ],
    ...over,
  };
}
