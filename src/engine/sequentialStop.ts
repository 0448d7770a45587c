// --repeat auto in the run loop: after the last run of each repetition of a group of arms (those that share a deploy
// repeat together, so a stop never costs a deploy), the group's gates are looked at; once every one is decided the
// group's later repetitions are skipped and dropped from the design's sequence (the runs that ran stay its prefix),
// and the design records where each group stopped and why.
import type { ExperimentDesign, RunRecord, SequentialRecord } from '../shared/experiment';
import type { PlannedRun } from './planOrder';

export interface SequentialOption {
  /** The first repetition a figure's gate can be decided at. */
  firstLook: number;
  /** Whether every gate on these arms' cells is decided, given the experiment's runs so far. */
  decided: (runs: readonly RunRecord[], armIds: readonly string[]) => boolean;
}

export interface SequentialStops {
  /** The planned runs less those of a group that has stopped; `runs`: the runs so far (null once cancelled). */
  planned(order: readonly PlannedRun[], runs: () => readonly RunRecord[] | null): Generator<PlannedRun>;
  /** At the end: the design's count is what ran, so a re-run repeats as often as this one needed. */
  finish(runs: readonly RunRecord[]): void;
}

export function sequentialStops(
  seq: SequentialOption,
  arms: readonly { id: string }[],
  keys: readonly string[],
  design: ExperimentDesign,
  note: (message: string) => void,
): SequentialStops {
  const max = design.repeat;
  const record: SequentialRecord = (design.sequential = {
    maxRepeat: max,
    firstLook: seq.firstLook,
    spending: 'lan-demets-obrien-fleming',
    stops: [],
  });
  const stopped = new Set<string>();
  /** After each planned run, with the one that follows it (undefined after the last). */
  const look = (r: PlannedRun, after: PlannedRun | undefined, runs: readonly RunRecord[]): void => {
    const group = keys[r.arm];
    if (after && keys[after.arm] === group && after.repetition === r.repetition) return;
    if (runs.at(-1)?.status !== 'completed') return;
    const armIds = arms.filter((_, i) => keys[i] === group).map((a) => a.id);
    const decided = seq.decided(runs, armIds);
    if (!decided && r.repetition < max) return;
    record.stops.push({ arms: armIds, repetitions: r.repetition, reason: decided ? 'decided' : 'max' });
    const who = armIds.length === 1 && armIds[0] === 'main' ? '' : ` on ${armIds.join(', ')}`;
    if (!decided) return note(`A gate${who} is still undecided after the most repetitions (${max}).`);
    note(`Every gate${who} was decided at repetition ${r.repetition} of at most ${max}.`);
    if (r.repetition >= max) return;
    stopped.add(group);
    const ran = (k: string) => !armIds.some((id) => k.startsWith(`${id}@`)) || Number(k.slice(k.lastIndexOf('#') + 1)) <= r.repetition;
    design.sequence = design.sequence.filter(ran);
  };
  return {
    *planned(order, runs) {
      for (let i = 0; i < order.length; i++) {
        if (stopped.has(keys[order[i].arm])) continue;
        yield order[i];
        const sofar = runs();
        if (sofar) look(order[i], order[i + 1], sofar);
      }
    },
    finish(runs) {
      design.repeat = Math.max(1, ...runs.map((r) => r.repetition ?? 1));
    },
  };
}
