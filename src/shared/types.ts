// Data shapes shared by the engine, the CLI, the extension host and the webview. No vscode, no DOM, no driver.
import type { MonitorReading } from './monitorCost';
import type { OwnReading } from './ownShareTypes';

/** One scheduler that runs user work (scheduler_id < 1048576), from sys.dm_os_schedulers. */
export interface SchedulerInfo {
  schedulerId: number;
  cpuId: number;
  nodeId: number;
  /** e.g. 'VISIBLE ONLINE', 'VISIBLE OFFLINE'. */
  status: string;
  isOnline: boolean;
}

export interface NumaNodeInfo {
  nodeId: number;
  state: string;
  onlineSchedulerCount: number;
  cpuCount: number;
  processorGroup: number;
  /** The hardware NUMA node (sys.dm_os_nodes.memory_node_id); differs from nodeId under soft-NUMA. */
  memoryNodeId?: number;
}

export interface LogWriterInfo {
  sessionId: number;
  schedulerId: number;
  cpuId: number | null;
  nodeId: number | null;
}

export interface TraceFlagInfo {
  flag: number;
  status: boolean;
  global: boolean;
  session: boolean;
}

/** The shape of an instance: what `spinlab topology` shows and what affinity is checked against. */
export interface Topology {
  cpuCount: number;
  /** Logical CPUs per socket (sys.dm_os_sys_info.hyperthread_ratio). */
  hyperthreadRatio: number;
  socketCount: number;
  coresPerSocket: number;
  numaNodeCount: number;
  softNuma: string | null;
  /** CONVENTIONAL / LOCK_PAGES / LARGE_PAGES, or null before 2016 SP1. */
  memoryModel: string | null;
  largePageAllocationsKb: number | null;
  lockedPageAllocationsKb: number | null;
  /** AUTO or MANUAL. */
  affinityType: string;
  schedulers: SchedulerInfo[];
  nodes: NumaNodeInfo[];
  logWriters: LogWriterInfo[];
  /** null when DBCC TRACESTATUS could not be read. */
  traceFlags: TraceFlagInfo[] | null;
}

export interface ServerIdentity {
  serverName: string;
  machineName: string;
  /** e.g. '16.0.4135.4'. */
  productVersion: string;
  majorVersion: number;
  edition: string;
  engineEdition: number;
  /** @@VERSION, first line. */
  versionBanner: string;
  /** True when the server says it is the Spinlock Lab simulator: its numbers are synthetic. */
  simulated: boolean;
  xtpSupported: boolean;
  defaultDataPath: string | null;
  startTime: string;
  login: string;
  permissions: { viewServerState: boolean; alterSettings: boolean; viewDatabaseState: boolean | null };
}

// ---- raw samples: one monitor round trip ----

export interface SpinlockRow {
  name: string;
  collisions: number;
  spins: number;
  sleepTime: number;
  backoffs: number;
}
export interface WaitRow {
  waitType: string;
  waitingTasks: number;
  waitTimeMs: number;
  maxWaitTimeMs: number;
  signalWaitTimeMs: number;
}
export interface LatchRow {
  latchClass: string;
  waitingRequests: number;
  waitTimeMs: number;
  maxWaitTimeMs: number;
}
export interface CounterRow {
  object: string;
  counter: string;
  instance: string;
  value: number;
  type: number;
}
export interface SchedulerSampleRow {
  schedulerId: number;
  cpuId: number;
  nodeId: number;
  isOnline: boolean;
  totalCpuMs: number;
  runnableTasks: number;
  /** A hidden scheduler (scheduler_id >= 1048576): log writers and other system tasks, not user work. */
  hidden?: boolean;
}
/** Row operations on one lab table since its metadata was loaded (index operational / XTP object stats). */
export interface ProgressRow {
  table: string;
  inserts: number;
  updates: number;
  deletes: number;
}

export interface RawSample {
  /** Client wall clock when the answer arrived (ms since epoch); for display only. */
  clientTime: number;
  /** Server clock (SYSUTCDATETIME) as ISO text. */
  serverTime: string;
  /** sys.dm_os_sys_info.ms_ticks: ms since the server started; what intervals are computed from. */
  msTicks: number;
  /** sys.dm_os_sys_info.cpu_ticks (RDTSC). */
  cpuTicks: number;
  /** sqlserver_start_time as ISO text: a change means the instance restarted. */
  startTime: string;
  spinlocks: SpinlockRow[];
  waits: WaitRow[];
  latches: LatchRow[];
  counters: CounterRow[];
  /** Lab database log file(s), from sys.dm_io_virtual_file_stats. */
  logFile: { writes: number; bytesWritten: number; ioStallWriteMs: number } | null;
  pendingIo: { total: number; log: number };
  schedulers: SchedulerSampleRow[];
  progress: ProgressRow[];
  /** The monitor session's own cost so far and the server's compilations (delta ticks); null or absent otherwise. */
  monitor?: MonitorReading | null;
  /** The run's own workload sessions so far (sql/workload/session-share.sql); absent in a watch. */
  own?: OwnReading | null;
}
