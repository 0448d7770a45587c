// Reads who the server is and its shape (sql/server/*.sql) into ServerIdentity and Topology.
import type { DbSession } from '../db/client';
import { num, numOrNull, str, type Row } from '../db/rows';
import type { LogWriterInfo, ServerIdentity, Topology, TraceFlagInfo } from '../shared/types';
import { explain } from './errors';
import { featureVersion } from '../shared/serverLevel';

/** The simulator says so in @@VERSION and in its edition; the product shows a badge and labels numbers as synthetic. */
export function isSimulator(versionBanner: string, edition: string): boolean {
  return /Spinlock Lab simulator/i.test(versionBanner) || /Spinlock Lab simulator/i.test(edition);
}

export async function readIdentity(db: DbSession): Promise<ServerIdentity> {
  const [rows] = await db.runFile('server/identity');
  const r = rows?.[0];
  if (!r) throw new Error('server/identity returned no row');
  const banner = str(r.version_banner);
  const edition = str(r.edition);
  const productVersion = str(r.product_version);
  return {
    serverName: str(r.server_name),
    machineName: str(r.machine_name),
    productVersion,
    majorVersion: numOrNull(r.major_version) ?? Number(productVersion.split('.')[0]),
    edition,
    engineEdition: num(r.engine_edition),
    versionBanner: banner.split('\n')[0].trim(),
    simulated: isSimulator(banner, edition),
    xtpSupported: num(r.is_xtp_supported) === 1,
    defaultDataPath: r.default_data_path === null ? null : str(r.default_data_path),
    startTime: '',
    login: str(r.login_name),
    permissions: {
      viewServerState: num(r.has_view_server_state) === 1 || num(r.has_view_server_performance_state) === 1,
      alterSettings: num(r.has_alter_settings) === 1,
      viewDatabaseState: null,
    },
  };
}

function sysInfoNumber(r: Row, col: string): number | null {
  return col in r ? numOrNull(r[col]) : null;
}

export async function readTopology(
  db: DbSession,
  identity: ServerIdentity,
): Promise<{ topology: Topology; startTime: string; missing: string[] }> {
  let sets: Row[][];
  try {
    sets = await db.runFile('server/topology');
  } catch (err) {
    throw explain(err, 'Reading the server topology', { login: identity.login, majorVersion: featureVersion(identity) });
  }
  const [info = [], schedulers = [], nodes = [], logWriters = [], memory = []] = sets;
  const i = info[0] ?? {};
  // Columns that older versions lack: say which, rather than guess.
  const missing = ['socket_count', 'cores_per_socket', 'numa_node_count', 'sql_memory_model_desc'].filter((c) => !(c in i));
  const cpuCount = num(i.cpu_count);
  const topology: Topology = {
    cpuCount,
    hyperthreadRatio: num(i.hyperthread_ratio) || cpuCount,
    socketCount: sysInfoNumber(i, 'socket_count') ?? 1,
    coresPerSocket: sysInfoNumber(i, 'cores_per_socket') ?? cpuCount,
    numaNodeCount: sysInfoNumber(i, 'numa_node_count') ?? new Set(schedulers.map((s) => num(s.parent_node_id))).size,
    softNuma: 'softnuma_configuration_desc' in i ? str(i.softnuma_configuration_desc) : null,
    memoryModel: 'sql_memory_model_desc' in i ? str(i.sql_memory_model_desc) : null,
    largePageAllocationsKb: memory[0] ? numOrNull(memory[0].large_page_allocations_kb) : null,
    lockedPageAllocationsKb: memory[0] ? numOrNull(memory[0].locked_page_allocations_kb) : null,
    affinityType: str(i.affinity_type_desc) || 'AUTO',
    schedulers: schedulers.map((s) => ({
      schedulerId: num(s.scheduler_id),
      cpuId: num(s.cpu_id),
      nodeId: num(s.parent_node_id),
      status: str(s.status),
      isOnline: s.is_online === true || num(s.is_online) === 1,
    })),
    nodes: nodes.map((n) => ({
      nodeId: num(n.node_id),
      state: str(n.node_state_desc),
      onlineSchedulerCount: num(n.online_scheduler_count),
      cpuCount: num(n.cpu_count),
      processorGroup: num(n.processor_group),
      memoryNodeId: num(n.memory_node_id),
    })),
    logWriters: logWriters.map((l): LogWriterInfo => ({
      sessionId: num(l.session_id),
      schedulerId: num(l.scheduler_id),
      cpuId: numOrNull(l.cpu_id),
      nodeId: numOrNull(l.parent_node_id),
    })),
    traceFlags: await readTraceFlags(db),
  };
  return { topology, startTime: str(i.sqlserver_start_time), missing };
}

async function readTraceFlags(db: DbSession): Promise<TraceFlagInfo[] | null> {
  try {
    const [rows = []] = await db.runFile('server/trace-flags');
    return rows.map((r) => ({
      flag: num(r.TraceFlag),
      status: num(r.Status) === 1,
      global: num(r.Global) === 1,
      session: num(r.Session) === 1,
    }));
  } catch {
    return null; // shown as "unknown": trace flags are informational
  }
}
