// One run of an experiment: warm-up, baseline sample, the measured phase with a tick every interval, final sample,
// and the run's record (figures, latency, client cost, failures, events). The experiment (experiment.ts) calls it per
// thread count of each arm, with the knobs already in place. The load is whichever LoadDriver (loadDriver.ts) fits the
// run, opened here and driven only through that interface.
import { appendLine } from './outFiles';
import type { DbTarget } from '../db/target';
import type { CustomWorkload, ExperimentEvent, LoadSettings, RunArm, RunRecord, Tick } from '../shared/experiment';
import type { RawSample } from '../shared/types';
import { closingActiveMs, computeTick } from './deltas';
import { Timeline } from './clock';
import { readDeltaSample, readFullSample, Sampler } from './sampler';
import { withOwnShare } from './custom/ownShareRead';
import { runsNativeProcedures, type ScenarioManifest } from './scenarios';
import { addTick, computeDerived, cpusUsedFromTicks, foldTicks } from './totals';
import { LatencyRecorder } from './histogram';
import { ClientStatsRecorder, noClientStats } from './clientStats';
import { recorded, type LoadDriver, type PhaseFailure } from './loadDriver';
import { clientPathNote } from './loadCaller';
import { readOwnCounters, waitDeltas } from './custom/ownSessions';
import type { ParamTable } from './custom/params';
import { openDriver } from './openDriver';
import { overrunNotes } from './overrun';
import { summariseMonitorCost } from '../shared/monitorCost';
import { runVerdict } from './runVerdict';
import { sessionSpread } from '../shared/sessionSpread';
import { othersWarning, ownShare } from '../shared/ownShare';
import { steadyRun } from './steadyRun';
import { plural } from '../shared/plural';
import { sessionFailureLines } from '../shared/failureLines';

/** A custom workload and its parameter rows (read before the experiment; the rows are not saved). */
export interface CustomPlan {
  workload: CustomWorkload;
  table: ParamTable | null;
}

export type ExperimentProgress =
  | { kind: 'status'; message: string }
  | {
      kind: 'run-start';
      run: number;
      threads: number;
      /** Which repetition of its cell (arm and thread count) the run is, from 1. */
      repetition?: number;
      measuredMs: number | null;
      arm?: { id: string; label: string };
    }
  | { kind: 'tick'; run: number; threads: number; repetition?: number; tick: Tick }
  | { kind: 'run-end'; record: RunRecord }
  | { kind: 'event'; event: ExperimentEvent };

export interface RunContext {
  target: DbTarget;
  labDatabase: string;
  load: LoadSettings;
  scenario: ScenarioManifest;
  arm: RunArm;
  index: number;
  threads: number;
  /** Which repetition of its cell this run is, from 1. */
  repetition: number;
  signal: AbortSignal;
  progress: (p: ExperimentProgress) => void;
  note: (level: ExperimentEvent['level'], message: string) => void;
  status: (m: string) => void;
  samplesFile: string;
  /** Logical CPUs per core of the server, for the physical cores beside the CPUs used. */
  threadsPerCore: number;
  custom: CustomPlan | null;
}

export async function runOne(c: RunContext): Promise<RunRecord> {
  const { load, threads, index } = c;
  const runEvents: ExperimentEvent[] = [];
  const runNote = (level: ExperimentEvent['level'], message: string) => {
    runEvents.push({ time: new Date().toISOString(), level, message });
    c.note(level, `run ${index + 1} (${plural(threads, 'thread')}): ${message}`);
  };
  const failures: PhaseFailure[] = [];
  const startedAt = new Date().toISOString();
  c.status(`run ${index + 1}: opening ${plural(threads, 'session')}`);
  // Where the run's time goes, for the overrun notes (overrun.ts): the client's clock.
  const clock = { start: Date.now(), opened: 0, warmedUp: 0, measureStart: 0, measureEnd: 0 };
  let driver: LoadDriver;
  try {
    driver = await openDriver(c, failures, runNote);
    clock.opened = clock.warmedUp = Date.now();
  } catch (err) {
    // Not an exception out of the experiment: the runs before this one stand, the knobs are restored, and the record
    // of this run says why it never started.
    if (c.signal.aborted) throw err;
    runNote('error', (err as Error).message);
    const totals = foldTicks([]);
    return {
      index,
      threads,
      repetition: c.repetition,
      arm: c.arm,
      status: 'failed',
      failedReason: (err as Error).message,
      cancelledCalls: 0,
      startedAt,
      endedAt: new Date().toISOString(),
      elapsedMs: 0,
      rows: 0,
      sessionsOk: 0,
      sessionFailures: failures.map(recorded),
      timeline: [],
      totals,
      derived: computeDerived(totals, { cpusUsed: 0, threads, threadsPerCore: c.threadsPerCore, first: null, last: null }),
      client: noClientStats(),
      latency: null,
      events: runEvents,
    };
  }
  const timeline: Tick[] = [];
  let first: RawSample | null = null;
  let prev: RawSample | null = null;
  // Each tick also reads the workload's own sessions, so the run can say how much of the server's work was its own.
  const ownIds = () => driver.ids;
  const problem = (m: string) => runNote('warning', m);
  const sampler = new Sampler({
    target: c.target,
    labDatabase: c.labDatabase,
    intervalMs: load.intervalMs,
    onSample: (e) => accept(e.sample, e.afterGap, e.atMs),
    onProblem: problem,
    read: withOwnShare(readDeltaSample(c.labDatabase, problem), ownIds, problem),
    readFull: { file: 'dmv/sample', read: withOwnShare(readFullSample(c.labDatabase), ownIds, problem) },
  });
  // closing: the run's final sample, taken after the load ended at that client time.
  let callsSeen = 0;
  let writeError: string | null = null;
  // Tick times on one monotonic clock anchored at the baseline sample: a restarted server's ms_ticks never resets them.
  let timelineClock: Timeline | null = null;
  let prevAtMs = 0;
  const accept = (cur: RawSample, afterGap: boolean, atMs: number, closing?: { loadEndedAt: number }) => {
    if (!prev) {
      prev = cur;
      first = first ?? cur;
      timelineClock = new Timeline(atMs);
      prevAtMs = atMs;
      return;
    }
    let active = closing ? closingActiveMs(prev.clientTime, closing.loadEndedAt, load.intervalMs) : undefined;
    // A run over before a quarter of an interval has this one interval only: it is the measurement, not a sliver
    // after others, so it stays, rated over the time it had load.
    if (closing && active === null && timeline.length === 0 && closing.loadEndedAt > prev.clientTime)
      active = closing.loadEndedAt - prev.clientTime;
    const r = computeTick(prev, cur, {
      labDatabase: c.labDatabase,
      progressTables: c.scenario.progress.tables,
      runStartMsTicks: first!.msTicks,
      gap: afterGap,
      activeMs: active ?? undefined,
    });
    // A custom workload touches no lab table: its ticks count the calls the sessions completed instead.
    if (r.kind === 'tick' && c.custom) {
      const done = driver.liveCalls;
      r.tick.rows = Math.max(0, done - callsSeen);
      r.tick.rowsPerSec = r.tick.intervalMs > 0 ? r.tick.rows / (r.tick.intervalMs / 1000) : 0;
      callsSeen = done;
    }
    // A closing sliver has no honest rate of its own: not charted, not in the timeline. It still belongs to the run:
    // its rows and what the server counted in it go into the totals, over the part of it the load ran, so the run's
    // rates are its counts over the whole measured time (and the sessions' own waits cover the same span).
    if (active === null && r.kind === 'tick') {
      if (closing) closingTick = { ...r.tick, intervalMs: Math.min(r.tick.intervalMs, Math.max(0, closing.loadEndedAt - prev.clientTime)) };
      return;
    }
    if (r.kind === 'skip') return;
    if (r.kind === 'restart') {
      runNote('error', `${r.message} The samples before it are kept.`);
      prev = cur;
      prevAtMs = atMs;
      return;
    }
    // The closing interval ends where the load did (activeMs after the previous sample), not at the final sample.
    r.tick.t = closing ? timelineClock!.at(prevAtMs) + r.tick.intervalMs : timelineClock!.at(atMs);
    prev = cur;
    prevAtMs = atMs;
    timeline.push(r.tick);
    // A tick that cannot be appended (a full disk) stays in memory; the run then fails, saying why, once.
    if (!writeError) {
      try {
        appendLine(c.samplesFile, JSON.stringify({ run: index, threads, arm: c.arm.id, tick: r.tick }));
      } catch (err) {
        writeError = (err as Error).message;
        runNote('error', `The run's later ticks are not saved, and it counts as failed: ${writeError}`);
      }
    }
    c.progress({ kind: 'tick', run: index, threads, repetition: c.repetition, tick: r.tick });
  };

  const latency = load.mode === 'client-loop' ? new LatencyRecorder() : null;
  const clientStats = new ClientStatsRecorder();
  let client: RunRecord['client'] | null = null;
  // Decided at the end: by the run's verdict (runVerdict.ts), a cancel, or an error that ended it.
  let status: RunRecord['status'];
  let rows = 0;
  let last: RawSample | null = null;
  let sessionWaits: RunRecord['sessionWaits'] = null;
  let cancelledCalls = 0;
  let failedReason: string | undefined;
  let closingTick: Tick | null = null;
  let spread: RunRecord['sessionSpread'] = null;
  try {
    if (load.warmupMs > 0 && !c.signal.aborted) {
      c.status(`run ${index + 1}: warming up for ${load.warmupMs} ms`);
      const w = await driver.runPhase({ phase: 'warm-up', mode: load.mode, durationMs: load.warmupMs, rows: null }, c.signal);
      failures.push(...w.failures);
      clock.warmedUp = Date.now();
    }
    c.status(`run ${index + 1}: measuring`);
    // The built-in driver's own sessions' waits (a custom driver reads its own, with its per-call figures), read
    // before the baseline sample so they cover the span the run's server-wide figures do.
    const ownBefore = !c.custom
      ? await readOwnCounters(
          c.target,
          driver.ids.filter((x) => x > 0),
        )
      : null;
    const baseline = await sampler.sampleNow();
    accept(baseline.sample, false, baseline.atMs);
    c.progress({
      kind: 'run-start',
      run: index,
      threads,
      repetition: c.repetition,
      measuredMs: load.durationMs,
      arm: { id: c.arm.id, label: c.arm.label },
    });
    clientStats.start();
    sampler.start();
    // The measured time ends when the duration does: no periodic tick is taken while the sessions cancel the calls
    // still in flight (those are not counted), so none shows an idle stretch as a slump.
    const phaseStart = (clock.measureStart = Date.now());
    const timed = load.rows === null ? load.durationMs : null;
    const endOfTime =
      timed !== null
        ? setTimeout(() => {
            void sampler.stop();
          }, timed)
        : null;
    const phase = await driver.runPhase(
      { phase: 'measure', mode: load.mode, durationMs: load.durationMs, rows: load.rows, latency: latency ?? undefined },
      c.signal,
    );
    if (endOfTime) clearTimeout(endOfTime);
    clock.measureEnd = Date.now();
    const loadEndedAt = timed !== null ? Math.min(Date.now(), phaseStart + timed) : Date.now();
    // Per call in the client loop; in the server loop a call is a whole EXEC, so per row says more.
    client = clientStats.stop(load.mode === 'client-loop' ? phase.calls : phase.rows);
    await sampler.stop();
    try {
      const final = await sampler.sampleNow();
      accept(final.sample, final.afterGap, final.atMs, { loadEndedAt });
      last = final.sample;
    } catch (err) {
      runNote('warning', `the final sample failed (${(err as Error).message}); the run ends at its last tick`);
      last = prev;
    }
    if (!c.custom) {
      const ownAfter = ownBefore
        ? await readOwnCounters(
            c.target,
            driver.ids.filter((x) => x > 0),
          )
        : null;
      sessionWaits = ownBefore && ownAfter ? waitDeltas(ownBefore.waits, ownAfter.waits) : null;
      if (!sessionWaits)
        runNote('info', "the workload sessions' own waits could not be read (sys.dm_exec_session_wait_stats); the server-wide waits stand");
    }
    failures.push(...phase.failures);
    if (phase.clientPath) runNote('info', clientPathNote(phase.clientPath));
    if (load.rows !== null) spread = sessionSpread(phase.finished ?? []);
    const counted = timeline.reduce((s, t) => s + t.rows, 0) + ((closingTick as Tick | null)?.rows ?? 0);
    rows = phase.rowsUnknown || phase.rows === 0 ? counted : phase.rows;
    cancelledCalls = phase.cancelledCalls;
    // Every session failing alike is said once, by the run's verdict ("every session failed: ..."); else each
    // message once, naming its sessions.
    const alike = sessionFailureLines(phase.failures);
    if (alike.length > 1 || new Set(phase.failures.map((f) => f.session)).size < threads) for (const l of alike) runNote('warning', l);
    const stats = driver.runStats();
    if (phase.cancelled) status = 'cancelled';
    else if (writeError) {
      status = 'failed';
      failedReason = writeError;
    } else if (stats?.stoppedOnError) {
      status = 'failed';
      failedReason = `stopped on error (--stop-on-error) in ${stats.stoppedOnError}`;
      runNote('error', failedReason);
    } else {
      const verdict = runVerdict({
        threads,
        calls: phase.calls,
        rows,
        cancelledCalls,
        sessionFailures: failures.filter((f) => f.phase !== 'warm-up'),
        custom:
          stats && c.custom
            ? { failedCalls: stats.failedCalls, errors: stats.errors, queryTimeoutMs: c.custom.workload.queryTimeoutMs }
            : null,
      });
      status = verdict.status;
      if (verdict.reason) {
        failedReason = verdict.reason;
        runNote('error', `the run failed: ${verdict.reason}`);
      } else if (cancelledCalls > 0) {
        runNote(
          'warning',
          `${cancelledCalls} call${cancelledCalls === 1 ? ' was' : 's were'} in flight at the end of the measured time: cancelled and not counted`,
        );
      }
      if (verdict.warning) runNote('warning', verdict.warning);
    }
  } catch (err) {
    status = c.signal.aborted ? 'cancelled' : 'failed';
    if (status === 'failed') failedReason = (err as Error).message;
    runNote('error', (err as Error).message);
  } finally {
    await sampler.close();
    await driver.close();
  }
  // The final sample can land after every session finished: an idle tail would stretch elapsed time and dilute every
  // rate. It stays in samples.jsonl; the run's figures end at the last interval with work in it.
  // (A custom workload's ticks count no rows: its calls are counted by the client.)
  while (!c.custom && timeline.length > 1 && timeline[timeline.length - 1].rows === 0 && status === 'completed') timeline.pop();
  // A completed run's figures are over its steady window: the rows of the ticks still settling leave the exact count.
  const { steady, window } = steadyRun(timeline, load.warmupMs, status === 'completed', runNote);
  rows = Math.max(0, rows - (steady?.droppedRows ?? 0));
  const totals = foldTicks(window);
  if (closingTick && status === 'completed' && (closingTick as Tick).rows > 0) addTick(totals, closingTick);
  if (status === 'completed')
    for (const n of overrunNotes({
      threads,
      durationMs: load.rows === null ? load.durationMs : null,
      warmupMs: load.warmupMs,
      intervalMs: load.intervalMs,
      openMs: clock.opened - clock.start,
      warmupTookMs: clock.warmedUp - clock.opened,
      measureTookMs: clock.measureEnd - clock.measureStart,
      closeMs: Date.now() - clock.measureEnd,
      totalMs: Date.now() - clock.start,
      windowMs: totals.elapsedMs,
      maxTickMs: Math.max(0, ...timeline.map((t) => t.intervalMs)),
      threadpoolWaitMs: totals.waits.THREADPOOL?.waitMs ?? 0,
    }))
      runNote('warning', n);
  const share = ownShare(window);
  const othersNote = othersWarning(share);
  if (othersNote) runNote('warning', othersNote);
  const derived = computeDerived(
    { ...totals, rows: rows || totals.rows },
    { cpusUsed: cpusUsedFromTicks(timeline), threads, threadsPerCore: c.threadsPerCore, first, last },
  );
  return {
    index,
    threads,
    repetition: c.repetition,
    arm: c.arm,
    status,
    ...(failedReason ? { failedReason } : {}),
    cancelledCalls,
    startedAt,
    endedAt: new Date().toISOString(),
    elapsedMs: totals.elapsedMs,
    rows,
    // Every session asked for that never failed: one that could not connect is among the failures already, and not
    // among the sessions the driver holds.
    sessionsOk: threads - new Set(failures.map((f) => f.session)).size,
    sessionFailures: failures.map(recorded),
    timeline,
    totals,
    derived,
    client: client ?? noClientStats(),
    latency: latency ? latency.summary() : null,
    ...(c.custom ? { custom: driver.runStats() ?? undefined } : {}),
    ...(!c.custom && runsNativeProcedures(c.scenario, c.arm.parameters) ? { nativeProcedures: true } : {}),
    sessionWaits: c.custom ? driver.sessionWaits() : sessionWaits,
    monitorCost: summariseMonitorCost(timeline),
    share,
    ...(spread ? { sessionSpread: spread } : {}),
    events: runEvents,
    monitor: sampler.stats,
    ...(steady ? { steady } : {}),
  };
}
