// The built-in scenarios' load driver on this event loop: N workload sessions, each on its own connection, started
// together. A phase is either one EXEC of the scenario's loop procedure per session (server loop, as ostress runs the
// posts' procedures) or the client calling the scenario's one-transaction procedure over and over (client loop, with
// per-call latency).
import { setMaxListeners } from 'node:events';
import { DbSession } from '../db/client';
import type { LeanChannel } from '../db/lean/leanChannel';
import type { DbTarget } from '../db/target';
import type { ProcArg } from '../db/params';
import { num } from '../db/rows';
import type { ParamValue } from '../shared/experiment';
import type { ClientPath, LoadDriver, PhaseFailure, PhaseResult, PhaseSpec, SessionRange } from './loadDriver';
import { leanShapeRefusal, openCaller, type Caller } from './loadCaller';
import { sessionIdOf } from './custom/ownSessions';
import { BUILTIN_ARG_TYPES, paramSqlType, rowsPerCall, workloadProcedure, type ScenarioManifest } from './scenarios';

/** Keys of one session live in [block * 1e10, (block + 1) * 1e10): the posts' @@SPID * 10000000000, made unique. */
export const KEY_BLOCK_SIZE = 10_000_000_000;
/** Each phase of a set of sessions starts this far into their blocks, so warm-up and measured keys never collide. */
export const PHASE_KEY_STRIDE = KEY_BLOCK_SIZE / 10;

export class WorkloadSessions implements LoadDriver {
  /** Calls completed so far in the measured phase. */
  liveCalls = 0;

  private constructor(
    private readonly sessions: DbSession[],
    /** The sessions' server ids, for their own counters and waits (ownSessions.ts). */
    readonly ids: number[],
    private readonly scenario: ScenarioManifest,
    private readonly params: Record<string, ParamValue>,
    private readonly first: number,
    /** Each session's key block, drawn when the sessions opened (none when the scenario's procedures take no key). */
    private blocks: number[] | null,
    /** The client loop's calls: the lean path where the session allows it (loadCaller.ts), or always the driver. */
    private readonly clientPath: ClientPath,
  ) {}

  /** Each session's lean channel once the client loop took its connection over (null: that session uses the driver). */
  private lean: (LeanChannel | null)[] | null = null;
  /** Why sessions could not take the lean path (the first reason), for the run's account of which path ran. */
  private leanRefused: string | null = null;
  /** The target's request timeout for a lean call (0: none), as the driver applies it to its calls. */
  private timeoutMs = 0;

  /** Phases run so far: each one's keys start PHASE_KEY_STRIDE further into the blocks. */
  private phases = 0;

  /** Opens `threads` connections to the lab database at once; fails if most cannot connect. */
  static async open(
    target: DbTarget,
    labDatabase: string,
    threads: number,
    scenario: ScenarioManifest,
    params: Record<string, ParamValue>,
    failures: PhaseFailure[],
    range: SessionRange = { first: 0, tolerant: false },
    clientPath: ClientPath = 'lean',
  ): Promise<WorkloadSessions> {
    const opened = await Promise.allSettled(
      Array.from({ length: threads }, () => DbSession.open(target, { database: labDatabase, appName: 'Spinlock Lab' })),
    );
    const sessions: DbSession[] = [];
    opened.forEach((r, i) => {
      if (r.status === 'fulfilled') sessions.push(r.value);
      else failures.push({ session: range.first + i + 1, message: `could not connect: ${(r.reason as Error).message}`, phase: 'connect' });
    });
    if (!range.tolerant && sessions.length * 2 <= threads) {
      await Promise.all(sessions.map((s) => s.close()));
      throw new Error(`Only ${sessions.length} of ${threads} workload sessions could connect: ${failures[0]?.message ?? ''}`);
    }
    const ids = await Promise.all(sessions.map((s) => sessionIdOf(s).catch(() => 0)));
    // NEXT VALUE FOR on the NO CACHE sequence writes metadata (and shows as METADATA_SEQUENCE_GENERATOR latch waits):
    // drawn here, before any phase and its baseline sample, never inside a measured window.
    const takesKey = (['server-loop', 'client-loop'] as const).some((m) =>
      workloadProcedure(scenario, m, params).args.includes('key_base'),
    );
    let blocks: number[] | null;
    try {
      blocks = takesKey ? await Promise.all(sessions.map((s) => drawKeyBlock(s))) : null;
    } catch (err) {
      await Promise.all(sessions.map((s) => s.close()));
      throw err;
    }
    const ws = new WorkloadSessions(sessions, ids, scenario, params, range.first, blocks, clientPath);
    ws.timeoutMs = target.requestTimeoutMs ?? 0;
    return ws;
  }

  get count(): number {
    return this.sessions.length;
  }

  /** A scenario's calls have no per-call tally: its figures are the server's. */
  runStats(): null {
    return null;
  }

  /** runOne reads a scenario's sessions' waits around the baseline and final samples (ownSessions.ts). */
  sessionWaits(): null {
    return null;
  }

  private procArgs(names: string[], builtins: Record<string, unknown>): ProcArg[] {
    return names.map((name) => {
      if (name in BUILTIN_ARG_TYPES) return { name, type: BUILTIN_ARG_TYPES[name], value: builtins[name] ?? null };
      const p = this.scenario.parameters.find((x) => x.name === name);
      if (!p) throw new Error(`${this.scenario.id}: the workload names '${name}', which is neither a built-in nor a parameter`);
      return { name, type: paramSqlType(p), value: this.params[name] };
    });
  }

  /** This phase's key base per session: further into each block per phase; fresh blocks after ten phases. */
  private async phaseBases(): Promise<number[]> {
    if (!this.blocks) return this.sessions.map(() => 0);
    if (this.phases * PHASE_KEY_STRIDE >= KEY_BLOCK_SIZE) {
      await this.endLean(); // the key blocks are drawn through the driver
      // runOne runs two phases per set of sessions; this is only for a caller that runs more.
      this.blocks = await Promise.all(this.sessions.map((s) => drawKeyBlock(s)));
      this.phases = 0;
    }
    const offset = this.phases++ * PHASE_KEY_STRIDE;
    return this.blocks.map((b) => b + offset);
  }

  /** `onCall` hears each completed call of the measured phase (a client worker's live count). */
  async runPhase(spec: PhaseSpec, signal: AbortSignal, onCall: () => void = () => undefined): Promise<PhaseResult> {
    const failures: PhaseFailure[] = [];
    const measured = spec.phase === 'measure';
    if (measured) this.liveCalls = 0;
    const called = () => {
      if (!measured) return;
      this.liveCalls++;
      onCall();
    };
    const failed = (i: number, err: unknown) =>
      failures.push({
        session: this.first + i + 1,
        message: (err as Error).message,
        number: (err as { number?: number }).number,
        phase: spec.phase,
      });
    const result: PhaseResult = { rows: 0, rowsUnknown: false, calls: 0, cancelledCalls: 0, failures, cancelled: false, finished: [] };
    const perSession = spec.rows === null ? null : Math.max(1, Math.ceil(spec.rows / this.sessions.length));
    const began = Date.now();
    const finished = (rows: number) => {
      if (!phase.signal.aborted) result.finished!.push({ rows, endedMs: Date.now() - began });
    };
    const bases = await this.phaseBases();
    // One controller for the phase: the user's cancel, or the end of the duration for the client loop.
    const phase = new AbortController();
    // Every session's call in flight listens on this one signal: more than 10 sessions is normal, not a leak.
    setMaxListeners(0, phase.signal);
    const onAbort = () => phase.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = spec.durationMs !== null && spec.mode === 'client-loop' ? setTimeout(() => phase.abort(), spec.durationMs) : undefined;
    try {
      if (spec.mode === 'server-loop') {
        await this.endLean();
        const proc = workloadProcedure(this.scenario, 'server-loop', this.params);
        await Promise.all(
          this.sessions.map(async (s, i) => {
            const args = this.procArgs(proc.args, { key_base: bases[i], rows: perSession, run_ms: spec.durationMs });
            try {
              const sets = await s.callProc(proc.name, args, phase.signal);
              const done = sets[0]?.[0]?.rows_done;
              if (done === undefined) result.rowsUnknown = true;
              else {
                result.rows += num(done);
                finished(num(done));
              }
              result.calls += 1;
              called();
            } catch (err) {
              if (phase.signal.aborted) {
                result.rowsUnknown = true;
                result.cancelledCalls += 1;
              } else failed(i, err);
            }
          }),
        );
      } else {
        const proc = workloadProcedure(this.scenario, 'client-loop', this.params);
        const step = rowsPerCall(this.scenario, this.params);
        let remaining = spec.rows;
        const lean = await this.leanChannels(spec.mode);
        result.clientPath = { lean: lean.filter((x) => x !== null).length, driver: lean.filter((x) => x === null).length };
        if (this.leanRefused && result.clientPath.driver) result.clientPath.refused = this.leanRefused;
        await Promise.all(
          this.sessions.map(async (s, i) => {
            // The arguments are typed once; each call only moves the offset. The session's connection is held for the
            // phase, so a call is one RPC with nothing else around it (the driver comparison in bench/ measures this).
            const args = this.procArgs(proc.args, { key_base: bases[i], offset: 0 });
            let caller: Caller;
            try {
              caller = await openCaller(s, lean[i], proc.name, args, phase.signal, this.timeoutMs);
            } catch (err) {
              failed(i, err);
              return;
            }
            let mine = 0;
            let ok = true;
            try {
              let offset = 0;
              while (!phase.signal.aborted && (remaining === null || remaining > 0)) {
                if (remaining !== null) remaining -= step;
                caller.setOffset(offset);
                const t0 = process.hrtime.bigint();
                try {
                  await caller.call();
                } catch (err) {
                  if (phase.signal.aborted) result.cancelledCalls += 1;
                  else failed(i, err);
                  ok = false;
                  break;
                }
                spec.latency?.record(Number(process.hrtime.bigint() - t0) / 1000);
                offset += step;
                result.calls += 1;
                result.rows += step;
                mine += step;
                called();
              }
              if (ok) finished(mine);
            } finally {
              caller.release();
            }
          }),
        );
      }
    } finally {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
    result.cancelled = signal.aborted;
    return result;
  }

  /**
   * Each session's lean channel for the client loop, taken over at its first client-loop phase and kept for the next
   * ones (its connection is the lean path's from then on); null for a session that keeps the driver, and why.
   */
  private async leanChannels(mode: PhaseSpec['mode']): Promise<(LeanChannel | null)[]> {
    if (this.clientPath === 'driver' || mode !== 'client-loop') return this.sessions.map(() => null);
    if (this.lean && this.lean.every((c) => c === null || c.open)) return this.lean;
    await this.endLean();
    const proc = workloadProcedure(this.scenario, 'client-loop', this.params);
    const shape = leanShapeRefusal(proc.name, this.procArgs(proc.args, { key_base: 0, offset: 0 }));
    if (shape) {
      this.leanRefused = shape;
      return (this.lean = this.sessions.map(() => null));
    }
    this.lean = await Promise.all(
      this.sessions.map(async (s) => {
        const r = await s.leanChannel().catch((err: Error) => ({ refused: err.message }));
        if ('refused' in r) {
          this.leanRefused ??= r.refused;
          return null;
        }
        return r.channel;
      }),
    );
    return this.lean;
  }

  /** Closes the lean channels: their connections go back to the pool closed, which opens fresh ones when asked. */
  private async endLean(): Promise<void> {
    const held = this.lean ?? [];
    this.lean = null;
    await Promise.all(held.map((c) => c?.close()));
  }

  async close(): Promise<void> {
    await this.endLean();
    await Promise.all(this.sessions.map((s) => s.close()));
  }
}

/** One key block from the lab's sequence (sql/lab/key-block.sql): the session's keys start at block * KEY_BLOCK_SIZE. */
async function drawKeyBlock(s: DbSession): Promise<number> {
  const [[row] = []] = await s.runFile('lab/key-block');
  return num(row?.key_block) * KEY_BLOCK_SIZE;
}
