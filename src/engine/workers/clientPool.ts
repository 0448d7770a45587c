// The client loop on every client core: a run's sessions split over worker threads (clientWorker.ts), each with its
// own connections and event loop, while the main thread keeps the sampler and the UI. A LoadDriver (loadDriver.ts) as
// the sessions on one event loop are (load.ts, custom/sessions.ts): the workers' latency histograms merge
// exactly, failures and error counts keep the run's session numbers, cancel reaches every worker's calls (ATTENTION),
// and a worker that dies is reported as its sessions' failures rather than waited for.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CustomRunStats, WaitDelta } from '../../shared/experiment';
import { readOwnCounters, waitDeltas, type OwnCounters } from '../custom/ownSessions';
import { customRunStats, type CustomLoop } from '../custom/sessions';
import type { LoadDriver, PhaseFailure, PhaseResult, PhaseSpec } from '../loadDriver';
import type { FromWorker, ToWorker, WorkerData, WorkerPlan } from './messages';

/** Beside this file after tsc (out/src/engine/workers/) and in the extension's bundle (dist/, its own webpack entry). */
export const WORKER_FILE = path.join(__dirname, 'clientWorker.js');

/** The worker's file, or null when this build lacks it (the caller then runs the sessions on its own event loop). */
export function workerEntry(file = WORKER_FILE): string | null {
  return fs.existsSync(file) ? file : null;
}

/** The client's cores: os.availableParallelism() where Node has it (18.14+), else the CPU count. */
export function clientCores(): number {
  const o = os as { availableParallelism?: () => number };
  return Math.max(1, o.availableParallelism ? o.availableParallelism() : os.cpus().length);
}

/** Worker threads for a run of `sessions`: as asked (0 = none: one event loop), else one per client core; never more than sessions. */
export function clientWorkerCount(requested: number | undefined, sessions: number): number {
  return Math.max(0, Math.min(requested ?? clientCores(), sessions));
}

type Reply = FromWorker | { type: 'crashed'; message: string };

interface Slot {
  index: number;
  thread: Worker;
  first: number;
  sessions: number;
  ids: number[];
  /** Why it stopped, once it has (an uncaught error, or an exit nobody asked for). */
  dead: string | null;
  closing: boolean;
  waiting: ((m: Reply) => void) | null;
}

export class ClientWorkerPool implements LoadDriver {
  private stats: CustomRunStats | null = null;
  private waits: Record<string, WaitDelta> | null = null;
  private readonly live: Float64Array;
  private onStopped: (() => void) | null = null;
  private opened = 0;

  private constructor(
    private readonly slots: Slot[],
    private readonly plan: WorkerPlan,
    liveCalls: SharedArrayBuffer,
  ) {
    this.live = new Float64Array(liveCalls);
  }

  /** Sessions that connected. */
  get count(): number {
    return this.opened;
  }

  /** Starts `workers` threads over `threads` sessions (split as evenly as they go); fails if most cannot connect. */
  static async open(
    plan: WorkerPlan,
    threads: number,
    workers: number,
    failures: PhaseFailure[],
    entry = WORKER_FILE,
  ): Promise<ClientWorkerPool> {
    const n = Math.max(1, Math.min(workers, threads));
    const liveCalls = new SharedArrayBuffer(8 * n);
    const slots: Slot[] = [];
    for (let i = 0, first = 0; i < n; i++) {
      const sessions = Math.floor(threads / n) + (i < threads % n ? 1 : 0);
      const data: WorkerData = { plan, index: i, of: n, first, sessions, liveCalls };
      const slot: Slot = {
        index: i,
        thread: new Worker(entry, { workerData: data }),
        first,
        sessions,
        ids: [],
        dead: null,
        closing: false,
        waiting: null,
      };
      first += sessions;
      slots.push(slot);
    }
    const pool = new ClientWorkerPool(slots, plan, liveCalls);
    for (const s of slots) pool.listen(s);
    const opened = await Promise.all(slots.map((s) => pool.reply(s)));
    let ok = 0;
    opened.forEach((m, i) => {
      const s = slots[i];
      if (m.type === 'opened') {
        s.ids = m.ids;
        ok += m.count;
        failures.push(...m.failures);
      } else {
        const why = m.type === 'open-failed' || m.type === 'crashed' ? m.message : `unexpected '${m.type}'`;
        for (let k = 0; k < s.sessions; k++)
          failures.push({ session: s.first + k + 1, message: `could not connect: client worker ${i + 1}: ${why}`, phase: 'connect' });
      }
    });
    pool.opened = ok;
    if (ok * 2 <= threads) {
      await pool.close();
      throw new Error(`Only ${ok} of ${threads} workload sessions could connect: ${failures[0]?.message ?? ''}`);
    }
    return pool;
  }

  /** The sessions' server ids in session order (0 where unknown). */
  get ids(): number[] {
    return this.slots.flatMap((s) => s.ids);
  }

  /** Calls completed so far in the measured phase, over every worker. */
  get liveCalls(): number {
    let n = 0;
    for (const v of this.live) n += v;
    return n;
  }

  runStats(): CustomRunStats | null {
    return this.stats;
  }

  sessionWaits(): Record<string, WaitDelta> | null {
    return this.waits;
  }

  private listen(s: Slot): void {
    const settle = (m: Reply) => {
      const w = s.waiting;
      s.waiting = null;
      w?.(m);
    };
    s.thread.on('message', (m: FromWorker) => {
      if (m.type === 'stopped') this.onStopped?.();
      else settle(m);
    });
    s.thread.on('error', (err) => {
      s.dead = err.message;
      settle({ type: 'crashed', message: err.message });
    });
    s.thread.on('exit', (code) => {
      if (!s.closing && !s.dead) s.dead = `it exited (code ${code})`;
      settle({ type: 'crashed', message: s.dead ?? 'it exited' });
    });
  }

  /** The worker's next reply; at once a 'crashed' one when it is already gone. */
  private reply(s: Slot, send?: ToWorker): Promise<Reply> {
    if (s.dead) return Promise.resolve({ type: 'crashed', message: s.dead });
    return new Promise((resolve) => {
      s.waiting = resolve;
      if (send) s.thread.postMessage(send);
    });
  }

  private tell(m: ToWorker): void {
    for (const s of this.slots) if (!s.dead && !s.closing) s.thread.postMessage(m);
  }

  async runPhase(spec: PhaseSpec, signal: AbortSignal): Promise<PhaseResult> {
    const measured = spec.phase === 'measure';
    const sink = spec.latency;
    if (sink && !sink.mergeState) throw new Error('client workers need a latency sink that merges recorders (LatencyRecorder)');
    const custom = this.plan.kind === 'custom';
    if (measured) this.live.fill(0);
    const before = custom && measured ? await this.counters() : null;
    const failures: PhaseFailure[] = [];
    const result: PhaseResult = { rows: 0, rowsUnknown: false, calls: 0, cancelledCalls: 0, failures, cancelled: false };
    const total = this.slots.reduce((n, s) => n + s.sessions, 0);
    const onAbort = () => this.tell({ type: 'cancel' });
    signal.addEventListener('abort', onAbort, { once: true });
    this.onStopped = () => this.tell({ type: 'halt' });
    const loops: CustomLoop[] = [];
    let failed: string | null = null;
    try {
      if (signal.aborted) onAbort();
      const replies = await Promise.all(
        this.slots.map((s) => {
          // A row count is split as the sessions are (load.ts splits each worker's share over its sessions again).
          const rows = spec.rows === null ? null : Math.ceil((spec.rows * s.sessions) / total);
          return this.reply(s, { type: 'phase', spec: { phase: spec.phase, mode: spec.mode, durationMs: spec.durationMs, rows } });
        }),
      );
      replies.forEach((m, i) => {
        const s = this.slots[i];
        if (m.type === 'phase-done') {
          result.rows += m.result.rows;
          result.calls += m.result.calls;
          result.cancelledCalls += m.result.cancelledCalls;
          result.rowsUnknown ||= m.result.rowsUnknown;
          if (m.result.finished) (result.finished ??= []).push(...m.result.finished);
          if (m.result.clientPath) {
            const p = (result.clientPath ??= { lean: 0, driver: 0 });
            p.lean += m.result.clientPath.lean;
            p.driver += m.result.clientPath.driver;
            p.refused ??= m.result.clientPath.refused;
          }
          failures.push(...m.result.failures);
          if (m.latency) sink?.mergeState?.(m.latency);
          if (m.custom) loops.push({ result: m.result, ...m.custom });
        } else if (m.type === 'phase-failed') {
          failed ??= m.message;
        } else {
          const why = m.type === 'crashed' ? m.message : `unexpected '${m.type}'`;
          // Its sessions' calls in this phase are lost with it: counted as failures, not as rows.
          for (let k = 0; k < s.sessions; k++)
            failures.push({ session: s.first + k + 1, message: `client worker ${i + 1} stopped: ${why}`, phase: spec.phase });
          result.rowsUnknown = true;
        }
      });
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.onStopped = null;
    }
    if (failed !== null) throw new Error(failed);
    result.cancelled = signal.aborted;
    if (custom && measured) {
      const after = await this.counters();
      this.stats = customRunStats(loops, before, after);
      this.waits = before && after ? waitDeltas(before.waits, after.waits) : null;
    }
    return result;
  }

  private counters(): Promise<OwnCounters | null> {
    return readOwnCounters(
      this.plan.target,
      this.ids.filter((x) => x > 0),
    );
  }

  /** Closes every worker's connections and ends the threads (a worker that does not answer in 10 s is terminated). */
  async close(): Promise<void> {
    await Promise.all(
      this.slots.map(async (s) => {
        if (s.dead) return;
        const exited = new Promise<void>((resolve) => s.thread.once('exit', () => resolve()));
        s.closing = true;
        const timer = setTimeout(() => void s.thread.terminate(), 10_000);
        s.thread.postMessage({ type: 'close' } satisfies ToWorker);
        await exited;
        clearTimeout(timer);
        s.dead = 'closed';
      }),
    );
  }
}
