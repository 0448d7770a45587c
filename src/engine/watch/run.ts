// `spinlab watch`: connect to any server, read-only, and record spinlock, wait and latch deltas under its own workload.
// One monitor connection (in master), one round trip per tick (sql/watch/tick-delta.sql: only what moved, kept in the
// session's #temp tables, the only thing a watch creates) through the experiments' Sampler;
// every tick is appended to samples.jsonl as it arrives; experiment.json (kind watch) is written at the start, on
// each mark, and at the end. Memory stays bounded for hours (WatchHistory: the window's ticks and the totals; the cost's
// sums, not its ticks).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DbSession } from '../../db/client';
import { describeTarget, type DbTarget } from '../../db/target';
import type { ExperimentEvent } from '../../shared/experiment';
import type { WatchGap, WatchMark, WatchRecord, WatchSettings, WatchTick } from '../../shared/watch';
import { WATCH_TOP_N } from '../../shared/watch';
import { CostBudget, DEFAULT_COST_BUDGET_MS_PER_SEC, MonitorCostSums } from '../../shared/monitorCost';
import { diagnoseWatch } from '../../shared/watchDiagnosis';
import { explain, grantFor, SpinlabError } from '../errors';
import { TOOL_VERSION } from '../lab';
import { Sampler } from '../sampler';
import { DeltaReader, WATCH_LAYOUT } from '../snapshot';
import { readIdentity, readTopology } from '../server';
import { WatchHistory } from './history';
import { readWindow } from './tail';
import { readNewMarks, registerActiveWatch } from './marks';
import { parseWatchSample, type WatchSample } from './tick';
import { WatchCounterNames } from '../databaseNames';
import { featureVersion } from '../../shared/serverLevel';
import { RepeatedWarnings } from '../../shared/repeatedWarnings';
import { lostMs } from '../../shared/watchGaps';
import { monotonicMs } from '../clock';
import { WatchSequence } from './gaps';
import { appendLine, failureReason, makeDirs, outputError, writeWhole } from '../outFiles';
import { failedCopy, writeLast } from '../recordSave';

export const WATCH_SCHEMA_VERSION = 6;

export interface WatchOptions {
  target: DbTarget;
  outDir: string;
  settings: WatchSettings;
  title?: string;
  stateDir: string;
  /** Ticks kept at full resolution in memory (the window on screen). */
  windowTicks?: number;
}

export type WatchProgress =
  | { kind: 'status'; message: string }
  | { kind: 'tick'; tick: WatchTick; index: number }
  | { kind: 'mark'; mark: WatchMark }
  /** A gap closed (the monitor is back), or was still open when the watch ended. */
  | { kind: 'gap'; gap: WatchGap }
  | { kind: 'event'; event: ExperimentEvent };

export interface WatchResult {
  record: WatchRecord;
  file: string;
  history: WatchHistory;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

export async function runWatch(
  opts: WatchOptions,
  signal: AbortSignal,
  progress: (p: WatchProgress) => void = () => undefined,
): Promise<WatchResult> {
  const { settings } = opts;
  const events: ExperimentEvent[] = [];
  const emit = (level: ExperimentEvent['level'], message: string) => {
    const event = { time: new Date().toISOString(), level, message };
    events.push(event);
    progress({ kind: 'event', event });
  };
  // A warning that comes back every tick is said once, then counted (said when another comes, and at the end).
  const repeats = new RepeatedWarnings();
  const note = (level: ExperimentEvent['level'], message: string) => {
    if (level !== 'warning') return emit(level, message);
    for (const line of repeats.add(message)) emit('warning', line);
  };
  progress({ kind: 'status', message: `connecting to ${describeTarget(opts.target)}` });
  const admin = await DbSession.open(opts.target, { database: 'master', appName: 'Spinlock Lab watch' });
  let identity;
  let topology;
  try {
    identity = await readIdentity(admin);
    if (!identity.permissions.viewServerState) {
      throw new SpinlabError(
        'permission',
        `The login ${identity.login} lacks VIEW SERVER STATE, which watching a server needs (and nothing else).`,
        grantFor('VIEW SERVER STATE', identity.login, featureVersion(identity)),
      );
    }
    const t = await readTopology(admin, identity);
    identity.startTime = t.startTime;
    topology = t.topology;
  } finally {
    await admin.close();
  }
  if (identity.simulated)
    note('warning', 'This server is the Spinlock Lab simulator: every number in this watch is synthetic, not a measurement.');

  const file = path.join(opts.outDir, 'experiment.json');
  const samplesFile = path.join(opts.outDir, 'samples.jsonl');
  try {
    makeDirs(opts.outDir);
    fs.appendFileSync(samplesFile, ''); // made, or the empty claim of this watch (cli/output.ts); never emptied
  } catch (err) {
    throw outputError(err, samplesFile);
  }
  if (fs.statSync(samplesFile).size > 0)
    throw new SpinlabError('user-input', `${samplesFile} already holds another watch's ticks.`, 'give a new or empty folder.');
  // The totals, kept here; the window's ticks (what the diagnosis reads at the end with them) are read back from
  // samples.jsonl then (tail.ts), not held: a fleet held 60 JSON lines per server. No downsampled points: nothing reads
  // them during a watch (the notebook streams samples.jsonl), and a fleet would keep 1,200 per server.
  const windowSize = opts.windowTicks ?? Math.max(60, Math.round(600_000 / settings.intervalMs));
  const history = new WatchHistory(0, 0);
  const record: WatchRecord = {
    schemaVersion: WATCH_SCHEMA_VERSION,
    kind: 'watch',
    id: `watch-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`,
    title: opts.title ?? `Watch of ${identity.serverName}`,
    createdAt: new Date().toISOString(),
    tool: { name: 'spinlock-lab', version: TOOL_VERSION },
    simulated: identity.simulated,
    server: identity,
    topology,
    settings,
    status: 'running',
    startedAt: new Date().toISOString(),
    endedAt: null,
    ticks: 0,
    totals: history.totals,
    marks: [],
    roundTripMs: null,
    diagnosis: [],
    samplesFile: 'samples.jsonl',
    events,
    gaps: [],
    coverage: null,
  };
  const save = () => writeWhole(file, JSON.stringify(record, null, 2));
  // A tick that cannot be written (a full disk) ends the watch: it would go on recording nothing.
  let writeFailure: Error | null = null;
  let stopNow = () => undefined as void;
  save();
  const unregister = registerActiveWatch(opts.stateDir, opts.outDir);
  let marksOffset = 0;
  const nodeOfScheduler = new Map(topology.schedulers.map((s) => [s.schedulerId, s.nodeId]));
  const roundTrips: number[] = [];
  // Only what moved each tick (sql/watch/tick-delta.sql, prepared once per connection), rebuilt into the full sets.
  // With fullTicks, the whole batch every tick (sql/watch/tick.sql) and nothing created, not even in tempdb.
  const reader = new DeltaReader('watch/tick-delta', WATCH_LAYOUT, 'watch/tick', (m) => note('warning', m));
  const tickParams = { top_requests: settings.topRequests, text_chars: settings.textChars };
  const names = new WatchCounterNames();
  const read = async (db: DbSession): Promise<WatchSample> => {
    const sample = parseWatchSample(
      settings.fullTicks ? await db.runFile('watch/tick', tickParams) : (await reader.read(db, tickParams)).sets,
      Date.now(),
    );
    await names.apply(db, sample.raw.counters); // Managed Instance names database counters by a GUID
    return sample;
  };
  let seq: WatchSequence | undefined;
  let firstOwnCpu: number | null = null;
  let failed: Error | undefined;
  let stoppedAtMs: number;
  const closeGap = (gap: WatchGap) => {
    record.gaps = seq!.gaps;
    save();
    progress({ kind: 'gap', gap });
  };
  // The watch's own cost against its budget; over it, the interval lengthens (said once, recorded on the tick).
  const budget = new CostBudget(settings.costBudgetMsPerSec ?? DEFAULT_COST_BUDGET_MS_PER_SEC, settings.intervalMs);
  const costSums = new MonitorCostSums();
  const sampler = new Sampler<WatchSample>({
    target: opts.target,
    labDatabase: 'master',
    intervalMs: settings.intervalMs,
    appName: 'Spinlock Lab watch',
    read,
    // After repeated failures of the delta tick: the whole batch every tick, which creates nothing.
    readFull: settings.fullTicks
      ? undefined
      : { file: 'watch/tick', read: async (db) => parseWatchSample(await db.runFile('watch/tick', tickParams), Date.now()) },
    // A server gone for hours fails every tick with the same message: said once, then counted.
    onProblem: (m) => note('warning', m),
    onSample: (e) => {
      if (!seq) return;
      if (e.afterGap) {
        firstOwnCpu = null;
        budget.reconnected();
      } // a new connection is a new session: its cpu_time starts again
      if (roundTrips.length < 10_000) roundTrips.push(e.roundTripMs);
      // Across an outage or a restart no delta is taken: the sample after it is the new baseline, the time a gap.
      const step = seq.next(e);
      if (step.kind === 'skip') return note('info', step.message);
      if (step.kind === 'gap') {
        if (step.warning) note('warning', step.warning);
        return closeGap(step.gap);
      }
      for (const w of step.warnings) note('warning', w);
      const tick = step.tick;
      if (tick.monitor && costSums.ticks < 100_000) costSums.add(tick);
      const verdict = budget.observe(tick.monitor, tick.intervalMs);
      if (verdict.kind === 'lengthen') {
        sampler.setIntervalMs(verdict.intervalMs);
        tick.intervalSetMs = verdict.intervalMs;
        if (verdict.message) note('warning', verdict.message);
      }
      const fresh = readNewMarks(opts.outDir, marksOffset);
      marksOffset = fresh.offset;
      if (fresh.marks.length) {
        tick.marks = fresh.marks.map((m) => m.id);
        for (const m of fresh.marks) {
          const mark: WatchMark = { id: m.id, name: m.name, t: tick.t, at: m.at };
          record.marks.push(mark);
          progress({ kind: 'mark', mark });
        }
      }
      let line: string;
      try {
        line = JSON.stringify(tick);
        appendLine(samplesFile, line);
      } catch (err) {
        if (!writeFailure) {
          writeFailure = err as Error;
          stopNow();
        }
        return;
      }
      history.add(tick); // keeps no window (windowTicks 0): only the totals
      record.ticks = history.ticks;
      if (fresh.marks.length) save();
      progress({ kind: 'tick', tick, index: history.ticks });
    },
  });
  try {
    try {
      // Connecting and the delta tick's set-up come before the clock: a duration is time watched, not time connecting.
      await sampler.connect(settings.fullTicks ? undefined : (db) => reader.ready(db));
      const first = await sampler.sampleNow();
      // Every tick's t is on one clock anchored here: a reconnect or a restarted server never resets it.
      seq = new WatchSequence(first, { topN: WATCH_TOP_N, nodeOfScheduler });
      firstOwnCpu = first.sample.ownCpuMs;
    } catch (err) {
      throw explain(err, 'Reading the DMVs', { login: identity.login, majorVersion: featureVersion(identity), needs: 'VIEW SERVER STATE' });
    }
    progress({
      kind: 'status',
      message: `watching ${identity.serverName} every ${settings.intervalMs} ms${settings.durationMs ? ` for ${settings.durationMs / 1000} s` : ' until Ctrl+C'}`,
    });
    // Ticks are due on whole intervals of the watch's clock, however long the baseline took (the server compiling
    // the tick the first time): the duration ends with the tick due at its end, so 10 s at 1 s is 10 ticks.
    const anchorMs = seq.timeline.anchorMs;
    sampler.start(anchorMs);
    await new Promise<void>((resolve) => {
      // The duration is counted on the watch's clock, from its first sample's request: "60 s" watches 60.0 s.
      // A timer may fire a millisecond early on this clock: it is set again for what is left.
      const left = () => settings.durationMs! - (monotonicMs() - seq!.timeline.anchorMs);
      let timer: NodeJS.Timeout | undefined;
      const due = () => {
        const rest = left();
        if (rest > 0) timer = setTimeout(due, Math.ceil(rest));
        else resolve();
      };
      if (settings.durationMs !== null) due();
      stopNow = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      if (signal.aborted) resolve();
      signal.addEventListener('abort', stopNow, { once: true });
    });
    if (settings.durationMs !== null && !signal.aborted && !writeFailure) await sampler.finish(anchorMs + settings.durationMs);
  } catch (err) {
    failed = err as Error;
  } finally {
    stoppedAtMs = monotonicMs();
    await sampler.close();
    unregister();
  }
  failed = failed ?? writeFailure ?? undefined;
  // The watch's end: when it was over, or the arrival of a tick that was in flight then (it is kept); a connect
  // attempt still hanging does not lengthen it.
  const endedAtMs = Math.max(stoppedAtMs, seq?.lastAtMs ?? 0);
  if (seq) {
    // Ticks still failing when the watch ended: a gap to the end, not recovered.
    const open = seq.end(endedAtMs, Date.now(), sampler.currentOutage);
    if (open) closeGap(open);
    record.gaps = seq.gaps;
    record.coverage = { watchedMs: seq.timeline.at(endedAtMs), coveredMs: history.totals.elapsedMs, lostMs: lostMs(seq.gaps) };
  }
  // A mark dropped after the last tick still belongs to the watch: it goes on the last tick's time.
  const late = readNewMarks(opts.outDir, marksOffset).marks;
  // Every tick the history counted is a line of samples.jsonl (appended before it is counted), in the same order.
  let windowTicks: WatchTick[] = [];
  try {
    if (history.ticks > 0) windowTicks = readWindow(samplesFile, Math.min(windowSize, history.ticks));
  } catch (err) {
    emit(
      'warning',
      `the last ticks could not be read back from ${samplesFile} (${(err as Error).message}): the diagnosis reads the totals only`,
    );
  }
  const lastT = windowTicks.at(-1)?.t ?? 0;
  for (const m of late) record.marks.push({ id: m.id, name: m.name, t: lastT, at: m.at });
  for (const line of repeats.flush()) emit('warning', line);
  record.status = failed ? 'failed' : signal.aborted ? 'cancelled' : 'completed';
  record.endedAt = new Date().toISOString();
  const last = seq?.baseline;
  if (last && firstOwnCpu !== null && last.ownCpuMs !== null && history.ticks > 0) {
    record.serverCpuMsPerTick = Math.max(0, last.ownCpuMs - firstOwnCpu) / history.ticks;
  }
  const cost = costSums.summary();
  record.cost = cost ? { ...cost, budgetMsPerSec: budget.budgetMsPerSec, finalIntervalMs: budget.currentIntervalMs } : null;
  record.roundTripMs = roundTrips.length ? { p50: median(roundTrips), max: Math.max(...roundTrips) } : null;
  record.monitor = sampler.stats;
  record.diagnosis = diagnoseWatch(history.totals, windowTicks, { topology, majorVersion: identity.majorVersion }).map((d) => d.text);
  // An error thrown to the caller is said by it, once: here it is only kept in the record.
  if (failed && history.ticks === 0) events.push({ time: new Date().toISOString(), level: 'error', message: failed.message });
  else if (failed) note('error', failed.message);
  // Never left saying "running": failing whole, marked failed with the reason, or removed (recordSave.ts).
  const saved = writeLast(file, JSON.stringify(record, null, 2), (cause) =>
    failedCopy(record, `The record could not be written as the watch ended: ${failureReason(cause)}.`),
  );
  if (saved.error) throw saved.error;
  if (failed && history.ticks === 0) throw failed;
  return { record, file, history };
}
