// What each session's calls cost, whoever sends them (the product, a user's `spinlab run --sql`, a driver): the
// synthetic CPU, reads and waits the executor and the contention model charge, which sys.dm_exec_sessions and
// sys.dm_exec_session_wait_stats then serve, and every call's CPU on a scheduler as well. A workload call is paced by
// --noise. The numbers are synthetic, like every number here.
import type { ResponseItem, SessionContext, Value } from '../tds/contract';
import type { SimModel } from './instance';
import type { Rates } from './contentionTypes';
import type { LoadNoise } from './noise';
import type { WaitAmount } from './counters';

export interface SessionCost {
  cpuMs: number;
  logicalReads: number;
  /** Physical reads and page writes (a monitor's #temp tables are written in tempdb). */
  reads: number;
  writes: number;
  /** Time its requests were scheduled (sys.dm_exec_sessions.total_scheduled_time). */
  scheduledMs: number;
  waits: Map<string, { count: number; ms: number; signalMs: number }>;
  /**
   * While a batch runs: the session's CPU and scheduled time when it started. sys.dm_exec_sessions counts a request's
   * CPU when it completes, so the session's row shows these until then (its running request is in dm_exec_requests).
   */
  atBatchStart?: { cpuMs: number; scheduledMs: number } | null;
}

const costs = new WeakMap<SimModel, Map<number, SessionCost>>();
/** What custom batches arrived, with the RPC parameters bound to them (tests read it; bounded). */
const observed = new WeakMap<SimModel, { spid: number; text: string; params: Record<string, Value> }[]>();

export function sessionCost(model: SimModel, spid: number): SessionCost {
  let m = costs.get(model);
  if (!m) costs.set(model, (m = new Map()));
  let c = m.get(spid);
  if (!c) m.set(spid, (c = { cpuMs: 0, logicalReads: 0, reads: 0, writes: 0, scheduledMs: 0, waits: new Map() }));
  return c;
}

const OWN_WAIT_SHARE = 0.95;

/**
 * The contention model's waits are those of the workload sessions (commits waiting for their log flush, latch and
 * page-latch queues): each session's sys.dm_exec_session_wait_stats gets its part of what the last interval added to
 * the server-wide waits (its noise included), split by the rows it writes; 95% of it, the rest the server's own tasks'.
 */
export function chargeOwnWaits(model: SimModel, members: readonly { spid: number; id: number }[], rates: Rates, dt: number): void {
  const rows = members.map((m) => rates.workers.get(m.id)?.rowsPerSec ?? 0);
  const total = rows.reduce((s, r) => s + r, 0);
  if (total <= 0) return;
  // Each session's CPU so far (sys.dm_exec_sessions.cpu_time): its worker's CPU use, as the schedulers count it.
  for (const m of members) {
    const util = rates.workers.get(m.id)?.cpuUtil ?? 0;
    if (util > 0 && model.sessions.has(m.spid)) sessionCost(model, m.spid).cpuMs += util * 1000 * dt * OWN_WAIT_SHARE;
  }
  members.forEach((m, i) => {
    const share = (rows[i] / total) * OWN_WAIT_SHARE;
    if (share <= 0 || !model.sessions.has(m.spid)) return;
    for (const [type, w] of model.counters.lastWaits)
      chargeWait(model, m.spid, type, { count: w.count * share, ms: w.ms * share, signalMs: w.signalMs * share });
  });
}

/**
 * Adds to the session's own waits, and tells the server-wide counters what their rows gained in whole units (see
 * CounterStore.chargeOwn); `alsoServer` when the wait is not among the modelled rates.
 */
function chargeWait(model: SimModel, spid: number, type: string, a: WaitAmount, alsoServer = false): void {
  const own = sessionCost(model, spid).waits;
  const w = own.get(type) ?? { count: 0, ms: 0, signalMs: 0 };
  const shown = { count: 0, ms: 0, signalMs: 0 };
  for (const k of ['count', 'ms', 'signalMs'] as const) {
    shown[k] = Math.floor(w[k] + a[k]) - Math.floor(w[k]);
    w[k] += a[k];
  }
  own.set(type, w);
  model.counters.chargeOwn(type, a, shown, alsoServer);
}

/** A custom call's CPU is the server's too: it lands on a scheduler's total_cpu_usage_ms, as on SQL Server. */
function chargeScheduler(model: SimModel, spid: number, ms: number): void {
  const online = model.onlineCpus();
  if (ms <= 0 || !online.length) return;
  const cpu = online[spid % online.length];
  model.counters.cpuBusyMs.set(cpu, (model.counters.cpuBusyMs.get(cpu) ?? 0) + ms);
}

/** A session ended: its figures go with it (a later session that gets the same id starts from zero, as on SQL Server). */
export function dropSessionCost(model: SimModel, spid: number): void {
  costs.get(model)?.delete(spid);
}

export function observedCalls(model: SimModel): { spid: number; text: string; params: Record<string, Value> }[] {
  return observed.get(model) ?? [];
}

/** One wait of `type` for the session (sys.dm_exec_session_wait_stats), and so for the server (sys.dm_os_wait_stats). */
export function addWait(model: SimModel, spid: number, type: string, ms: number, signalMs = 0): void {
  chargeWait(model, spid, type, { count: 1, ms, signalMs }, true);
}

export interface CustomCall {
  model: SimModel;
  session: SessionContext;
  params: Map<string, Value>;
  signal: AbortSignal;
  /** The statement through the small statement path (USE; anything else refused as not implemented). */
  adHoc: (text: string) => ResponseItem[];
}

/** What every batch costs beyond its statements, whoever runs it (the executor or the statement path below). */
export type CallScope = Pick<CustomCall, 'model' | 'session' | 'params' | 'signal'>;

/**
 * Runs one batch as a call: noted for tests, its CPU put on a scheduler as well as on its session, and, when it is
 * workload (`paced`), held back by --noise as a busy server holds a client-paced workload.
 */
export async function asCall(c: CallScope, text: string, paced: boolean, run: () => Promise<ResponseItem[]>): Promise<ResponseItem[]> {
  const log = observed.get(c.model) ?? [];
  observed.set(c.model, log);
  log.push({ spid: c.session.spid, text, params: Object.fromEntries(c.params) });
  if (log.length > 10_000) log.splice(0, log.length - 10_000);
  const cost = sessionCost(c.model, c.session.spid);
  const cpuBefore = cost.cpuMs;
  cost.atBatchStart = { cpuMs: cost.cpuMs, scheduledMs: cost.scheduledMs };
  if (paced) c.model.noise?.touch(c.model.clock.now(), c.session.spid);
  let items: ResponseItem[];
  try {
    items = await run();
  } finally {
    cost.atBatchStart = null;
    chargeScheduler(c.model, c.session.spid, cost.cpuMs - cpuBefore);
  }
  if (paced && c.model.noise) await noiseHold(c.model.noise, c);
  return items;
}

/** A statement the executor does not run whole (the session layer has split its batch): noted and costed as a call. */
export function runCustomBatch(c: CustomCall, text: string): Promise<ResponseItem[]> {
  return asCall(c, text, false, async () => c.adHoc(text));
}

/** Waits `ms` on the real clock; a cancel (the signal) ends the wait early. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** --noise: a custom workload's calls per second follow the throughput factor (held back for 1 - f of the time). */
async function noiseHold(noise: LoadNoise, c: CallScope): Promise<void> {
  const t0 = c.model.clock.now();
  const ms = noise.holdMs(t0, c.session.spid);
  if (ms > 0) await sleep(ms, c.signal);
  if (ms > 0) noise.held(c.session.spid, c.model.clock.now() - t0);
  noise.touch(c.model.clock.now(), c.session.spid);
}
