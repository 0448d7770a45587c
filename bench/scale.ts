// Costs as the server grows: the sampler's delta tick (sql/dmv/sample-delta.sql, what a run sends each interval) and
// the watch's (sql/watch/tick-delta.sql, what `spinlab watch` sends) at 32, 128 and 256 schedulers and with 64, 512
// and 2,048 busy user sessions (the simulator's --topology and its --background disk-insert workload). Per cell: bytes
// per tick on the wire (a counting proxy, TDS packets both ways), the round trip, and the server CPU the tick costs,
// read as SQL Server reports it: the monitor session's sys.dm_exec_sessions.cpu_time, from a second connection, before
// and after the measured ticks. The CPU is the simulator's synthetic model (tools/sim/model/planCost.ts: a cost per
// statement and per row read, written or returned, DMV rows scanned included), not SQL Server's.
// Run: node out/bench/scale.js [ticks]
import * as sql from 'mssql';
import { DbSession } from '../src/db/client';
import type { DbTarget } from '../src/db/target';
import { readDeltaSample } from '../src/engine/sampler';
import { DeltaReader, WATCH_LAYOUT } from '../src/engine/snapshot';
import { startSimulator, type Simulator } from '../tools/sim/simulator';
import { BACKGROUND_DATABASE } from '../tools/sim/model/background';
import { median, percentile } from './stats';
import { startCountingProxy, type CountingProxy } from './wire';
import type { ScaleCell, TickKind } from './scaleReport';

export interface ScaleOptions {
  /** Measured ticks per cell, 1 s apart (after one tick that connects, sets up and prepares). */
  ticks: number;
  topologies?: readonly string[];
  sessions?: readonly number[];
  log: (s: string) => void;
}

const TOPOLOGIES = ['2x8x2', '4x16x2', '8x16x2'] as const;
const SESSIONS = [64, 512, 2048] as const;
const PASSWORD = 'Bench-Scale-Pw1!';
const INTERVAL_MS = 1000;

function schedulersOf(topology: string): number {
  return topology.split('x').reduce((a, b) => a * Number(b), 1);
}

function target(port: number): DbTarget {
  return {
    server: '127.0.0.1',
    port,
    user: 'sa',
    password: PASSWORD,
    authentication: 'sql',
    encrypt: false,
    trustServerCertificate: true,
    connectTimeoutMs: 15_000,
    requestTimeoutMs: 60_000,
  };
}

/** One monitor connection through its own counting proxy, ticking as the product does. */
interface Monitor {
  kind: TickKind;
  appName: string;
  proxy: CountingProxy;
  db: DbSession;
  tick: () => Promise<unknown>;
  sent: number[];
  received: number[];
  rtt: number[];
}

async function openMonitor(kind: TickKind, port: number): Promise<Monitor> {
  const appName = `Spinlock Lab bench ${kind}`;
  const proxy = await startCountingProxy(port);
  const db = await DbSession.open(target(proxy.port), { database: 'master', appName, keep: true });
  let tick: () => Promise<unknown>;
  if (kind === 'sampler') {
    // A run's sampler on the busy database (its counters are the ones the tick filters by name).
    const read = readDeltaSample(BACKGROUND_DATABASE, (m) => {
      throw new Error(m);
    });
    tick = () => read(db);
  } else {
    // spinlab watch's defaults: --top-requests 10 --text-chars 100.
    const reader = new DeltaReader('watch/tick-delta', WATCH_LAYOUT, 'watch/tick', (m) => {
      throw new Error(m);
    });
    tick = () => reader.read(db, { top_requests: 10, text_chars: 100 });
  }
  return { kind, appName, proxy, db, tick, sent: [], received: [], rtt: [] };
}

async function timedTick(m: Monitor): Promise<void> {
  const s0 = m.proxy.sent,
    r0 = m.proxy.received,
    t0 = performance.now();
  await m.tick();
  m.rtt.push(performance.now() - t0);
  m.sent.push(m.proxy.sent - s0);
  m.received.push(m.proxy.received - r0);
}

/** Each monitor session's cpu_time (ms) as sys.dm_exec_sessions serves it to another connection, by program name. */
async function cpuTimes(observer: sql.ConnectionPool, monitors: readonly Monitor[]): Promise<Map<string, number>> {
  const r = await observer
    .request()
    .query(`SELECT program_name, cpu_time FROM sys.dm_exec_sessions WHERE program_name LIKE N'Spinlock Lab bench %'`);
  const out = new Map<string, number>();
  for (const row of r.recordset as { program_name: string; cpu_time: number }[]) out.set(row.program_name, Number(row.cpu_time));
  for (const m of monitors) if (!out.has(m.appName)) throw new Error(`bench scale: the ${m.kind} session is not in sys.dm_exec_sessions`);
  return out;
}

/** User sessions and their requests as the server lists them (the monitors' and the observer's own included). */
async function served(observer: sql.ConnectionPool): Promise<{ sessions: number; requests: number }> {
  const r = await observer.request().query(
    `SELECT (SELECT COUNT(*) FROM sys.dm_exec_sessions WHERE is_user_process = 1) AS sessions,
            (SELECT COUNT(*) FROM sys.dm_exec_requests AS r WHERE r.session_id >= 51) AS requests`,
  );
  const row = r.recordset[0] as { sessions: number; requests: number };
  return { sessions: Number(row.sessions), requests: Number(row.requests) };
}

async function measureCell(topology: string, sessions: number, ticks: number, log: (s: string) => void): Promise<ScaleCell[]> {
  const sim: Simulator = await startSimulator({
    topology,
    password: PASSWORD,
    seed: 7,
    background: [{ scenario: 'disk-insert', sessions }],
    log: () => undefined,
  });
  const observer = await new sql.ConnectionPool({
    server: sim.host,
    port: sim.port,
    user: 'sa',
    password: PASSWORD,
    database: 'master',
    options: { encrypt: false, trustServerCertificate: true },
    pool: { min: 1, max: 1 },
    requestTimeout: 60_000,
  }).connect();
  const monitors: Monitor[] = [];
  try {
    for (const kind of ['sampler', 'watch'] as const) monitors.push(await openMonitor(kind, sim.port));
    // The first tick connects, creates the #temp tables, prepares and reads everything; the watch's second runs the
    // statements of its other snapshot generation for the first time, which the simulator compiles then (SQL Server
    // compiles the whole batch on its first call): neither is measured.
    for (let i = 0; i < 2; i++) for (const m of monitors) await m.tick();
    const seen = await served(observer);
    const before = await cpuTimes(observer, monitors);
    // One tick of each per second, one after the other (never overlapping, so each round trip is its own).
    let next = performance.now() + INTERVAL_MS;
    for (let i = 0; i < ticks; i++) {
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      next += INTERVAL_MS;
      for (const m of monitors) await timedTick(m);
    }
    const after = await cpuTimes(observer, monitors);
    return monitors.map((m) => {
      const cell: ScaleCell = {
        kind: m.kind,
        topology,
        schedulers: schedulersOf(topology),
        sessions,
        sessionsSeen: seen.sessions,
        requestsSeen: seen.requests,
        ticks,
        bytesSent: median(m.sent),
        bytesReceived: median(m.received),
        rttP50Ms: median(m.rtt),
        rttP99Ms: percentile(m.rtt, 99),
        serverCpuMsPerTick: (after.get(m.appName)! - before.get(m.appName)!) / ticks,
      };
      log(
        `scale: ${m.kind.padEnd(7)} ${String(cell.schedulers).padStart(3)} schedulers, ${String(sessions).padStart(4)} sessions ` +
          `(served: ${seen.sessions} user sessions, ${seen.requests} requests): ${Math.round(cell.bytesSent + cell.bytesReceived)} B/tick, ` +
          `round trip p50 ${cell.rttP50Ms.toFixed(1)} ms, server CPU ${cell.serverCpuMsPerTick.toFixed(2)} ms/tick (synthetic)`,
      );
      return cell;
    });
  } finally {
    for (const m of monitors) {
      await m.db.close().catch(() => undefined);
      await m.proxy.close();
    }
    await observer.close();
    await sim.close();
  }
}

export async function benchScale(o: ScaleOptions): Promise<ScaleCell[]> {
  const out: ScaleCell[] = [];
  for (const topology of o.topologies ?? TOPOLOGIES)
    for (const sessions of o.sessions ?? SESSIONS) out.push(...(await measureCell(topology, sessions, o.ticks, o.log)));
  return out;
}

if (require.main === module) {
  const ticks = Number(process.argv[2] ?? 5);
  const only = process.argv[3]; // e.g. 8x16x2:2048, one cell
  const [topo, sess] = only ? only.split(':') : [];
  benchScale({ ticks, log: console.log, ...(only ? { topologies: [topo], sessions: [Number(sess)] } : {}) }).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
