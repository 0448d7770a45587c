// Runs an experiment: preflight (identity, topology, permissions, an unrestored journal), lab database and deploy,
// knobs (journal first), then one run per thread count: warm-up, baseline sample, measured phase with a tick every
// interval, final sample. Whatever happens (success, failure, cancel) the knobs are restored and every sample taken is
// kept: ticks go to samples.jsonl as they arrive, experiment.json is rewritten after each run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DbSession, describeTarget, type DbTarget } from '../db/client';
import { EXPERIMENT_SCHEMA_VERSION, type Experiment, type ExperimentEvent, type KnobRequest, type LoadSettings, type ParamValue, type RunRecord, type SessionFailure, type Tick } from '../shared/experiment';
import type { RawSample } from '../shared/types';
import { parseAffinity } from '../shared/affinity';
import { computeTick } from './deltas';
import { SpinlabError, grantFor } from './errors';
import { deployScenario, TOOL_VERSION } from './lab';
import { applyKnobs, knobContextFor, restoreFromJournal, type KnobContext } from './knobs';
import { readJournal, defaultStateDir } from './journal';
import { WorkloadSessions } from './load';
import { Sampler } from './sampler';
import { getScenario } from './scenarios';
import { readIdentity, readTopology } from './server';
import { computeDerived, cpusUsedFromTicks, foldTicks } from './totals';
import { LatencyRecorder } from './histogram';
import { ClientStatsRecorder } from './clientStats';

export interface ExperimentOptions {
  target: DbTarget;
  scenarioId: string;
  /** Already validated against the manifest (params.ts). */
  parameters: Record<string, ParamValue>;
  labDatabase: string;
  load: LoadSettings;
  knobs: { delayedDurability?: 'DISABLED' | 'ALLOWED' | 'FORCED'; affinity?: string };
  outDir: string;
  title?: string;
  question?: string;
  /** Deploy the scenario before the first run (default true). */
  deploy?: boolean;
  stateDir?: string;
  /** The experiment id (a folder-safe name); default: the start time and the scenario id. */
  id?: string;
}

export type ExperimentProgress =
  | { kind: 'status'; message: string }
  | { kind: 'run-start'; run: number; threads: number; measuredMs: number | null }
  | { kind: 'tick'; run: number; threads: number; tick: Tick }
  | { kind: 'run-end'; record: RunRecord }
  | { kind: 'event'; event: ExperimentEvent };

export interface ExperimentResult {
  experiment: Experiment;
  file: string;
}

/** An experiment id as the engine makes them: the start time and the scenario, safe as a folder name. */
export function newExperimentId(scenarioId: string, now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${scenarioId}`;
}

export async function runExperiment(opts: ExperimentOptions, signal: AbortSignal,
  progress: (p: ExperimentProgress) => void = () => undefined): Promise<ExperimentResult> {
  const stateDir = opts.stateDir ?? defaultStateDir();
  const scenario = getScenario(opts.scenarioId);
  fs.mkdirSync(opts.outDir, { recursive: true });
  const samplesFile = path.join(opts.outDir, 'samples.jsonl');
  const file = path.join(opts.outDir, 'experiment.json');
  const events: ExperimentEvent[] = [];
  const note = (level: ExperimentEvent['level'], message: string) => {
    const event = { time: new Date().toISOString(), level, message };
    events.push(event);
    progress({ kind: 'event', event });
  };
  const status = (message: string) => progress({ kind: 'status', message });

  status(`connecting to ${describeTarget(opts.target)}`);
  const admin = await DbSession.open(opts.target, { database: 'master', appName: 'Spinlock Lab' });
  let knobCtx: KnobContext | undefined;
  let experiment: Experiment | undefined;
  try {
    const identity = await readIdentity(admin);
    if (!identity.permissions.viewServerState) {
      throw new SpinlabError(`The login ${identity.login} lacks VIEW SERVER STATE, which every DMV Spinlock Lab samples needs.`,
        grantFor('VIEW SERVER STATE', identity.login, identity.majorVersion));
    }
    const { topology, startTime } = await readTopology(admin, identity);
    identity.startTime = startTime;
    knobCtx = knobContextFor(admin, identity, opts.target, stateDir, opts.labDatabase);
    const leftover = readJournal(stateDir, knobCtx.serverKey);
    if (leftover) {
      knobCtx = undefined; // not ours to restore implicitly
      throw new SpinlabError(`An earlier experiment (process ${leftover.pid}, ${leftover.createdAt}) changed ${leftover.changes.join(' and ')} on this server and did not put it back.`,
        'run `spinlab restore -c <connection>` (or the panel\'s Restore button) first.');
    }
    if (identity.simulated) note('warning', 'This server is the Spinlock Lab simulator: every number in this experiment is synthetic, not a measurement.');

    const knobRequest: KnobRequest = {};
    if (opts.knobs.delayedDurability) knobRequest.delayedDurability = opts.knobs.delayedDurability;
    if (opts.knobs.affinity) {
      const a = parseAffinity(opts.knobs.affinity, topology);
      knobRequest.affinity = { spec: a.spec, cpus: a.cpus };
    }

    experiment = {
      schemaVersion: EXPERIMENT_SCHEMA_VERSION,
      id: opts.id ?? newExperimentId(scenario.id),
      title: opts.title ?? `${scenario.name}: ${opts.load.threads.join(', ')} threads`,
      question: opts.question ?? null,
      createdAt: new Date().toISOString(),
      tool: { name: 'spinlock-lab', version: TOOL_VERSION },
      simulated: identity.simulated,
      server: identity,
      topology,
      labDatabase: opts.labDatabase,
      scenario: { id: scenario.id, parameters: opts.parameters },
      load: opts.load,
      knobs: { before: null, applied: knobRequest, restored: null },
      status: 'running',
      runs: [],
      events,
    };
    const save = () => fs.writeFileSync(file, JSON.stringify(experiment, null, 2));
    save();

    if (opts.deploy !== false) {
      status(`deploying ${scenario.id} into [${opts.labDatabase}]`);
      await deployScenario(opts.target, admin, identity, opts.labDatabase, scenario, opts.parameters, status, signal);
    }
    status('applying knobs');
    experiment.knobs.before = await applyKnobs(knobCtx, knobRequest);
    save();

    for (const [index, threads] of opts.load.threads.entries()) {
      if (signal.aborted) break;
      const record = await runOne({ opts, scenarioTables: scenario.progress.tables, index, threads, signal, progress, note, samplesFile, status });
      experiment.runs.push(record);
      save();
      progress({ kind: 'run-end', record });
      if (record.status === 'failed') break;
    }
    experiment.status = signal.aborted ? 'cancelled' : experiment.runs.some((r) => r.status === 'failed') ? 'failed' : 'completed';
  } catch (err) {
    if (experiment) {
      experiment.status = signal.aborted ? 'cancelled' : 'failed';
      note('error', (err as Error).message);
    }
    throw err;
  } finally {
    if (knobCtx) {
      try {
        const r = await restoreFromJournal(knobCtx);
        for (const a of r.actions) note('info', `restored: ${a}`);
        if (experiment) experiment.knobs.restored = r.restored;
      } catch (err) {
        note('error', `Could not restore the server's settings: ${(err as Error).message}. Run \`spinlab restore\` to retry.`);
      }
    }
    if (experiment) fs.writeFileSync(file, JSON.stringify(experiment, null, 2));
    await admin.close();
  }
  return { experiment: experiment!, file };
}

interface RunContext {
  opts: ExperimentOptions;
  scenarioTables: string[];
  index: number;
  threads: number;
  signal: AbortSignal;
  progress: (p: ExperimentProgress) => void;
  note: (level: ExperimentEvent['level'], message: string) => void;
  status: (m: string) => void;
  samplesFile: string;
}

async function runOne(c: RunContext): Promise<RunRecord> {
  const { opts, threads, index } = c;
  const runEvents: ExperimentEvent[] = [];
  const runNote = (level: ExperimentEvent['level'], message: string) => {
    runEvents.push({ time: new Date().toISOString(), level, message });
    c.note(level, `run ${index + 1} (${threads} threads): ${message}`);
  };
  const failures: SessionFailure[] = [];
  const startedAt = new Date().toISOString();
  c.status(`run ${index + 1}: opening ${threads} sessions`);
  const sessions = await WorkloadSessions.open(opts.target, opts.labDatabase, threads, getScenario(opts.scenarioId), opts.parameters, failures);
  const timeline: Tick[] = [];
  let first: RawSample | null = null;
  let prev: RawSample | null = null;
  const sampler = new Sampler({
    target: opts.target,
    labDatabase: opts.labDatabase,
    intervalMs: opts.load.intervalMs,
    onSample: (e) => accept(e.sample, e.afterGap),
    onProblem: (m) => runNote('warning', m),
  });
  const accept = (cur: RawSample, afterGap: boolean) => {
    if (!prev) { prev = cur; first = first ?? cur; return; }
    const r = computeTick(prev, cur, { labDatabase: opts.labDatabase, progressTables: c.scenarioTables, runStartMsTicks: first!.msTicks, gap: afterGap });
    if (r.kind === 'skip') return;
    if (r.kind === 'restart') {
      runNote('error', `${r.message} The samples before it are kept.`);
      prev = cur;
      return;
    }
    prev = cur;
    timeline.push(r.tick);
    fs.appendFileSync(c.samplesFile, JSON.stringify({ run: index, threads, tick: r.tick }) + '\n');
    c.progress({ kind: 'tick', run: index, threads, tick: r.tick });
  };

  const latency = opts.load.mode === 'client-loop' ? new LatencyRecorder() : null;
  const clientStats = new ClientStatsRecorder();
  let client: RunRecord['client'] | null = null;
  let status: RunRecord['status'] = 'completed';
  let rows = 0;
  let last: RawSample | null = null;
  try {
    if (opts.load.warmupMs > 0 && !c.signal.aborted) {
      c.status(`run ${index + 1}: warming up for ${opts.load.warmupMs} ms`);
      const w = await sessions.runPhase({ mode: opts.load.mode, durationMs: opts.load.warmupMs, rows: null }, c.signal);
      failures.push(...w.failures.map((f) => ({ ...f, message: `warm-up: ${f.message}` })));
    }
    c.status(`run ${index + 1}: measuring`);
    accept((await sampler.sampleNow()).sample, false);
    c.progress({ kind: 'run-start', run: index, threads, measuredMs: opts.load.durationMs });
    clientStats.start();
    sampler.start();
    const phase = await sessions.runPhase({ mode: opts.load.mode, durationMs: opts.load.durationMs, rows: opts.load.rows, latency: latency ?? undefined }, c.signal);
    // Per call in the client loop; in the server loop a call is a whole EXEC, so per row says more.
    client = clientStats.stop(opts.load.mode === 'client-loop' ? phase.calls : phase.rows);
    await sampler.stop();
    try {
      const final = await sampler.sampleNow();
      accept(final.sample, final.afterGap);
      last = final.sample;
    } catch (err) {
      runNote('warning', `the final sample failed (${(err as Error).message}); the run ends at its last tick`);
      last = prev;
    }
    failures.push(...phase.failures);
    const counted = timeline.reduce((s, t) => s + t.rows, 0);
    rows = phase.rowsUnknown || phase.rows === 0 ? counted : phase.rows;
    if (phase.cancelled) status = 'cancelled';
    else if (failures.filter((f) => !f.message.startsWith('warm-up')).length * 2 > threads) status = 'failed';
    for (const f of phase.failures) runNote('warning', `session ${f.session} failed: ${f.message}`);
  } catch (err) {
    status = c.signal.aborted ? 'cancelled' : 'failed';
    runNote('error', (err as Error).message);
  } finally {
    await sampler.close();
    await sessions.close();
  }
  // The final sample can land after every session finished: an idle tail would stretch elapsed time and dilute every
  // rate. It stays in samples.jsonl; the run's figures end at the last interval with work in it.
  while (timeline.length > 1 && timeline[timeline.length - 1].rows === 0 && status === 'completed') timeline.pop();
  const totals = foldTicks(timeline);
  const derived = computeDerived({ ...totals, rows: rows || totals.rows }, { cpusUsed: cpusUsedFromTicks(timeline), first, last });
  return {
    index,
    threads,
    status,
    startedAt,
    endedAt: new Date().toISOString(),
    elapsedMs: totals.elapsedMs,
    rows,
    sessionsOk: sessions.count - new Set(failures.map((f) => f.session)).size,
    sessionFailures: failures,
    timeline,
    totals,
    derived,
    client: client ?? { cpuUserMs: 0, cpuSystemMs: 0, cpuUsPerCall: null, eventLoopLagP99Ms: 0, eventLoopLagMaxMs: 0, rssMb: process.memoryUsage().rss / 1048576 },
    latency: latency ? latency.summary() : null,
    events: runEvents,
  };
}

