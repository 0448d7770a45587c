// Runs an experiment: preflight (identity, topology, permissions, an unrestored journal), lab database and deploy,
// knobs (journal first), then one run per thread count: warm-up, baseline sample, measured phase with a tick every
// interval, final sample. Whatever happens (success, failure, cancel) the knobs are restored and every sample taken is
// kept: ticks go to samples.jsonl as they arrive, experiment.json is rewritten after each run.
//
// A plan runs several arms in one experiment (a preset: the log writer's node, then the other node), each cell (arm
// and thread count) `repeat` times, in the order planOrder.ts gives: arms that deploy the same thing together, taking
// turns within each repetition (A B, B A, ...). A deploy happens only when that group changes; before every run the
// knobs move to its arm's values (the journal keeps the state from before the first change) and are read back, so a
// change by anyone else during the run makes that run invalid. runExperiment is a plan of one arm.
import * as path from 'node:path';
import { DbSession } from '../db/client';
import { describeTarget, type DbTarget } from '../db/target';
import {
  EXPERIMENT_SCHEMA_VERSION,
  type Experiment,
  type ExperimentDesign,
  type ExperimentEvent,
  type KnobState,
  type LoadSettings,
  type ParamValue,
  type PresetInfo,
  type RunArm,
  type RunRecord,
} from '../shared/experiment';
import type { TuneInfo } from '../shared/tune';
import { threadsPerCore } from '../shared/affinity';
import { SpinlabError, grantFor } from './errors';
import { makeDirs, outputError, writeWhole } from './outFiles';
import { saveLastRecord } from './recordSave';
import { deployScenario, TOOL_VERSION } from './lab';
import { applyKnobs, completeRequest, knobContextFor, readKnobState, restoreFromJournal, type KnobContext } from './knobs';
import { experimentLocks, releaseLocks, takeLocks, type LockRequest } from './labLock';
import { runDrift } from './knobWatch';
import { defaultStateDir } from './journal';
import { refuseLeftover } from './leftover';
import { getScenario } from './scenarios';
import { deployKey, knobRequestOf, ownJournal, type PlanArm } from './planParts';
import { readIdentity, readTopology } from './server';
import { runOne, type CustomPlan, type ExperimentProgress } from './runOne';
import { checkRepeat, interleavedArms, planOrder, runKey, type PlannedRun } from './planOrder';
import { featureVersion } from '../shared/serverLevel';
import { sequentialStops, type SequentialOption } from './sequentialStop';
import { counts, plural } from '../shared/plural';

export type { CustomPlan, ExperimentProgress } from './runOne';

/** ALLOWED only permits delayed durability: a commit must ask for it, and no scenario's commit does. */
export const DD_ALLOWED_NOTE =
  'DELAYED_DURABILITY = ALLOWED: a transaction is delayed-durable only when its COMMIT asks ' +
  "(COMMIT WITH (DELAYED_DURABILITY = ON), or BEGIN ATOMIC WITH (DELAYED_DURABILITY = ON)), and the scenarios' commits do not, " +
  'so these runs behave as DISABLED. Use FORCED to make every commit delayed-durable.';

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
  /** Runs of each thread count (default 1); with `sequential`, the most. */
  repeat?: number;
  /** --repeat auto: see PlanOptions. */
  sequential?: SequentialOption;
}

export interface ExperimentResult {
  experiment: Experiment;
  file: string;
}

/** An experiment id as the engine makes them: the start time and the scenario, safe as a folder name. */
export function newExperimentId(scenarioId: string, now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${scenarioId}`;
}

export type { PlanArm } from './planParts';

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
  /** Runs of each cell (arm and thread count), interleaved as planOrder.ts says (default 1). */
  repeat?: number;
  /**
   * An adaptive plan (a tune): asked before each run which comes next, given the runs so far (null ends the plan).
   * Replaces the planned order; the design's sequence then grows as the runs are chosen.
   */
  next?: (runs: readonly RunRecord[]) => PlannedRun | null;
  /** A tune's record: its search state, saved with the experiment after every run (the search updates it). */
  tune?: TuneInfo;
  /** Put the server's settings back after every run, not only at the end (a tune's trials). */
  restoreEachRun?: boolean;
  /**
   * --repeat auto (`repeat` is then the most a cell may take): after each whole repetition of a group of arms (those
   * that share a deploy, which repeat together), asked whether every gate on their cells is decided; true ends that
   * group's repetitions. The experiment's design records where each group stopped and why.
   */
  sequential?: SequentialOption;
}

export async function runExperiment(
  opts: ExperimentOptions,
  signal: AbortSignal,
  progress: (p: ExperimentProgress) => void = () => undefined,
): Promise<ExperimentResult> {
  const { mode, threads, ...load } = opts.load;
  return runPlan(
    {
      target: opts.target,
      labDatabase: opts.labDatabase,
      arms: [
        { id: 'main', label: opts.scenarioId, scenarioId: opts.scenarioId, parameters: opts.parameters, knobs: opts.knobs, mode, threads },
      ],
      load,
      outDir: opts.outDir,
      title: opts.title,
      question: opts.question,
      deploy: opts.deploy,
      stateDir: opts.stateDir,
      id: opts.id,
      preset: null,
      custom: opts.custom ?? null,
      repeat: opts.repeat,
      sequential: opts.sequential,
    },
    signal,
    progress,
  );
}

export async function runPlan(
  opts: PlanOptions,
  signal: AbortSignal,
  progress: (p: ExperimentProgress) => void = () => undefined,
): Promise<ExperimentResult> {
  if (opts.arms.length === 0) throw new SpinlabError('user-input', 'The experiment has no arms to run.');
  const ids = opts.arms.map((a) => a.id);
  if (new Set(ids).size !== ids.length) throw new SpinlabError('user-input', `Arm ids must be unique; got ${ids.join(', ')}.`);
  const stateDir = opts.stateDir ?? defaultStateDir();
  const scenarios = opts.arms.map((a) => getScenario(a.scenarioId));
  const first = opts.arms[0];
  const repeat = checkRepeat(opts.repeat ?? 1);
  const keys = scenarios.map((sc, i) => deployKey(sc, opts.arms[i].parameters));
  // A scenario's deploy replaces only its own objects: two scenarios stay deployed together, two deploys of one do not.
  const orderArms = opts.arms.map((a, i) => ({ id: a.id, threads: a.threads, group: keys[i], slot: scenarios[i].id }));
  const order = opts.next ? [] : planOrder(orderArms, repeat);
  const design: ExperimentDesign = {
    repeat,
    order: opts.next ? 'adaptive' : 'alternating',
    sequence: order.map((r) => runKey(opts.arms[r.arm].id, r.threads, r.repetition)),
    ...(opts.next ? {} : { interleaved: interleavedArms(orderArms) }),
  };
  const stops = opts.sequential ? sequentialStops(opts.sequential, opts.arms, keys, design, (m) => note('info', m)) : null;
  const next = opts.next;
  // The runs in order: planned, or (adaptive) chosen one by one from the runs so far and added to the design.
  function* planned(): Generator<PlannedRun> {
    if (!next) return yield* stops ? stops.planned(order, () => (signal.aborted ? null : (experiment?.runs ?? null))) : order;
    for (let r = next(experiment?.runs ?? []); r; r = next(experiment?.runs ?? [])) {
      design.sequence.push(runKey(opts.arms[r.arm].id, r.threads, r.repetition));
      yield r;
    }
  }
  try {
    makeDirs(opts.outDir);
  } catch (err) {
    throw outputError(err, opts.outDir);
  }
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
  // This session holds the experiment's locks (labLock.ts) until it closes: it is never closed for idleness.
  const admin = await DbSession.open(opts.target, { database: 'master', appName: 'Spinlock Lab', keep: true });
  let knobCtx: KnobContext | undefined;
  let experiment: Experiment | undefined;
  let locks: LockRequest[] = [];
  let saveError: unknown = null;
  // A write of the record that failed during the experiment: it stops there, and the error carries the experiment.
  let recordError: unknown = null;
  try {
    const identity = await readIdentity(admin);
    if (!identity.permissions.viewServerState) {
      throw new SpinlabError(
        'permission',
        `The login ${identity.login} lacks VIEW SERVER STATE, which every DMV Spinlock Lab samples needs.`,
        grantFor('VIEW SERVER STATE', identity.login, featureVersion(identity)),
      );
    }
    const { topology, startTime } = await readTopology(admin, identity);
    identity.startTime = startTime;
    // One experiment per lab database and per server-wide knob: a custom workload locks its database only when it
    // changes delayed durability there.
    locks = experimentLocks(
      opts.custom && !opts.arms.some((a) => a.knobs.delayedDurability) ? null : opts.labDatabase,
      opts.arms.some((a) => !!a.knobs.affinity),
    );
    await takeLocks(admin, locks, 'This run');
    const ctx = { ...knobContextFor(admin, identity, opts.target, stateDir, opts.labDatabase), experimentDir: path.resolve(opts.outDir) };
    await refuseLeftover(admin, stateDir, ctx.serverKey);
    knobCtx = ctx;
    if (opts.custom) {
      const w = opts.custom.workload;
      note(
        w.writes ? 'warning' : 'info',
        w.writes
          ? `The workload writes to [${w.database}] (${w.writes}); Spinlock Lab deploys and drops nothing there.`
          : `The workload only reads in [${w.database}]; Spinlock Lab deploys and drops nothing there.`,
      );
    }
    if (identity.simulated)
      note('warning', 'This server is the Spinlock Lab simulator: every number in this experiment is synthetic, not a measurement.');

    const requests = opts.arms.map((a) => knobRequestOf(a, topology));
    if (requests.some((r) => r.delayedDurability === 'ALLOWED')) note('info', DD_ALLOWED_NOTE);
    experiment = {
      schemaVersion: EXPERIMENT_SCHEMA_VERSION,
      kind: opts.tune ? 'tune' : 'experiment',
      id: opts.id ?? newExperimentId(opts.preset?.id ?? scenarios[0].id),
      title: opts.title ?? `${scenarios[0].name}: ${counts(first.threads, 'thread')}`,
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
      design,
      ...(opts.tune ? { tune: opts.tune } : {}),
      status: 'running',
      runs: [],
      events,
    };
    const save = () => {
      try {
        writeWhole(file, JSON.stringify(experiment, null, 2));
      } catch (err) {
        throw (recordError = err);
      }
    };
    save();

    // What each slot of the lab database holds now (the deploy key of its last deploy).
    const deployed = new Map<string, string>();
    let original: KnobState | null = null;
    let armBefore = -1;
    const armRecords: RunArm[] = opts.arms.map((arm, i) => ({
      id: arm.id,
      label: arm.label,
      scenarioId: scenarios[i].id,
      parameters: arm.parameters,
      knobs: requests[i],
      mode: arm.mode,
    }));
    let index = -1;
    for (const { arm: i, threads, repetition, block, deploy } of planned()) {
      index++;
      if (signal.aborted) break;
      const arm = opts.arms[i];
      const scenario = scenarios[i];
      if (opts.arms.length > 1 && i !== armBefore) status(`arm ${i + 1}/${opts.arms.length}: ${arm.label}`);
      armBefore = i;
      // A set's groups all deploy before its first run, so no run of the set follows a deploy but the first.
      for (const j of opts.deploy !== false && !opts.custom ? [...(deploy ?? []), i] : []) {
        if (deployed.get(scenarios[j].id) === keys[j]) continue;
        status(`deploying ${scenarios[j].id} into [${opts.labDatabase}]`);
        await deployScenario(opts.target, admin, identity, opts.labDatabase, scenarios[j], opts.arms[j].parameters, status, signal, (m) =>
          note('warning', m),
        );
        deployed.set(scenarios[j].id, keys[j]);
      }
      status('applying knobs');
      const req = original ? completeRequest(requests[i], original) : requests[i];
      const before = await applyKnobs(knobCtx, req);
      if (!original) {
        original = before;
        experiment.knobs.before = before;
        save();
      }
      // What this run must still find at its end: a change by anyone else makes the run invalid.
      const expected = await readKnobState(admin, opts.labDatabase);
      const record = await runOne({
        target: opts.target,
        labDatabase: opts.labDatabase,
        load: { ...opts.load, mode: arm.mode, threads: arm.threads },
        scenario,
        arm: armRecords[i],
        index,
        threads,
        repetition,
        signal,
        progress,
        note,
        samplesFile,
        status,
        custom: opts.custom ?? null,
        threadsPerCore: threadsPerCore(topology),
      });
      if (block !== undefined) record.block = block;
      const drift = await runDrift(admin, expected, opts.labDatabase, locks, readKnobState);
      if (drift && record.status === 'completed') {
        record.status = 'invalid';
        record.invalidReason = drift;
        record.events.push({ time: new Date().toISOString(), level: 'error', message: `This run is invalid: ${drift}` });
        note('error', `Run ${record.index + 1} (${plural(threads, 'thread')}) is invalid: ${drift} The experiment stops here.`);
      }
      experiment.runs.push(record);
      save();
      progress({ kind: 'run-end', record });
      if (record.status === 'failed' || record.status === 'invalid') break;
      // A tune puts the server back between trials: each trial's change is journaled, made, and undone.
      if (opts.restoreEachRun && ownJournal(stateDir, knobCtx)) await restoreFromJournal(knobCtx);
    }
    stops?.finish(experiment.runs);
    experiment.status = signal.aborted
      ? 'cancelled'
      : experiment.runs.some((r) => r.status === 'failed' || r.status === 'invalid')
        ? 'failed'
        : 'completed';
  } catch (err) {
    if (experiment) {
      experiment.status = signal.aborted ? 'cancelled' : 'failed';
      // Kept in the record, not said live: the caller says the error it is thrown as, once.
      events.push({ time: new Date().toISOString(), level: 'error', message: (err as Error).message });
    }
    if (!experiment || err !== recordError) throw err;
  } finally {
    // Only a journal this experiment wrote: one written meanwhile by an experiment on another lab is its own to restore.
    const ctx = knobCtx;
    if (ctx && ownJournal(stateDir, ctx)) {
      try {
        const r = await restoreFromJournal(ctx);
        for (const a of r.actions) note('info', `restored: ${a}`);
        if (experiment) experiment.knobs.restored = r.restored;
      } catch (err) {
        note('error', `Could not restore the server's settings: ${(err as Error).message}. Run \`spinlab restore\` to retry.`);
      }
    }
    // A record that cannot be written (a full disk) must not stop the clean-up below: the locks would stay with a
    // connection kept open, and the process would never end.
    if (experiment) saveError = saveLastRecord(file, experiment, recordError);
    // Released here, not left to the close: the server notices a closed connection a moment later, and a cleanup or a
    // next run that starts at once would be refused by this finished experiment's locks. (A lock never taken is a
    // refused release, which releaseLocks ignores.)
    await releaseLocks(admin, locks).catch(() => undefined);
    await admin.close();
  }
  if (saveError) throw saveError;
  return { experiment: experiment!, file };
}
