// --repeat auto in the run loop (engine/sequentialStop.ts): whole repetitions of a group of arms, looked at after the
// last run of each; a decided group stops (its later runs skipped and dropped from the design's sequence, which stays
// the runs that ran), an undecided one runs to the maximum, and the design says which and why.
import assert from 'node:assert/strict';
import { planOrder, runKey } from '../../src/engine/planOrder';
import { sequentialStops } from '../../src/engine/sequentialStop';
import type { ExperimentDesign, RunRecord } from '../../src/shared/experiment';

// Two deploys of one scenario (one slot) replace each other, so their groups run one after the other; deploys of
// two scenarios (two slots) stay together and take turns (planOrder.ts).
function drive(decidedAfter: Record<string, number>, max = 5, slots: [string, string] = ['disk-insert', 'disk-insert']) {
  const arms = [
    { id: 'a', threads: [2], group: 'g1', slot: slots[0] },
    { id: 'b', threads: [2], group: 'g1', slot: slots[0] },
    { id: 'c', threads: [2], group: 'g2', slot: slots[1] },
  ];
  const order = planOrder(arms, max);
  const design: ExperimentDesign = {
    repeat: max,
    order: 'alternating',
    sequence: order.map((r) => runKey(arms[r.arm].id, r.threads, r.repetition)),
  };
  const notes: string[] = [];
  const runs: RunRecord[] = [];
  const stops = sequentialStops(
    // Decided once every arm of the group has run `decidedAfter[group]` repetitions.
    {
      firstLook: 2,
      decided: (rs, ids) => ids.every((id) => rs.filter((r) => r.arm.id === id).length >= decidedAfter[ids[0] === 'c' ? 'g2' : 'g1']),
    },
    arms,
    arms.map((a) => a.group),
    design,
    (m) => notes.push(m),
  );
  for (const p of stops.planned(order, () => runs))
    runs.push({ arm: { id: arms[p.arm].id }, repetition: p.repetition, status: 'completed' } as RunRecord);
  stops.finish(runs);
  return { runs: runs.map((r) => `${r.arm.id}#${r.repetition}`), design, notes };
}

describe('--repeat auto in the run loop', () => {
  it('stops a group once its gates are decided, runs the other to the maximum, and records both', () => {
    const { runs, design, notes } = drive({ g1: 3, g2: 99 });
    assert.deepEqual(runs, ['a#1', 'b#1', 'b#2', 'a#2', 'a#3', 'b#3', 'c#1', 'c#2', 'c#3', 'c#4', 'c#5']);
    assert.deepEqual(design.sequence, ['a@2#1', 'b@2#1', 'b@2#2', 'a@2#2', 'a@2#3', 'b@2#3', 'c@2#1', 'c@2#2', 'c@2#3', 'c@2#4', 'c@2#5']);
    assert.deepEqual(design.sequential, {
      maxRepeat: 5,
      firstLook: 2,
      spending: 'lan-demets-obrien-fleming',
      stops: [
        { arms: ['a', 'b'], repetitions: 3, reason: 'decided' },
        { arms: ['c'], repetitions: 5, reason: 'max' },
      ],
    });
    assert.equal(design.repeat, 5);
    assert.deepEqual(notes, [
      'Every gate on a, b was decided at repetition 3 of at most 5.',
      'A gate on c is still undecided after the most repetitions (5).',
    ]);
  });

  it("the design's count is the repetitions that ran when every group stopped early", () => {
    const { runs, design } = drive({ g1: 2, g2: 1 });
    assert.deepEqual(runs, ['a#1', 'b#1', 'b#2', 'a#2', 'c#1']);
    assert.equal(design.repeat, 2);
  });

  it('groups that take turns in one set: a decided group drops out of the turns, the other keeps repeating', () => {
    const { runs, design } = drive({ g1: 3, g2: 99 }, 5, ['disk-insert', 'inmem-insert']);
    assert.deepEqual(runs, ['a#1', 'b#1', 'c#1', 'c#2', 'b#2', 'a#2', 'a#3', 'b#3', 'c#3', 'c#4', 'c#5']);
    assert.deepEqual(design.sequential!.stops, [
      { arms: ['a', 'b'], repetitions: 3, reason: 'decided' },
      { arms: ['c'], repetitions: 5, reason: 'max' },
    ]);
  });
});
