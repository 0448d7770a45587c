// The custom workload's load driver: N sessions in the user's database, each calling the workload's statements in
// turn (its own rotation), with parameter rows bound as typed RPC parameters, optional think time and a per-call
// timeout. A failing call is tallied and the session goes on (unless stop-on-error). A LoadDriver (loadDriver.ts) as
// the built-in driver is, so warm-up, sampling and the run record are shared.
import { setMaxListeners } from 'node:events';
import { DbSession, rpcArg, type RpcArg, type RpcChannel } from '../../db/client';
import type { DbTarget } from '../../db/target';
import type { CallErrorCount, CustomRunStats, CustomWorkload, WaitDelta } from '../../shared/experiment';
import type { LoadDriver, PhaseFailure, PhaseResult, PhaseSpec, SessionRange } from '../loadDriver';
import { unboundVariables } from './batch';
import { RowPicker, type ParamTable } from './params';
import { describeError, ErrorTally, mergeErrorCounts } from './tally';
import { readOwnCounters, sessionIdOf, waitDeltas, type OwnCounters } from './ownSessions';
import { abortableSleep } from '../../shared/abortableSleep';

/** One set of sessions' measured calls, before the counters around them: what a client worker hands back. */
export interface CustomLoop {
  result: PhaseResult;
  failed: number;
  errors: CallErrorCount[];
  /** Sum of the completed calls' client-measured latency (µs). */
  clientUs: number;
  /** The stop-on-error verdict, when this set stopped on one. */
  stopped: string | null;
}

/** The measured phase's calls, errors and per-call figures over one or more sets of sessions (client workers). */
export function customRunStats(loops: readonly CustomLoop[], before: OwnCounters | null, after: OwnCounters | null): CustomRunStats {
  const ok = loops.reduce((n, l) => n + l.result.calls, 0);
  const failed = loops.reduce((n, l) => n + l.failed, 0);
  const clientUs = loops.reduce((n, l) => n + l.clientUs, 0);
  const calls = ok + failed;
  const per = (x: number) => (calls > 0 ? x / calls : null);
  return {
    calls: ok,
    failedCalls: failed,
    errors: mergeErrorCounts(loops.map((l) => l.errors)),
    perCall: {
      clientSec: ok > 0 ? clientUs / ok / 1e6 : null,
      serverCpuSec: before && after ? per((after.cpuMs - before.cpuMs) / 1000) : null,
      logicalReads: before && after ? per(after.logicalReads - before.logicalReads) : null,
    },
    stoppedOnError: loops.find((l) => l.stopped)?.stopped ?? null,
  };
}

export class CustomSessions implements LoadDriver {
  private stats: CustomRunStats | null = null;
  private waits: Record<string, WaitDelta> | null = null;
  /** Calls completed so far in the measured phase (the live ticks' throughput). */
  liveCalls = 0;
  private constructor(
    private readonly sessions: DbSession[],
    /** The sessions' server ids (their own counters and waits). */
    readonly ids: number[],
    private readonly target: DbTarget,
    private readonly workload: CustomWorkload,
    private readonly table: ParamTable | null,
    private readonly first = 0,
    private readonly stride: { index: number; of: number } | null = null,
  ) {}

  static async open(
    target: DbTarget,
    workload: CustomWorkload,
    table: ParamTable | null,
    threads: number,
    failures: PhaseFailure[],
    range: SessionRange & { stride?: { index: number; of: number } } = { first: 0, tolerant: false },
  ): Promise<CustomSessions> {
    const opened = await Promise.allSettled(
      Array.from({ length: threads }, async () => {
        const s = await DbSession.open(target, { database: workload.database, appName: 'Spinlock Lab' });
        return { s, id: await sessionIdOf(s) };
      }),
    );
    const sessions: DbSession[] = [];
    const ids: number[] = [];
    opened.forEach((r, i) => {
      if (r.status === 'fulfilled') {
        sessions.push(r.value.s);
        ids.push(r.value.id);
      } else
        failures.push({
          session: range.first + i + 1,
          message: `could not connect to [${workload.database}]: ${(r.reason as Error).message}`,
          phase: 'connect',
        });
    });
    if (!range.tolerant && sessions.length * 2 <= threads) {
      await Promise.all(sessions.map((s) => s.close()));
      throw new Error(
        `Only ${sessions.length} of ${threads} workload sessions could connect to [${workload.database}]: ${failures[0]?.message ?? ''}`,
      );
    }
    return new CustomSessions(sessions, ids, target, workload, table, range.first, range.stride ?? null);
  }

  get count(): number {
    return this.sessions.length;
  }

  /** The measured phase's calls, errors and per-call figures; null before one ran. */
  runStats(): CustomRunStats | null {
    return this.stats;
  }

  /** The measured phase's waits of these sessions, or null when they could not be read. */
  sessionWaits(): Record<string, WaitDelta> | null {
    return this.waits;
  }

  /** Per statement: the text and the parameters it binds (typed once; each call only sets the values). */
  private prepared(): { text: string; args: RpcArg[]; columns: number[] }[] {
    return this.workload.statements.map(({ text }) => {
      const vars = unboundVariables(text);
      const cols = vars.map((v) => this.table!.columns.findIndex((c) => c.name.toLowerCase() === v));
      const args = cols.map((c) => rpcArg({ name: this.table!.columns[c].name, type: this.table!.columns[c].type, value: null }));
      return { text, args, columns: cols };
    });
  }

  counters(): Promise<OwnCounters | null> {
    return readOwnCounters(this.target, this.ids);
  }

  async runPhase(spec: PhaseSpec, signal: AbortSignal): Promise<PhaseResult> {
    const measured = spec.phase === 'measure';
    if (measured) this.liveCalls = 0;
    const before = measured ? await this.counters() : null;
    const loop = await this.runLoop(spec, signal, () => {
      this.liveCalls++;
    });
    if (measured) {
      const after = await this.counters();
      this.stats = customRunStats([loop], before, after);
      this.waits = before && after ? waitDeltas(before.waits, after.waits) : null;
    }
    return loop.result;
  }

  /**
   * The calls alone, without the sessions' counters around them (a client worker runs this; the main thread reads the
   * counters of every worker's sessions at once). `onCall` counts each completed measured call for the live ticks;
   * `onStop` hears a stop-on-error at once.
   */
  async runLoop(
    spec: PhaseSpec,
    signal: AbortSignal,
    onCall: () => void = () => undefined,
    onStop: () => void = () => undefined,
  ): Promise<CustomLoop> {
    const failures: PhaseFailure[] = [];
    const result: PhaseResult = { rows: 0, rowsUnknown: false, calls: 0, cancelledCalls: 0, failures, cancelled: false };
    // Warm-up runs for its duration; the measured phase for the iterations, else the duration.
    const measured = spec.phase === 'measure';
    // 'all': an iteration is every statement in order from the first, as ostress runs its file; else one call, each
    // session starting its rotation at its own statement so the sessions do not all run the same one at once.
    const all = this.workload.perIteration === 'all';
    const callsPerIteration = all ? this.workload.statements.length : 1;
    const perSession = measured && this.workload.iterations !== null ? this.workload.iterations * callsPerIteration : null;
    const tally = new ErrorTally();
    let stopped: string | null = null;
    const picker = this.table
      ? new RowPicker(this.table.rows.length, this.workload.params?.order ?? 'round-robin', this.workload.params?.scope ?? 'session')
      : null;
    const phase = new AbortController();
    setMaxListeners(0, phase.signal);
    const onAbort = () => phase.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = spec.durationMs !== null && perSession === null ? setTimeout(() => phase.abort(), spec.durationMs) : undefined;
    let clientUs = 0;
    try {
      await Promise.all(
        this.sessions.map(async (s, k) => {
          // The session's number in the run (a client worker holds sessions first+1..first+n): its statement rotation
          // and parameter rows are the ones it has on one event loop.
          const i = this.first + k;
          const statements = this.prepared();
          let channel: RpcChannel;
          try {
            channel = await s.rpcChannel(phase.signal);
          } catch (err) {
            failures.push({
              session: i + 1,
              message: (err as Error).message,
              number: (err as { number?: number }).number,
              phase: spec.phase,
            });
            return;
          }
          try {
            for (let n = 0; !phase.signal.aborted && (perSession === null || n < perSession); n++) {
              const st = statements[(all ? n : n + i) % statements.length];
              if (picker) {
                const row = this.table!.rows[this.pick(picker, i)];
                st.args.forEach((a, c) => {
                  a.value = row[st.columns[c]];
                });
              }
              const t0 = process.hrtime.bigint();
              try {
                await channel.exec(st.text, st.args, this.workload.queryTimeoutMs ?? 0);
                const us = Number(process.hrtime.bigint() - t0) / 1000;
                spec.latency?.record(us);
                clientUs += us;
                result.calls += 1;
                result.rows += 1;
                if (measured) onCall();
              } catch (err) {
                // Cancelled by the end of the phase (its duration, a cancel, a stop-on-error elsewhere): not a failure, but
                // counted, so a run whose every call was still running at the end says so.
                if (phase.signal.aborted && (err as { code?: string }).code !== 'ETIMEOUT') {
                  result.cancelledCalls += 1;
                  break;
                }
                const c = tally.add(i + 1, err);
                if (this.workload.stopOnError) {
                  stopped = `session ${i + 1}: ${describeError({ ...c, count: 1, sessions: { [String(i + 1)]: 1 } })}`;
                  phase.abort();
                  onStop();
                  break;
                }
              }
              if (this.workload.thinkTimeMs > 0 && !phase.signal.aborted) await abortableSleep(this.workload.thinkTimeMs, phase.signal);
            }
          } finally {
            channel.release();
          }
        }),
      );
    } finally {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
    result.cancelled = signal.aborted;
    return { result, failed: tally.failed, errors: tally.list(), clientUs, stopped };
  }

  /** A shared ('shared' scope) row order split over client workers: worker w of W takes rows w, w+W, w+2W, ... */
  private pick(picker: RowPicker, session: number): number {
    if (!this.stride || this.workload.params?.scope !== 'shared' || this.workload.params.order === 'random') return picker.next(session);
    return (this.stride.index + this.stride.of * picker.next(session)) % this.table!.rows.length;
  }

  async close(): Promise<void> {
    await Promise.all(this.sessions.map((s) => s.close()));
  }
}
