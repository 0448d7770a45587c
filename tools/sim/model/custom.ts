// Custom workloads in the simulator: batches the product did not write, sent by a user's `spinlab run --sql`. It
// models what it can (SELECTs over the views it serves, WAITFOR DELAY, EXEC of procedures it holds), one statement
// after another, charging each session a synthetic cost per call (CPU, logical reads, waits) that
// sys.dm_exec_sessions and sys.dm_exec_session_wait_stats (sql/workload/session-stats) then serve. Anything else is
// refused as "not supported by the simulator". The numbers are synthetic, like every number here.
import { lex } from '../grammar/lex';
import type { ResponseItem, RpcParam, SessionContext, SqlType, Value } from '../tds/contract';
import { err, SqlError } from './errors';
import type { SimModel } from './instance';
import type { Rates } from './contentionTypes';
import type { LoadNoise } from './noise';
import { T } from './types';

export interface SessionCost {
  cpuMs: number;
  logicalReads: number;
  /** Physical reads and page writes (a monitor's #temp tables are written in tempdb). */
  reads: number;
  writes: number;
  /** Time its requests were scheduled (sys.dm_exec_sessions.total_scheduled_time). */
  scheduledMs: number;
  waits: Map<string, { count: number; ms: number; signalMs: number }>;
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
 * page-latch queues): each session's sys.dm_exec_session_wait_stats gets its part of them over dt seconds, split by
 * the rows it writes. 95% of them: the server-wide figures carry up to 3% of noise each interval, and a session's
 * own share must never read as more than the server's whole.
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
    const share = (rows[i] / total) * dt * OWN_WAIT_SHARE;
    if (share <= 0 || !model.sessions.has(m.spid)) return;
    const own = sessionCost(model, m.spid).waits;
    for (const [type, w] of rates.waits) {
      const acc = own.get(type) ?? { count: 0, ms: 0, signalMs: 0 };
      acc.count += w.count * share;
      acc.ms += w.ms * share;
      acc.signalMs += w.signalMs * share;
      own.set(type, acc);
    }
  });
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

/** One wait of `type` for the session (sys.dm_exec_session_wait_stats). */
export function addWait(c: SessionCost, type: string, ms: number, signalMs = 0): void {
  const w = c.waits.get(type) ?? { count: 0, ms: 0, signalMs: 0 };
  w.count++;
  w.ms += ms;
  w.signalMs += signalMs;
  c.waits.set(type, w);
}

/** The batch's statements, split at top-level semicolons and at statement keywords that start a new statement. */
export function splitStatements(text: string): string[] {
  const code = codeOf(text);
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i <= code.length; i++) {
    if (i === code.length || code[i] === ';') {
      const s = text.slice(start, i).trim();
      if (codeOf(s).trim()) out.push(s);
      start = i + 1;
    }
  }
  return out;
}

function delayMs(spec: string): number | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(spec.trim());
  if (!m) return null;
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000 + Number((m[4] ?? '0').padEnd(3, '0'));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
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

function typeOf(v: Value): SqlType {
  return typeof v === 'number' ? (Number.isInteger(v) ? T.bigint : T.float) : T.nvarchar(4000);
}

export interface CustomCall {
  model: SimModel;
  session: SessionContext;
  params: Map<string, Value>;
  signal: AbortSignal;
  /** One statement through the ad-hoc SELECT/USE engine (refuses what it does not parse). */
  adHoc: (text: string) => ResponseItem[];
  /** A procedure call as an RPC would make it. */
  exec: (name: string, params: RpcParam[]) => Promise<ResponseItem[]>;
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
  const cpuBefore = sessionCost(c.model, c.session.spid).cpuMs;
  if (paced) c.model.noise?.touch(c.model.clock.now(), c.session.spid);
  let items: ResponseItem[];
  try {
    items = await run();
  } finally {
    chargeScheduler(c.model, c.session.spid, sessionCost(c.model, c.session.spid).cpuMs - cpuBefore);
  }
  if (paced && c.model.noise) await noiseHold(c.model.noise, c);
  return items;
}

export async function runCustomBatch(c: CustomCall, text: string): Promise<ResponseItem[]> {
  return asCall(c, text, true, () => statements(c, text));
}

async function statements(c: CustomCall, text: string): Promise<ResponseItem[]> {
  const cost = sessionCost(c.model, c.session.spid);
  const items: ResponseItem[] = [];
  for (const st of splitStatements(text)) {
    const code = codeOf(st).trim();
    const wait = /^waitfor\s+delay\s+/i.exec(code);
    if (wait) {
      const arg = st.slice(wait[0].length).trim();
      const lit = /^N?'([^']*)'$/i.exec(arg);
      const value = lit ? lit[1] : /^@\w+$/.test(arg) ? c.params.get(arg.toLowerCase()) : undefined;
      const ms = typeof value === 'string' ? delayMs(value) : null;
      if (ms === null)
        throw new SqlError([err(148, `Incorrect time syntax in time string '${String(value ?? arg)}' used with WAITFOR.`, 15, 1)]);
      const t0 = Date.now();
      await sleep(ms, c.signal);
      addWait(cost, 'WAITFOR', Date.now() - t0);
      cost.cpuMs += 0.01;
      continue;
    }
    const exec = /^exec(?:ute)?\s+([\w.[\]]+)\s*/i.exec(code);
    if (exec && !/^exec(?:ute)?\s*\(/i.test(code)) {
      const args = st.slice(exec[0].length).trim();
      const params: RpcParam[] = [];
      for (const part of args ? args.split(/,(?=(?:[^']*'[^']*')*[^']*$)/) : []) {
        const m = /^\s*(@\w+)\s*=\s*(N?'(?:[^']|'')*'|-?\d+(?:\.\d+)?|@\w+)\s*$/i.exec(part);
        if (!m)
          throw new SqlError([
            err(
              50000,
              `The Spinlock Lab simulator (synthetic numbers, not a SQL Server): this EXEC argument is not supported by the simulator: ${part.trim()} (write @name = value).`,
            ),
          ]);
        const raw = m[2];
        const v: Value = raw.startsWith('@')
          ? (c.params.get(raw.toLowerCase()) ?? null)
          : /^N?'/i.test(raw)
            ? raw.replace(/^N?'|'$/gi, '').replace(/''/g, "'")
            : Number(raw);
        params.push({ name: m[1], sqlType: typeOf(v), value: v, output: false });
      }
      items.push(...(await c.exec(exec[1], params)));
      cost.cpuMs += 0.2;
      cost.logicalReads += 4;
      continue;
    }
    const t0 = process.hrtime.bigint();
    const res = c.adHoc(st);
    // The simulator's own time answering it is CPU this server really spent (parsing, checking, building the rows).
    const spentMs = Number(process.hrtime.bigint() - t0) / 1e6;
    items.push(...res);
    if (res.some((r) => r.kind === 'error')) break;
    // A SELECT's synthetic cost: a little CPU and a page read per few rows it returned.
    const rows = res.reduce((n, r) => n + (r.kind === 'resultSet' ? r.rows.length : 0), 0);
    cost.cpuMs += 0.05 + rows * 0.002 + spentMs;
    cost.logicalReads += 2 + Math.ceil(rows / 10);
  }
  return items;
}

/** --noise: a custom workload's calls per second follow the throughput factor (held back for 1 - f of the time). */
async function noiseHold(noise: LoadNoise, c: CallScope): Promise<void> {
  const t0 = c.model.clock.now();
  const ms = noise.holdMs(t0, c.session.spid);
  if (ms > 0) await sleep(ms, c.signal);
  if (ms > 0) noise.held(c.session.spid, c.model.clock.now() - t0);
  noise.touch(c.model.clock.now(), c.session.spid);
}

/**
 * The text with comments and string literals blanked (same length, newlines kept): the statement's code, read with the
 * simulator's own lexer (the simulator imports nothing from the product it stands in front of).
 */
function codeOf(text: string): string {
  const chars = text.replace(/[^\n]/g, ' ').split('');
  for (const t of lex(text)) {
    // A literal keeps its N prefix and quotes, so what follows it still reads as the next token.
    const keep = t.k === 'str' ? text.indexOf("'", t.start) + 1 : t.end;
    for (let i = t.start; i < keep; i++) chars[i] = text[i];
    if (t.k === 'str') chars[t.end - 1] = text[t.end - 1];
  }
  return chars.join('');
}
