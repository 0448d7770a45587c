// Benign waits: idle and background waits that say nothing about the workload (Paul Randal's list in his SQLskills
// post "Wait statistics, or please tell me where it hurts"). Wait charts hide them, and rows that never completed a
// wait, unless the user asks to see everything. The engine keeps every wait in the record; filtering is a view concern.
import type { WaitDelta } from './experiment';

export const BENIGN_WAITS: readonly string[] = Object.freeze([
  'BROKER_EVENTHANDLER',
  'BROKER_RECEIVE_WAITFOR',
  'BROKER_TASK_STOP',
  'BROKER_TO_FLUSH',
  'BROKER_TRANSMITTER',
  'CHECKPOINT_QUEUE',
  'CHKPT',
  'CLR_AUTO_EVENT',
  'CLR_MANUAL_EVENT',
  'CLR_SEMAPHORE',
  'CXCONSUMER',
  'DBMIRROR_DBM_EVENT',
  'DBMIRROR_EVENTS_QUEUE',
  'DBMIRROR_WORKER_QUEUE',
  'DBMIRRORING_CMD',
  'DIRTY_PAGE_POLL',
  'DISPATCHER_QUEUE_SEMAPHORE',
  'EXECSYNC',
  'FSAGENT',
  'FT_IFTS_SCHEDULER_IDLE_WAIT',
  'FT_IFTSHC_MUTEX',
  'HADR_CLUSAPI_CALL',
  'HADR_FILESTREAM_IOMGR_IOCOMPLETION',
  'HADR_LOGCAPTURE_WAIT',
  'HADR_NOTIFICATION_DEQUEUE',
  'HADR_TIMER_TASK',
  'HADR_WORK_QUEUE',
  'KSOURCE_WAKEUP',
  'LAZYWRITER_SLEEP',
  'LOGMGR_QUEUE',
  'MEMORY_ALLOCATION_EXT',
  'ONDEMAND_TASK_QUEUE',
  'PARALLEL_REDO_DRAIN_WORKER',
  'PARALLEL_REDO_LOG_CACHE',
  'PARALLEL_REDO_TRAN_LIST',
  'PARALLEL_REDO_WORKER_SYNC',
  'PARALLEL_REDO_WORKER_WAIT_WORK',
  'PREEMPTIVE_OS_FLUSHFILEBUFFERS',
  'PREEMPTIVE_XE_GETTARGETSTATE',
  'PVS_PREALLOCATE',
  'PWAIT_ALL_COMPONENTS_INITIALIZED',
  'PWAIT_DIRECTLOGCONSUMER_GETNEXT',
  'PWAIT_EXTENSIBILITY_CLEANUP_TASK',
  'QDS_PERSIST_TASK_MAIN_LOOP_SLEEP',
  'QDS_ASYNC_QUEUE',
  'QDS_CLEANUP_STALE_QUERIES_TASK_MAIN_LOOP_SLEEP',
  'QDS_SHUTDOWN_QUEUE',
  'REDO_THREAD_PENDING_WORK',
  'REQUEST_FOR_DEADLOCK_SEARCH',
  'RESOURCE_QUEUE',
  'SERVER_IDLE_CHECK',
  'SLEEP_BPOOL_FLUSH',
  'SLEEP_DBSTARTUP',
  'SLEEP_DCOMSTARTUP',
  'SLEEP_MASTERDBREADY',
  'SLEEP_MASTERMDREADY',
  'SLEEP_MASTERUPGRADED',
  'SLEEP_MSDBSTARTUP',
  'SLEEP_SYSTEMTASK',
  'SLEEP_TASK',
  'SLEEP_TEMPDBSTARTUP',
  'SNI_HTTP_ACCEPT',
  'SOS_WORK_DISPATCHER',
  'SP_SERVER_DIAGNOSTICS_SLEEP',
  'SQLTRACE_BUFFER_FLUSH',
  'SQLTRACE_INCREMENTAL_FLUSH_SLEEP',
  'SQLTRACE_WAIT_ENTRIES',
  'VDI_CLIENT_OTHER',
  'WAIT_FOR_RESULTS',
  'WAITFOR',
  'WAITFOR_TASKSHUTDOWN',
  'WAIT_XTP_RECOVERY',
  'WAIT_XTP_HOST_WAIT',
  'WAIT_XTP_OFFLINE_CKPT_NEW_LOG',
  'WAIT_XTP_CKPT_CLOSE',
  'XE_DISPATCHER_JOIN',
  'XE_DISPATCHER_WAIT',
  'XE_TIMER_EVENT',
]);

const benignSet = new Set(BENIGN_WAITS);

/** Exact, case-sensitive match: wait_type values are upper case, and a near-miss must not hide a real wait. */
export function isBenignWait(waitType: string): boolean {
  return benignSet.has(waitType);
}

export interface WaitFilter {
  /** Show benign waits and waits with a zero count too (the "show all" switch). Default false. */
  showAll?: boolean;
}

/** Whether a wait entry belongs on a chart: by default not benign and at least one completed wait. */
export function isWaitShown(waitType: string, wait: Pick<WaitDelta, 'count'>, filter: WaitFilter = {}): boolean {
  const shown = waitShownByCount(waitType, filter);
  return typeof shown === 'boolean' ? shown : shown(wait.count);
}

const completed = (count: number) => count > 0;

/**
 * isWaitShown decided once per wait type: true or false whatever the count, or the test of the count. A chart
 * reading an hour of a wait's column tests each tick's count with no lookup by name.
 */
export function waitShownByCount(waitType: string, filter: WaitFilter = {}): boolean | ((count: number) => boolean) {
  if (filter.showAll) return true;
  return isBenignWait(waitType) ? false : completed;
}

/** The entries of a wait record that pass the filter, in the record's order. */
export function filterWaits<T extends Pick<WaitDelta, 'count'>>(waits: Record<string, T>, filter: WaitFilter = {}): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [name, wait] of Object.entries(waits)) if (isWaitShown(name, wait, filter)) out[name] = wait;
  return out;
}

/** Wait types hidden by the filter (benign or zero count), so a view can say "N hidden". */
export function hiddenWaitTypes<T extends Pick<WaitDelta, 'count'>>(waits: Record<string, T>, filter: WaitFilter = {}): string[] {
  return Object.keys(waits).filter((name) => !isWaitShown(name, waits[name], filter));
}
