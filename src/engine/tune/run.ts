// Runs a tune: reads the server's shape and current settings, refuses a busy server unless told it is shared, builds
// the configurations, and runs them as an adaptive plan (engine/experiment.ts): each trial's knobs journaled before
// they change and the server's settings put back at the end, on success, failure or cancel (`spinlab restore` after
// a kill). The budget is wall time from the start: a trial starts only when the time it is measured to take fits.
import * as path from 'node:path';
import { DbSession } from '../../db/client';
import { describeTarget } from '../../db/target';
import type { RunRecord } from '../../shared/experiment';
import type { TuneInfo } from '../../shared/tune';
import { parseAffinity } from '../../shared/affinity';
import { tuneReasons } from '../../shared/tuneExplain';
import { runPlan, type ExperimentResult, type PlanArm } from '../experiment';
import { knobContextFor, readKnobState, setKnobsForGood } from '../knobs';
import { defaultStateDir } from '../journal';
import { RecordNotSavedError, saveLastRecord } from '../recordSave';
import { runKey } from '../planOrder';
import { getScenario } from '../scenarios';
import { getPreset, presetValues } from '../presets';
import { readIdentity, readTopology } from '../server';
import { otherActivity } from './activity';
import { checkBudget, checkQuiet, TRIAL_OVERHEAD_MS } from './preflight';
import { TuneRefusal } from './refusal';
import { tuneResult } from './result';
import { silentObjective, unmetConstraints } from './objective';
import { TuneSearch } from './search';
import { buildSpace } from './space';
import { checkObjective } from './names';
import { RESERVE_MS } from './plan';
import type { TuneOptions, TuneProgress } from './types';

export async function runTune(
  opts: TuneOptions,
  signal: AbortSignal,
  progress: (p: TuneProgress) => void = () => undefined,
): Promise<ExperimentResult> {
  const started = Date.now();
  const trialMs = opts.trialMs ?? 4000;
  const warmupMs = opts.warmupMs ?? 1000;
  checkTuneRequest(opts);
  let scenarioId = opts.scenarioId;
  let parameters = opts.parameters;
  let preset = opts.preset ?? null;
  let scenario = opts.custom || opts.fromPreset ? null : getScenario(scenarioId);
  const status = (message: string) => progress({ kind: 'status', message });
  status(`connecting to ${describeTarget(opts.target)}`);
  const db = await DbSession.open(opts.target, { database: 'master', appName: 'Spinlock Lab' });
  const notes: string[] = [];
  // Latency falls with fewer sessions: without a load to meet, a p99 search ends at one session.
  if (
    opts.objective.kind === 'p99' &&
    !opts.request.sessions?.length &&
    !opts.constraints.some((c) => c.figure === 'rowsPerSec' && c.op === '>=')
  ) {
    const message =
      'p99 latency falls as sessions fall, so without a load to meet this search favours few sessions: give the throughput you need (--constraint throughput>=N) or the session counts your application runs (--sessions).';
    progress({ kind: 'event', event: { time: new Date().toISOString(), level: 'warning', message } });
    notes.push(message);
  }
  let tune: TuneInfo;
  let topology;
  let objective = opts.objective;
  try {
    const identity = await readIdentity(db);
    objective = await checkObjective(db, opts.objective);
    topology = (await readTopology(db, identity)).topology;
    if (opts.fromPreset) {
      // A preset's scenario: its first arm's, as the preset plans it for this server, with the preset's settings.
      const p = getPreset(opts.fromPreset.id);
      const values = presetValues(p, { set: opts.fromPreset.set });
      const plan = p.plan({ topology, identity }, values, null);
      scenarioId = plan.arms[0].scenarioId;
      parameters = plan.arms[0].parameters;
      scenario = getScenario(scenarioId);
      preset = { id: p.id, post: p.post, question: p.question, notes: plan.notes, settings: values, threads: null };
    }
    const knobs = await readKnobState(db, opts.labDatabase);
    status('checking for other work on the server');
    const activity = await otherActivity(db);
    checkQuiet(activity, !!opts.sharedServer);
    const configs = buildSpace(
      {
        topology,
        scenario,
        parameters,
        request: opts.request,
        constraints: opts.constraints,
        currentDelayedDurability: knobs.delayedDurability,
      },
      notes,
    );
    for (const c of configs) if (c.affinity) parseAffinity(c.affinity, topology); // a bad spec fails before anything changes
    tune = {
      objective,
      constraints: opts.constraints,
      budgetMs: opts.budgetMs,
      trialMs,
      warmupMs,
      request: opts.request,
      configs,
      sharedServer: !!opts.sharedServer,
      otherActivity: activity,
      rounds: [],
      elapsedMs: null,
      result: null,
      stopReason: null,
    };
    // Refused before anything changes: below this the confirmation could not run (plan.ts).
    checkBudget(configs, opts.budgetMs, trialMs + warmupMs, !!opts.sharedServer);
  } finally {
    await db.close();
  }

  const search = new TuneSearch({
    configs: tune.configs,
    objective,
    constraints: opts.constraints,
    sharedServer: !!opts.sharedServer,
  });
  tune.rounds = search.rounds;
  const arms: PlanArm[] = tune.configs.map((c) => ({
    id: c.id,
    label: c.label,
    scenarioId,
    parameters: c.batchSize === null ? parameters : { ...parameters, batch_size: c.batchSize },
    knobs: { ...(c.affinity ? { affinity: c.affinity } : {}), ...(c.delayedDurability ? { delayedDurability: c.delayedDurability } : {}) },
    mode: opts.mode,
    threads: c.sessions,
  }));
  // Trial time as measured: the gaps between the search's calls (each a trial with its knobs, samples and saves).
  const durations: number[] = [];
  let last: number | null = null;
  let first = true;
  let stop: string | null = null;
  let silent = false;
  const next = (runs: readonly RunRecord[]) => {
    const nothing = silentObjective(runs, objective, tune.configs.length);
    if (nothing) {
      [silent, stop] = [true, nothing];
      return null;
    }
    const now = Date.now();
    // The first gap also holds the workload's deploy: it would make every later trial look that long.
    if (last !== null && !first) durations.push(now - last);
    first = last === null;
    last = now;
    const recent = durations.slice(-3);
    const est = recent.length ? Math.max(...recent) : trialMs + warmupMs + TRIAL_OVERHEAD_MS;
    const left = opts.budgetMs - (now - started) - RESERVE_MS;
    const affordable = Math.floor(left / est);
    const r = search.next(runs, affordable);
    // The confirmation runs until a pair no longer fits: its end is the budget's.
    if (!r) stop = affordable <= 0 || search.confirmation() ? 'the budget is spent' : 'the search has nothing left to try';
    else search.started(runKey(tune.configs[r.arm].id, r.threads, r.repetition));
    const round = tune.rounds[tune.rounds.length - 1];
    if (round) round.standings = search.standings();
    progress({ kind: 'tune', tune });
    return r;
  };
  // A record the plan could not write is written again below with the search's result: the error keeps the tune.
  let unsaved: RecordNotSavedError | null = null;
  const result: ExperimentResult = await runPlan(
    {
      target: opts.target,
      labDatabase: opts.labDatabase,
      arms,
      load: { durationMs: trialMs, rows: null, warmupMs, intervalMs: opts.intervalMs ?? 1000, clientWorkers: undefined },
      outDir: opts.outDir,
      title:
        opts.title ??
        `Tune ${preset ? preset.id : scenarioId}: the best settings for ${objective.kind === 'throughput' ? 'throughput' : objective.kind === 'p99' ? 'p99 latency' : `${objective.spinlock} spins per row`}`,
      question: 'Which settings serve this workload best on this server, and why?',
      deploy: opts.deploy,
      stateDir: opts.stateDir,
      id: opts.id,
      preset,
      custom: opts.custom ?? null,
      next,
      tune,
      restoreEachRun: true,
    },
    signal,
    progress,
  ).catch((err: unknown) => {
    if (!(err instanceof RecordNotSavedError)) throw err;
    unsaved = err;
    return { experiment: err.experiment, file: err.file };
  });
  const e = result.experiment;
  search.finish(e.runs);
  tune.elapsedMs = Date.now() - started;
  const unmet = unmetConstraints(e.runs, objective, opts.constraints, opts.custom ? 'calls/s' : 'rows/s');
  tune.stopReason = signal.aborted ? 'cancelled' : e.status === 'failed' ? 'a trial failed' : (unmet ?? stop ?? 'the search ended');
  for (const n of notes)
    e.events.push({ time: new Date().toISOString(), level: /^p99 latency falls/.test(n) ? 'warning' : 'info', message: n });
  if (tune.sharedServer)
    e.events.push({
      time: new Date().toISOString(),
      level: 'warning',
      message:
        'Other sessions were working on the server (--shared-server): their work is in every trial, and the intervals were widened for it.',
    });
  tune.result = silent
    ? null
    : tuneResult(tune, search, {
        topology,
        database: opts.labDatabase,
        custom: !!opts.custom,
        trialMs: durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : trialMs + warmupMs,
      });
  if (tune.result) {
    tune.result.reasons = tuneReasons(e, tune.result.winner, tune.result.current);
    if (opts.apply && !signal.aborted && e.status === 'completed') await applyWinner(opts, tune, topology);
  }
  progress({ kind: 'tune', tune });
  const stopped = unsaved as RecordNotSavedError | null;
  const failed = saveLastRecord(result.file, e, stopped?.stopped ? stopped.original : null);
  if (failed) throw failed;
  return result;
}

/** --apply: the winner's affinity and delayed durability, set for good (no journal: nothing will put them back). */
async function applyWinner(opts: TuneOptions, tune: TuneInfo, topology: Parameters<typeof parseAffinity>[1]): Promise<void> {
  const w = tune.configs.find((c) => c.id === tune.result!.winner.config)!;
  if (!w.affinity && !w.delayedDurability) return;
  const db = await DbSession.open(opts.target, { database: 'master', appName: 'Spinlock Lab' });
  try {
    const identity = await readIdentity(db);
    const ctx = {
      ...knobContextFor(db, identity, opts.target, opts.stateDir ?? defaultStateDir(), opts.labDatabase),
      experimentDir: path.resolve(opts.outDir),
    };
    const a = w.affinity ? parseAffinity(w.affinity, topology) : null;
    await setKnobsForGood(ctx, {
      ...(a ? { affinity: { spec: a.spec, cpus: a.cpus } } : {}),
      ...(w.delayedDurability ? { delayedDurability: w.delayedDurability } : {}),
    });
    tune.result!.applied = true;
  } finally {
    await db.close();
  }
}

/**
 * What a tune can refuse from its options alone, before it connects: the command line calls this before printing
 * its plan, so a refusal never follows a line saying what the tune will change.
 */
export function checkTuneRequest(opts: Pick<TuneOptions, 'objective' | 'constraints' | 'mode'>): void {
  if (opts.objective.kind === 'p99' && opts.mode !== 'client-loop')
    throw new TuneRefusal(
      { kind: 'p99-needs-client-loop' },
      'A p99 latency objective needs latency per call, which only the client loop measures.',
      'add --mode client-loop.',
    );
  if (opts.constraints.some((c) => c.figure === 'p99Us') && opts.mode !== 'client-loop')
    throw new TuneRefusal(
      { kind: 'p99-constraint-needs-client-loop' },
      'A p99 latency constraint needs latency per call, which only the client loop measures: no trial could meet it.',
      'add --mode client-loop, or leave the constraint out.',
    );
}
