// An instance that has been up for a long time (`spinlab sim --uptime 400d`): its start time lies that far back and its
// cumulative counters start where a busy OLTP server's would after that long, so typed snapshots meet values past
// 2,147,483,647 as they do on a real server (backoffs, spins, wait counts and times, CPU ms, counters, file I/O).
// The rates are synthetic round figures for a busy 2-socket server, not measurements; only their size matters here.
import type { CounterStore } from './counters';

const UNITS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/** '400d', '12h', '30m', '90s', or pairs such as '1d12h'; a bare number or 0 is refused. */
export function parseUptime(text: string): number {
  const s = String(text).trim().toLowerCase();
  if (!/^(\d+(\.\d+)?[dhms])+$/.test(s)) throw new Error(`uptime "${text}" must be a duration such as 400d, 12h, 30m or 1d12h`);
  let ms = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)([dhms])/g)) ms += Number(m[1]) * UNITS[m[2]];
  ms = Math.round(ms);
  if (ms <= 0) throw new Error(`uptime "${text}" must be more than zero`);
  if (ms > 3650 * UNITS.d) throw new Error(`uptime "${text}" is more than ten years (3650d)`);
  return ms;
}

/** Per second on a busy server: spinlock spins (collisions, backoffs and sleep follow from them). */
const BUSY_SPINS: [string, number][] = [
  ['LOCK_HASH', 4_000_000],
  ['SOS_CACHESTORE', 1_500_000],
  ['XDESMGR', 900_000],
  ['LOGCACHE_ACCESS', 700_000],
  ['SOS_SUSPEND_QUEUE', 600_000],
  ['SOS_SCHEDULER', 300_000],
  ['SOS_OBJECT_STORE', 250_000],
  ['LOCK_RW_CMED_HASH_SET', 120_000],
  ['SECURITY_CACHE', 60_000],
  ['DBTABLE', 50_000],
  ['MUTEX', 40_000],
  ['BUF_HASH', 30_000],
  ['LOGFLUSHQ', 20_000],
];
/** Per second: waits and wait ms. */
const BUSY_WAITS: [string, number, number][] = [
  ['WRITELOG', 4000, 2000],
  ['PAGEIOLATCH_SH', 800, 4000],
  ['SOS_SCHEDULER_YIELD', 20_000, 600],
  ['PAGELATCH_EX', 3000, 300],
  ['PAGELATCH_SH', 2500, 200],
  ['LCK_M_X', 30, 900],
  ['ASYNC_NETWORK_IO', 1500, 1200],
  ['CXPACKET', 500, 3000],
  ['LATCH_EX', 400, 150],
  ['MEMORY_ALLOCATION_EXT', 60_000, 30],
];
/** Per second: latch waits and ms. */
const BUSY_LATCHES: [string, number, number][] = [
  ['BUFFER', 5000, 900],
  ['ACCESS_METHODS_DATASET_PARENT', 200, 40],
  ['LOG_MANAGER', 50, 20],
];

/**
 * Adds `seconds` of a busy server's history to the counters: spinlocks, waits, latches, each online CPU 45% busy,
 * the system databases' transactions and log, batch requests and data file I/O. Called once, at startup.
 */
export function addBusyHistory(counters: CounterStore, seconds: number, onlineCpus: number[], databases: string[]): void {
  for (const [name, spins] of BUSY_SPINS) {
    const t = counters.spinlocks.get(name);
    if (!t) continue;
    t.spins += spins * seconds;
    t.collisions += (spins / 50) * seconds;
    t.backoffs += (spins / 2000) * seconds;
    t.sleepMs += (spins / 200_000) * seconds;
  }
  for (const [name, count, ms] of BUSY_WAITS) {
    const t = counters.waits.get(name);
    if (!t) continue;
    t.count += count * seconds;
    t.ms += ms * seconds;
    t.signalMs += ms * 0.1 * seconds;
    t.maxMs = Math.max(t.maxMs, 12_000);
  }
  for (const [name, count, ms] of BUSY_LATCHES) {
    const t = counters.latches.get(name);
    if (!t) continue;
    t.count += count * seconds;
    t.ms += ms * seconds;
    t.maxMs = Math.max(t.maxMs, 3000);
  }
  for (const cpu of onlineCpus) counters.cpuBusyMs.set(cpu, (counters.cpuBusyMs.get(cpu) ?? 0) + 450 * seconds);
  counters.batchRequests += 3000 * seconds;
  for (const name of databases) {
    const share = name.toLowerCase() === 'tempdb' ? 0.5 : 0.05;
    const d = counters.db(name);
    d.transactions += 2000 * share * seconds;
    d.writeTransactions += 1500 * share * seconds;
    d.logFlushes += 800 * share * seconds;
    d.logBytes += 6_000_000 * share * seconds;
    d.flushWaits += 700 * share * seconds;
    d.flushWaitMs += 400 * share * seconds;
    d.flushWriteMs += 300 * share * seconds;
    const io = counters.io(name);
    io.writes += 300 * share * seconds;
    io.bytesWritten += 300 * share * 65_536 * seconds;
    io.writeStallMs += 150 * share * seconds;
  }
}
