// The order an experiment's runs go in. Arms that deploy the same thing form a group (kept in first-appearance order),
// so each group deploys once. Within a group, each repetition runs every thread count in turn, and at each count the
// group's arms take turns: forward in odd-numbered repetitions, reversed in even ones (A B, B A, A B ...). Drift over
// the experiment (a growing log, a checkpoint, the time of day) then falls on every arm alike, and no arm always runs
// first after a deploy or a knob change.
import { SpinlabError } from './errors';
import { MAX_REPEAT } from '../shared/planTime';

export interface OrderArm {
  id: string;
  threads: readonly number[];
  /** What the arm deploys: arms with the same group share a deploy. */
  group: string;
}

export interface PlannedRun {
  /** Index of the arm in the list given. */
  arm: number;
  threads: number;
  /** From 1. */
  repetition: number;
}

/** The repetition count checked: a whole number from 1 to MAX_REPEAT. */
export function checkRepeat(repeat: number): number {
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT)
    throw new SpinlabError('user-input', `Repetitions must be a whole number from 1 to ${MAX_REPEAT}; got ${repeat}.`);
  return repeat;
}

export function planOrder(arms: readonly OrderArm[], repeat: number): PlannedRun[] {
  checkRepeat(repeat);
  const groups = new Map<string, number[]>();
  arms.forEach((a, i) => groups.set(a.group, [...(groups.get(a.group) ?? []), i]));
  const runs: PlannedRun[] = [];
  for (const members of groups.values()) {
    // The group's thread counts in the order the arms give them (first appearance).
    const counts = [...new Set(members.flatMap((i) => arms[i].threads))];
    for (let repetition = 1; repetition <= repeat; repetition++) {
      const turn = repetition % 2 === 1 ? members : [...members].reverse();
      for (const threads of counts) {
        for (const arm of turn) if (arms[arm].threads.includes(threads)) runs.push({ arm, threads, repetition });
      }
    }
  }
  return runs;
}

/** A run as the experiment's design records it: `${armId}@${threads}#${repetition}`. */
export function runKey(armId: string, threads: number, repetition: number): string {
  return `${armId}@${threads}#${repetition}`;
}
