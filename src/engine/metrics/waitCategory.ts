// The wait.category of a wait type: Query Store's wait categories (sys.query_store_wait_stats), which the
// OpenTelemetry collector's SQL Server receiver also reports beside wait.type, so our series group the same way.
// Pure: a name in, a category out.

const EXACT: Record<string, string> = {
  SOS_SCHEDULER_YIELD: 'CPU',
  THREADPOOL: 'Worker Thread',
  RESOURCE_SEMAPHORE_QUERY_COMPILE: 'Compilation',
  WRITELOG: 'Tran Log IO',
  LOGBUFFER: 'Tran Log IO',
  LOGMGR_RESERVE_APPEND: 'Tran Log IO',
  LOGMGR_FLUSH: 'Tran Log IO',
  LOGMGR_PMM_LOG: 'Tran Log IO',
  CHKPT: 'Tran Log IO',
  LOGMGR: 'Tran Log IO',
  ASYNC_NETWORK_IO: 'Network IO',
  NET_WAITFOR_PACKET: 'Network IO',
  PROXY_NETWORK_IO: 'Network IO',
  EXTERNAL_SCRIPT_NETWORK_IOF: 'Network IO',
  CXPACKET: 'Parallelism',
  EXCHANGE: 'Parallelism',
  CXCONSUMER: 'Parallelism',
  RESOURCE_SEMAPHORE: 'Memory',
  CMEMTHREAD: 'Memory',
  CMEMPARTITIONED: 'Memory',
  EE_PMOLOCK: 'Memory',
  MEMORY_ALLOCATION_EXT: 'Memory',
  RESERVED_MEMORY_ALLOCATION_EXT: 'Memory',
  MEMORY_GRANT_UPDATE: 'Memory',
  WAITFOR: 'User Wait',
  WAIT_FOR_RESULTS: 'User Wait',
  BROKER_RECEIVE_WAITFOR: 'User Wait',
  TRACEWRITE: 'Tracing',
  SQLTRACE_LOCK: 'Tracing',
  SQLTRACE_FILE_BUFFER: 'Tracing',
  SQLTRACE_FILE_WRITE_IO_COMPLETION: 'Tracing',
  ASYNC_IO_COMPLETION: 'Other Disk IO',
  IO_COMPLETION: 'Other Disk IO',
  BACKUPIO: 'Other Disk IO',
  WRITE_COMPLETION: 'Other Disk IO',
  HADR_SYNC_COMMIT: 'Mirroring',
  LOG_RATE_GOVERNOR: 'Log Rate Governor',
  POOL_LOG_RATE_GOVERNOR: 'Log Rate Governor',
  INSTANCE_LOG_RATE_GOVERNOR: 'Log Rate Governor',
  LAZYWRITER_SLEEP: 'Idle',
  REQUEST_FOR_DEADLOCK_SEARCH: 'Idle',
  XE_TIMER_EVENT: 'Idle',
  XE_DISPATCHER_WAIT: 'Idle',
  DIRTY_PAGE_POLL: 'Idle',
  CHECKPOINT_QUEUE: 'Idle',
};

const PREFIXES: [string, string][] = [
  ['LCK_M_', 'Lock'],
  ['PAGEIOLATCH_', 'Buffer IO'],
  ['PAGELATCH_', 'Buffer Latch'],
  ['LATCH_', 'Latch'],
  ['CLR', 'SQL CLR'],
  ['DBMIRROR', 'Mirroring'],
  ['XACT', 'Transaction'],
  ['DTC', 'Transaction'],
  ['TRAN_MARKLATCH_', 'Transaction'],
  ['MSQL_XACT_', 'Transaction'],
  ['TRANSACTION_MUTEX', 'Transaction'],
  ['SLEEP_', 'Idle'],
  ['PREEMPTIVE_', 'Preemptive'],
  ['BROKER_', 'Service Broker'],
  ['FT_', 'Full Text Search'],
  ['SE_REPL_', 'Replication'],
  ['REPL_', 'Replication'],
  ['HADR_', 'Replication'],
  ['PWAIT_HADR_', 'Replication'],
];

export function waitCategory(waitType: string): string {
  const exact = EXACT[waitType];
  if (exact) return exact;
  for (const [prefix, category] of PREFIXES) if (waitType.startsWith(prefix)) return category;
  return 'Other';
}
