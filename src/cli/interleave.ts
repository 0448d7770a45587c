// `spinlab run --baseline DIR --interleave`: the remedy for a comparison across sessions. Two experiments run at
// different times differ by whatever the session brought (a position effect, the time of day), which no number of
// repetitions removes; run as two arms of one experiment, the baseline's settings (A) and this run's (B) take turns
// (A B, B A, ...) and their verdict is paired by block. Only a plain scenario baseline can be run again this way: its
// scenario, parameters and knobs come from its validated record, never from a file's text.
import type { Experiment } from '../shared/experiment';
import { compareArmCells, type Cell } from '../shared/repeats';
import { resolveParams } from '../shared/params';
import { getScenario } from '../engine/scenarios';
import type { PlanArm } from '../engine/experiment';
import { UsageError } from './commands';

export const BASELINE_ARM = 'baseline';
export const CURRENT_ARM = 'current';
/** Repetitions of each arm when --repeat is not given: the fewest that pair with an interval (as a preset's). */
export const INTERLEAVE_REPEAT = 3;

/** Why this baseline cannot be run again beside this run, or null when it can. */
export function interleaveProblem(baseline: Experiment, scenarioId: string | undefined): string | null {
  const why = (s: string) => `--interleave runs the baseline's settings again beside this run's, as two arms of one experiment; ${s}.`;
  if (!scenarioId) return why('give --scenario (a preset already interleaves its own arms; a custom workload is not re-run this way)');
  if (baseline.kind === 'tune') return why('the baseline is a tune: confirm its winner with `spinlab rerun` instead');
  if (baseline.preset)
    return why(`the baseline ran the preset ${baseline.preset.id}, whose arms already took turns: re-run it with \`spinlab rerun\``);
  if (baseline.custom) return why('the baseline ran a custom workload: re-run it with `spinlab rerun`, or compare with `spinlab compare`');
  if (baseline.scenario.id !== scenarioId)
    return why(
      `the baseline ran scenario ${baseline.scenario.id} and this run ${scenarioId}: different workloads are neither faster nor slower`,
    );
  return null;
}

/** The two arms: A the baseline's recorded scenario parameters and knobs, B this run's; the same load for both. */
export function interleavedArms(baseline: Experiment, current: Omit<PlanArm, 'id' | 'label'>, dir: string): PlanArm[] {
  const problem = interleaveProblem(baseline, current.scenarioId);
  if (problem) throw new UsageError(problem);
  const scenario = getScenario(baseline.scenario.id);
  const applied = baseline.knobs.applied;
  return [
    {
      id: BASELINE_ARM,
      label: `the baseline's settings (${dir})`,
      scenarioId: scenario.id,
      parameters: resolveParams(scenario.parameters, { json: baseline.scenario.parameters }),
      knobs: {
        ...(applied.delayedDurability ? { delayedDurability: applied.delayedDurability } : {}),
        ...(applied.affinity?.spec ? { affinity: applied.affinity.spec } : {}),
      },
      mode: current.mode,
      threads: current.threads,
    },
    { ...current, id: CURRENT_ARM, label: "this run's settings" },
  ];
}

/** The "Against the baseline" section of an interleaved run: this run's arm against the baseline's, paired by block. */
export function interleavedSection(e: Pick<Experiment, 'runs'>, dir: string): string {
  const lines = [`\nAgainst the baseline's settings (${dir}), run again interleaved in this experiment (A: the baseline's, B: this run's)`];
  const at = compareArmCells(e.runs, BASELINE_ARM, CURRENT_ARM);
  if (!at.length) lines.push('  no thread count completed in both arms: no verdict');
  for (const c of at) lines.push(`  at ${c.threads} thread${c.threads === 1 ? '' : 's'}: ${c.summary.join(' ')}`);
  return lines.join('\n') + '\n';
}

/** Runs of one arm relabelled as a plain run's, so gates against the baseline can judge this arm against the other. */
export function asMain<R extends { arm: Cell['runs'][number]['arm'] }>(runs: readonly R[], armId: string): R[] {
  return runs.filter((r) => r.arm.id === armId).map((r) => ({ ...r, arm: { id: 'main', label: 'main' } }));
}
