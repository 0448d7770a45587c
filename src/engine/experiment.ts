// Runs an experiment: preflight (identity, topology, permissions, an unrestored journal), lab database and deploy,
// knobs (journal first), then one run per thread count: warm-up, baseline sample, measured phase with a tick every
// interval, final sample. Whatever happens (success, failure, cancel) the knobs are restored and every sample taken is
// kept: ticks go to samples.jsonl as they arrive, experiment.json is rewritten after each run.
//
// A plan runs several arms in one experiment (a preset: the log writer's node, then the other node): arms in order,
// each deploying only when its scenario or a parameter its deploy files take differs from the arm before, moving the
// knobs to its own values (the journal keeps the state from before the first change), then running its thread counts.
// runExperiment is a plan of one arm.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DbSession, describeTarget, type DbTarget } from '../db/client';
import { EXPERIMENT_SCHEMA_VERSION, type Experiment, type ExperimentEvent, type KnobRequest, type KnobState, type LoadSettings, type ParamValue, type PresetInfo, type RunArm, type RunRecord, type SessionFailure, type Tick } from '../shared/experiment';
import type { RawSample, Topology } from '../shared/types';
import { parseAffinity, threadsPerCore } from '../shared/affinity';
import { closingActiveMs, computeTick } from './deltas';
import { SpinlabError, grantFor } from './errors';
import { deployScenario, fileParams, TOOL_VERSION } from './lab';
import { applyKnobs, completeRequest, knobContextFor, restoreFromJournal, type KnobContext } from './knobs';
import { readJournal, defaultStateDir } from './journal';
import { WorkloadSessions } from './load';
import { Sampler } from './sampler';
import { deploySteps, getScenario, needsXtp, type ScenarioManifest } from './scenarios';
import { readIdentity, readTopology } from './server';
import { computeDerived, cpusUsedFromTicks, foldTicks } from './totals';
import { LatencyRecorder } from './histogram';
import { ClientStatsRecorder } from './clientStats';
import { CustomSessions } from './custom/sessions';
import { readOwnCounters, waitDeltas } from './custom/ownSessions';
import type { ParamTable } from './custom/params';
import type { CustomWorkload } from '../shared/experiment';

/** A custom workload and its parameter rows (read before the experiment; the rows are not saved). */
export interface CustomPlan {
  workload: CustomWorkload;
  table: ParamTable | null;
}


/** ALLOWED only permits delayed durability: a commit must ask for it, and no scenario's commit does. */
export const DD_ALLOWED_NOTE = 'DELAYED_DURABILITY = ALLOWED: a transaction is delayed-durable only when its COMMIT asks '
  + '(COMMIT WITH (DELAYED_DURABILITY = ON), or BEGIN ATOMIC WITH (DELAYED_DURABILITY = ON)), and the scenarios\' commits do not, '
  + 'so these runs behave as DISABLED. Use FORCED to make every commit delayed-durable.';

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
  /** A custom workload instead of the scenario's procedures (scenarioId 'custom'; labDatabase is the user's database). */
  custom?: CustomPlan | null;
}

export type ExperimentProgress =
  | { kind: 'status'; message: string }
  | { kind: 'run-start'; run: number; threads: number; measuredMs: number | null; arm?: { id: string; label: string } }
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

/** One arm of a plan: what its runs run, and at which thread counts. */
export interface PlanArm {
  id: string;
  label: string;
  scenarioId: string;
  /** Already validated against the manifest (params.ts). */
  parameters: Record<string, ParamValue>;
  /** As the user wrote them; a knob left out is the server's own setting from before the experiment. */
  knobs: { delayedDurability?: 'DISABLED' | 'ALLOWED' | 'FORCED'; affinity?: string };
  mode: LoadSettings['mode'];
  threads: number[];
}

export interface PlanOptions {
  target: DbTarget;
  labDatabase: string;
  arms: PlanArm[];
  /** Shared by every arm; each arm brings its own mode and thread counts. */
  load: Omit<LoadSettings, 'mode' | 'threads'>;
  outDir: string;
  title?: string;
  question?: string;
  /** Deploy what each arm needs (default true). */
  deploy?: boolean;
  stateDir?: string;
  id?: string;
  preset?: PresetInfo | null;
  custom?: CustomPlan | null;
}

export async function runExperiment(opts: ExperimentOptions, signal: AbortSignal,
  progress: (p: ExperimentProgress) => void = () => undefined): Promise<ExperimentResult> {
  const { mode, threads, ...load } = opts.load;
  return runPlan({
    target: opts.target,
    labDatabase: opts.labDatabase,
    arms: [{ id: 'main', label: opts.scenarioId, scenarioId: opts.scenarioId, parameters: opts.parameters, knobs: opts.knobs, mode, threads }],
    load,
    outDir: opts.outDir,
    title: opts.title,
    question: opts.question,
    deploy: opts.deploy,
    stateDir: opts.stateDir,
    id: opts.id,
    preset: null,
    custom: opts.custom ?? null,
  }, signal, progress);
}

/** The knobs an arm asks for, resolved against the topology (a bad affinity fails here, before anything changes). */
function knobRequestOf(arm: PlanArm, topology: Topology): KnobRequest {
  const req: KnobRequest = {};
  if (arm.knobs.delayedDurability) req.delayedDurability = arm.knobs.delayedDurability;
  if (arm.knobs.affinity) {
    const a = parseAffinity(arm.knobs.affinity, topology);
    req.affinity = { spec: a.spec, cpus: a.cpus };
  }
  return req;
}

/** What decides a deploy: the scenario, the files that run, the values they take, In-Memory OLTP. */
function deployKey(scenario: ScenarioManifest, values: Record<string, ParamValue>): string {
  const steps = deploySteps(scenario, values);
  return JSON.stringify([scenario.id, steps, steps.map((id) => fileParams(id, values)), needsXtp(scenario, values)]);
}

export async function runPlan(opts: PlanOptions, signal: AbortSignal,
  progress: (p: ExperimentProgress) => void = () => undefined): Promise<ExperimentResult> {
  if (opts.arms.length === 0) throw new SpinlabError('The experiment has no arms to run.');
  const ids = opts.arms.map((a) => a.id);
  if (new Set(ids).size !== ids.length) throw new SpinlabError(`Arm ids must be unique; got ${ids.join(', ')}.`);
  const stateDir = opts.stateDir ?? defaultStateDir();
  const scenarios = opts.arms.map((a) => getScenario(a.scenarioId));
  const first = opts.arms[0];
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
    knobCtx = { ...knobContextFor(admin, identity, opts.target, stateDir, opts.labDatabase), experimentDir: path.resolve(opts.outDir) };
    const leftover = readJournal(stateDir, knobCtx.serverKey);
    if (leftover) {
      knobCtx = undefined; // not ours to restore implicitly
      throw new SpinlabError(`An earlier experiment (process ${leftover.pid}, ${leftover.createdAt}) changed ${leftover.changes.join(' and ')} on this server and did not put it back.`,
        'run `spinlab restore -c <connection>` (or the panel\'s Restore button) first.');
    }
    if (opts.custom) {
      const w = opts.custom.workload;
      note(w.writes ? 'warning' : 'info', w.writes
        ? `The workload writes to [${w.database}] (${w.writes}); Spinlock Lab deploys and drops nothing there.`
        : `The workload only reads in [${w.database}]; Spinlock Lab deploys and drops nothing there.`);
    }
    if (identity.simulated) note('warning', 'This server is the Spinlock Lab simulator: every number in this experiment is synthetic, not a measurement.');

    const requests = opts.arms.map((a) => knobRequestOf(a, topology));
    if (requests.some((r) => r.delayedDurability === 'ALLOWED')) note('info', DD_ALLOWED_NOTE);
    experiment = {
      schemaVersion: EXPERIMENT_SCHEMA_VERSION,
      kind: 'experiment',
      id: opts.id ?? newExperimentId(opts.preset?.id ?? scenarios[0].id),
      title: opts.title ?? `${scenarios[0].name}: ${first.threads.join(', ')} threads`,
      question: opts.question ?? null,
      createdAt: new Date().toISOString(),
      tool: { name: 'spinlock-lab', version: TOOL_VERSION },
      simulated: identity.simulated,
      server: identity,
      topology,
      labDatabase: opts.labDatabase,
      scenario: { id: scenarios[0].id, parameters: first.parameters },
      load: { ...opts.load, mode: first.mode, threads: first.threads },
      knobs: { before: null, applied: requests[0], restored: null },
      preset: opts.preset ?? null,
      ...(opts.custom ? { custom: opts.custom.workload } : {}),
      status: 'running',
      runs: [],
      events,
    };
    const save = () => fs.writeFileSync(file, JSON.stringify(experiment, null, 2));
    save();

    let deployed: string | null = null;
    let original: KnobState | null = null;
    let index = 0;
    arms: for (const [i, arm] of opts.arms.entries()) {
      if (signal.aborted) break;
      const scenario = scenarios[i];
      if (opts.arms.length > 1) status(`arm ${i + 1}/${opts.arms.length}: ${arm.label}`);
      const key = deployKey(scenario, arm.parameters);
      if (opts.deploy !== false && !opts.custom && key !== deployed) {
        status(`deploying ${scenario.id} into [${opts.labDatabase}]`);
        await deployScenario(opts.target, admin, identity, opts.labDatabase, scenario, arm.parameters, status, signal);
        deployed = key;
      }
      status('applying knobs');
      const req = original ? completeRequest(requests[i], original) : requests[i];
      const before = await applyKnobs(knobCtx, req);
      if (!original) {
        original = before;
        experiment.knobs.before = before;
      }
      save();
      const armRecord: RunArm = { id: arm.id, label: arm.label, scenarioId: scenario.id, parameters: arm.parameters, knobs: requests[i], mode: arm.mode };
      for (const threads of arm.threads) {
        if (signal.aborted) break arms;
        const record = await runOne({
          target: opts.target, labDatabase: opts.labDatabase, load: { ...opts.load, mode: arm.mode, threads: arm.threads },
          scenario, arm: armRecord, index: index++, threads, signal, progress, note, samplesFile, status, custom: opts.custom ?? null,
          threadsPerCore: threadsPerCore(topology),
        });
        experiment.runs.push(record);
        save();
        progress({ kind: 'run-end', record });
        if (record.status === 'failed') break arms;
      }
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
  target: DbTarget;
  labDatabase: string;
  load: LoadSettings;
  scenario: ScenarioManifest;
  arm: RunArm;
  index: number;
  threads: number;
  signal: AbortSignal;
  progress: (p: ExperimentProgress) => void;
  note: (level: ExperimentEvent['level'], message: string) => void;
  status: (m: string) => void;
  samplesFile: string;
  /** Logical CPUs per core of the server, for the physical cores beside the CPUs used. */
  threadsPerCore: number;
  custom: CustomPlan | null;
}

async function runOne(c: RunContext): Promise<RunRecord> {
  const { load, threads, index } = c;
  const runEvents: ExperimentEvent[] = [];
  const runNote = (level: ExperimentEvent['level'], message: string) => {
    runEvents.push({ time: new Date().toISOString(), level, message });
    c.note(level, `run ${index + 1} (${threads} threads): ${message}`);
  };
  const failures: SessionFailure[] = [];
  const startedAt = new Date().toISOString();
  c.status(`run ${index + 1}: opening ${threads} sessions`);
  let sessions: WorkloadSessions | CustomSessions;
  try {
    sessions = c.custom
      ? await CustomSessions.open(c.target, c.custom.workload, c.custom.table, threads, failures)
      : await WorkloadSessions.open(c.target, c.labDatabase, threads, c.scenario, c.arm.parameters, failures);
  } catch (err) {
    // Not an exception out of the experiment: the runs before this one stand, the knobs are restored, and the record
    // of this run says why it never started.
    if (c.signal.aborted) throw err;
    runNote('error', (err as Error).message);
    const totals = foldTicks([]);
    return {
      index, threads, arm: c.arm, status: 'failed', startedAt, endedAt: new Date().toISOString(), elapsedMs: 0, rows: 0,
      sessionsOk: 0, sessionFailures: failures, timeline: [], totals,
      derived: computeDerived(totals, { cpusUsed: 0, threads, threadsPerCore: c.threadsPerCore, first: null, last: null }),
      client: { cpuUserMs: 0, cpuSystemMs: 0, cpuUsPerCall: null, eventLoopLagP99Ms: 0, eventLoopLagMaxMs: 0, rssMb: process.memoryUsage().rss / 1048576 },
      latency: null,
      events: runEvents,
    };
  }
  const timeline: Tick[] = [];
  let first: RawSample | null = null;
  let prev: RawSample | null = null;
  const sampler = new Sampler({
    target: c.target,
    labDatabase: c.labDatabase,
    intervalMs: load.intervalMs,
    onSample: (e) => accept(e.sample, e.afterGap),
    onProblem: (m) => runNote('warning', m),
  });
  // closing: the run's final sample, taken after the load ended at that client time.
  let callsSeen = 0;
  const accept = (cur: RawSample, afterGap: boolean, closing?: { loadEndedAt: number }) => {
    if (!prev) { prev = cur; first = first ?? cur; return; }
    const active = closing ? closingActiveMs(prev.clientTime, closing.loadEndedAt, load.intervalMs) : undefined;
    const r = computeTick(prev, cur, { labDatabase: c.labDatabase, progressTables: c.scenario.progress.tables, runStartMsTicks: first!.msTicks, gap: afterGap, activeMs: active ?? undefined });
    // A custom workload touches no lab table: its ticks count the calls the sessions completed instead.
    if (r.kind === 'tick' && sessions instanceof CustomSessions) {
      const done = sessions.liveCalls;
      r.tick.rows = Math.max(0, done - callsSeen);
      r.tick.rowsPerSec = r.tick.intervalMs > 0 ? r.tick.rows / (r.tick.intervalMs / 1000) : 0;
      callsSeen = done;
    }
    // A closing sliver has no honest rate: not charted, not in the timeline; its rows still count. (A restart verdict
    // in it is still reported below.)
    if (active === null && r.kind === 'tick') { closingRows = r.tick.rows; return; }
    if (r.kind === 'skip') return;
    if (r.kind === 'restart') {
      runNote('error', `${r.message} The samples before it are kept.`);
      prev = cur;
      return;
    }
    prev = cur;
    timeline.push(r.tick);
    fs.appendFileSync(c.samplesFile, JSON.stringify({ run: index, threads, arm: c.arm.id, tick: r.tick }) + '\n');
    c.progress({ kind: 'tick', run: index, threads, tick: r.tick });
  };

  const latency = load.mode === 'client-loop' ? new LatencyRecorder() : null;
  const clientStats = new ClientStatsRecorder();
  let client: RunRecord['client'] | null = null;
  let status: RunRecord['status'] = 'completed';
  let rows = 0;
  let last: RawSample | null = null;
  let sessionWaits: RunRecord['sessionWaits'] = null;
  let closingRows = 0;
  try {
    if (load.warmupMs > 0 && !c.signal.aborted) {
      c.status(`run ${index + 1}: warming up for ${load.warmupMs} ms`);
      const w = await sessions.runPhase({ mode: load.mode, durationMs: load.warmupMs, rows: null }, c.signal);
      failures.push(...w.failures.map((f) => ({ ...f, message: `warm-up: ${f.message}` })));
    }
    c.status(`run ${index + 1}: measuring`);
    accept((await sampler.sampleNow()).sample, false);
    c.progress({ kind: 'run-start', run: index, threads, measuredMs: load.durationMs, arm: { id: c.arm.id, label: c.arm.label } });
    clientStats.start();
    sampler.start();
    // The built-in driver's own sessions' waits (a custom driver reads its own, with its per-call figures).
    const ownBefore = sessions instanceof WorkloadSessions ? await readOwnCounters(c.target, sessions.ids.filter((x) => x > 0)) : null;
    const phase = await sessions.runPhase({ mode: load.mode, durationMs: load.durationMs, rows: load.rows, latency: latency ?? undefined }, c.signal);
    const loadEndedAt = Date.now();
    // Per call in the client loop; in the server loop a call is a whole EXEC, so per row says more.
    client = clientStats.stop(load.mode === 'client-loop' ? phase.calls : phase.rows);
    await sampler.stop();
    try {
      const final = await sampler.sampleNow();
      accept(final.sample, final.afterGap, { loadEndedAt });
      last = final.sample;
    } catch (err) {
      runNote('warning', `the final sample failed (${(err as Error).message}); the run ends at its last tick`);
      last = prev;
    }
    if (sessions instanceof WorkloadSessions) {
      const ownAfter = ownBefore ? await readOwnCounters(c.target, sessions.ids.filter((x) => x > 0)) : null;
      sessionWaits = ownBefore && ownAfter ? waitDeltas(ownBefore.waits, ownAfter.waits) : null;
      if (!sessionWaits) runNote('info', "the workload sessions' own waits could not be read (sys.dm_exec_session_wait_stats); the server-wide waits stand");
    }
    failures.push(...phase.failures);
    const counted = timeline.reduce((s, t) => s + t.rows, 0) + closingRows;
    rows = phase.rowsUnknown || phase.rows === 0 ? counted : phase.rows;
    if (phase.cancelled) status = 'cancelled';
    else if (failures.filter((f) => !f.message.startsWith('warm-up')).length * 2 > threads) status = 'failed';
    for (const f of phase.failures) runNote('warning', `session ${f.session} failed: ${f.message}`);
    if (sessions instanceof CustomSessions) {
      const stats = sessions.runStats();
      if (stats?.stoppedOnError) { status = 'failed'; runNote('error', `stopped on error (--stop-on-error) in ${stats.stoppedOnError}`); }
    }
  } catch (err) {
    status = c.signal.aborted ? 'cancelled' : 'failed';
    runNote('error', (err as Error).message);
  } finally {
    await sampler.close();
    await sessions.close();
  }
  // The final sample can land after every session finished: an idle tail would stretch elapsed time and dilute every
  // rate. It stays in samples.jsonl; the run's figures end at the last interval with work in it.
  // (A custom workload's ticks count no rows: its calls are counted by the client.)
  while (!c.custom && timeline.length > 1 && timeline[timeline.length - 1].rows === 0 && status === 'completed') timeline.pop();
  const totals = foldTicks(timeline);
  const derived = computeDerived({ ...totals, rows: rows || totals.rows }, { cpusUsed: cpusUsedFromTicks(timeline), threads, threadsPerCore: c.threadsPerCore, first, last });
  return {
    index,
    threads,
    arm: c.arm,
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
    ...(sessions instanceof CustomSessions ? { custom: sessions.runStats() ?? undefined } : {}),
    sessionWaits: sessions instanceof CustomSessions ? sessions.sessionWaits() : sessionWaits,
    events: runEvents,
  };
}

