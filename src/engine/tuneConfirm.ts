// A tune re-run is a confirmation: an ordinary experiment of two arms, the server's current settings (A) against the
// winner (B), each at the session count where the search found it best, repeated and interleaved as any A/B is, so its
// verdict comes with an interval from fresh runs rather than from the search that picked the winner. Its arms come
// only from the record's configurations (affinity, delayed durability, rows per transaction) and its result.
import type { Experiment, LoadSettings } from '../shared/experiment';
import { resolveParams } from '../shared/params';
import { cellsOf, compareCells, ratioVerdict, THROUGHPUT_WORDS } from '../shared/repeats';
import type { TuneConfig } from '../shared/tune';
import { configName } from '../shared/tuneText';
import type { PlanArm } from './experiment';
import { NotebookError } from './migrate';
import { getScenario } from './scenarios';
import { plural } from '../shared/plural';

/** Runs of each arm a confirmation makes by default: enough for an interval on the ratio. */
export const CONFIRM_REPEAT = 3;
/** The confirmation's arm ids: distinct even when the winner is the current settings at another session count. */
export const CONFIRM_A = 'current';
export const CONFIRM_B = 'winner';

interface Side {
  config: TuneConfig;
  threads: number;
}

/** The two sides from the tune's result; a NotebookError saying why when there is nothing to confirm. */
function sidesOf(e: Experiment): { a: Side; b: Side } {
  const t = e.tune;
  if (!t) throw new NotebookError(`${e.id} is not a tune.`);
  const r = t.result;
  if (!r)
    throw new NotebookError(
      `The tune found no winner to confirm${t.stopReason ? ` (it stopped: ${t.stopReason.replace(/\.$/, '')})` : ''}.`,
    );
  const find = (id: string) => {
    const c = t.configs.find((x) => x.id === id);
    if (!c) throw new NotebookError(`The tune's record names configuration ${id}, which its configurations do not hold.`);
    return c;
  };
  const currentId = r.current?.config ?? t.configs.find((c) => c.current)?.id;
  if (!currentId) throw new NotebookError("The tune's record has no configuration for the server's current settings.");
  const b = { config: find(r.winner.config), threads: r.winner.threads };
  const a = { config: find(currentId), threads: r.current?.threads ?? r.winner.threads };
  if (a.config.id === b.config.id && a.threads === b.threads)
    throw new NotebookError('The tune found the current settings best: there is no other setting to confirm against them.');
  return { a, b };
}

/** "log writer's node (numa:0) at 8 sessions". */
const sideName = (e: Experiment, s: Side) => `${configName(e.tune!, s.config.id)} at ${plural(s.threads, 'session')}`;

export function confirmTitle(e: Experiment): string {
  const { a, b } = sidesOf(e);
  const current = a.config.current ? `the current settings at ${plural(a.threads, 'session')}` : `the current settings (${sideName(e, a)})`;
  return `Confirm the tune's winner: ${sideName(e, b)} against ${current}`;
}

/** The confirmation's two arms: A the current settings, B the winner, each at its own session count. */
export function confirmArms(e: Experiment): PlanArm[] {
  const { a, b } = sidesOf(e);
  const scenario = getScenario(e.scenario.id);
  const hasBatch = scenario.parameters.some((p) => p.name === 'batch_size');
  const arm = (id: string, label: string, s: Side): PlanArm => ({
    id,
    label,
    scenarioId: scenario.id,
    parameters: resolveParams(scenario.parameters, {
      json: { ...e.scenario.parameters, ...(hasBatch && s.config.batchSize !== null ? { batch_size: s.config.batchSize } : {}) },
    }),
    knobs: {
      ...(s.config.affinity ? { affinity: s.config.affinity } : {}),
      ...(s.config.delayedDurability ? { delayedDurability: s.config.delayedDurability } : {}),
    },
    mode: e.load.mode,
    threads: [s.threads],
  });
  return [
    arm(CONFIRM_A, `current settings (${plural(a.threads, 'session')})`, a),
    arm(CONFIRM_B, `winner: ${configName(e.tune!, b.config.id)} (${plural(b.threads, 'session')})`, b),
  ];
}

/** Each run as long as a trial of the search, with its warm-up; sampled as the tune was. */
export function confirmLoad(e: Experiment): Omit<LoadSettings, 'mode' | 'threads'> {
  const t = e.tune!;
  return { durationMs: t.trialMs, rows: null, warmupMs: t.warmupMs, intervalMs: e.load.intervalMs };
}

/** A confirmation's record: two arms, the current settings and the winner, and no preset. */
export function isConfirmation(e: Pick<Experiment, 'runs' | 'preset'>): boolean {
  const ids = new Set(e.runs.map((r) => r.arm.id));
  return !e.preset && ids.size === 2 && ids.has(CONFIRM_A) && ids.has(CONFIRM_B);
}

/** The confirmation's verdict: the winner's cell against the current settings', each at its own session count. */
export function confirmVerdict(e: Pick<Experiment, 'runs'>): string[] {
  const cells = cellsOf(e.runs);
  const a = cells.find((c) => c.armId === CONFIRM_A);
  const b = cells.find((c) => c.armId === CONFIRM_B);
  if (!a || !b) return ['The confirmation has no completed run of one side: no verdict.'];
  const cmp = compareCells(a, b, 'The winner');
  const verdict = ratioVerdict(cmp.figures[0].ratio, { ...THROUGHPUT_WORDS('The winner'), against: 'the current settings' }).text;
  const head = `Confirmation: the winner (B, ${plural(b.threads, 'session')}, ${plural(b.runs.length, 'run')}) against the current settings (A, ${plural(a.threads, 'session')}, ${plural(a.runs.length, 'run')})`;
  return [`${head}: ${verdict}`, ...cmp.summary.slice(1).map((s) => `  ${s}`)];
}
