// The order an experiment's runs go in. Arms that deploy the same thing form a group, and each group deploys once.
// Groups whose deploys can stay in the lab database together (different slots: a scenario's deploy drops and creates
// only its own objects) form one set: the set's groups deploy first, then all its arms take turns. Groups of one slot
// (a scenario deployed with other values) replace each other, so they fall into successive sets, run one set after
// another. Within a set, each repetition runs every thread count in turn, and at each count the set's arms take turns:
// forward in odd-numbered repetitions, reversed in even ones (A B, B A, A B ...), one A/B block per count and
// repetition. Drift over the experiment (a growing log, a checkpoint, the time of day) then falls on every arm alike,
// and no arm always runs first after a deploy or a knob change; arms of different sets are not interleaved, and the
// record says which arms took turns (design.interleaved) and each run's block, so the analysis can say so.
import { SpinlabError } from './errors';
import { MAX_REPEAT } from '../shared/planTime';

export interface OrderArm {
  id: string;
  threads: readonly number[];
  /** What the arm deploys: arms with the same group share a deploy. */
  group: string;
  /** Where its deploy lives in the lab database: groups of one slot replace each other (absent: its own group's). */
  slot?: string;
}

export interface PlannedRun {
  /** Index of the arm in the list given. */
  arm: number;
  threads: number;
  /** From 1. */
  repetition: number;
  /** The A/B block, from 1: runs with the same block run next to each other (absent in an adaptive plan). */
  block?: number;
  /** On the first run of a set: one arm of each of the set's groups, to deploy before it (in this order). */
  deploy?: number[];
}

/** The repetition count checked: a whole number from 1 to MAX_REPEAT. */
export function checkRepeat(repeat: number): number {
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT)
    throw new SpinlabError('user-input', `Repetitions must be a whole number from 1 to ${MAX_REPEAT}; got ${repeat}.`);
  return repeat;
}

/**
 * The sets of arms that take turns, as arm indices in first-appearance order: each group joins the first set with no
 * group of its slot yet, so groups that cannot be deployed together end up in successive sets.
 */
export function deploySets(arms: readonly OrderArm[]): number[][] {
  const groups = new Map<string, number[]>();
  arms.forEach((a, i) => groups.set(a.group, [...(groups.get(a.group) ?? []), i]));
  const sets: { slots: Set<string>; arms: number[] }[] = [];
  for (const [group, members] of groups) {
    const slot = arms[members[0]].slot ?? group;
    let set = sets.find((s) => !s.slots.has(slot));
    if (!set) sets.push((set = { slots: new Set(), arms: [] }));
    set.slots.add(slot);
    set.arms.push(...members);
  }
  return sets.map((s) => s.arms.sort((x, y) => x - y));
}

export function planOrder(arms: readonly OrderArm[], repeat: number): PlannedRun[] {
  checkRepeat(repeat);
  const runs: PlannedRun[] = [];
  let block = 0;
  for (const members of deploySets(arms)) {
    const deploy = members.filter((i, k) => members.findIndex((j) => arms[j].group === arms[i].group) === k);
    const first = runs.length;
    // The set's thread counts in the order the arms give them (first appearance).
    const counts = [...new Set(members.flatMap((i) => arms[i].threads))];
    for (let repetition = 1; repetition <= repeat; repetition++) {
      const turn = repetition % 2 === 1 ? members : [...members].reverse();
      for (const threads of counts) {
        block++;
        for (const arm of turn) if (arms[arm].threads.includes(threads)) runs.push({ arm, threads, repetition, block });
      }
    }
    if (runs.length > first) runs[first].deploy = deploy;
  }
  return runs;
}

/** The arm ids of each set that took turns, as design.interleaved records them. */
export function interleavedArms(arms: readonly OrderArm[]): string[][] {
  return deploySets(arms).map((s) => s.map((i) => arms[i].id));
}

/** A run as the experiment's design records it: `${armId}@${threads}#${repetition}`. */
export function runKey(armId: string, threads: number, repetition: number): string {
  return `${armId}@${threads}#${repetition}`;
}
