// The order of an experiment's runs (engine/planOrder.ts): arms that share a deploy take turns within each repetition,
// forward then reversed, each thread count in turn; so do groups whose deploys coexist in the lab database (different
// scenarios), all deployed first; groups that replace each other's deploy follow, each deploying once.
// And how many runs that makes and how long they take, said before the experiment starts (shared/planTime.ts).
import assert from 'node:assert/strict';
import { checkRepeat, interleavedArms, planOrder, runKey, type OrderArm } from '../../src/engine/planOrder';
import { parseRepeat, planTime, repeatOf } from '../../src/shared/planTime';

/** The plan as design.sequence writes it. */
function order(arms: OrderArm[], repeat: number): string[] {
  return planOrder(arms, repeat).map((r) => runKey(arms[r.arm].id, r.threads, r.repetition));
}
const arm = (id: string, threads: number[], group = 'g', slot?: string): OrderArm => ({ id, threads, group, ...(slot ? { slot } : {}) });

describe('planOrder', () => {
  it('one arm: its thread counts in the order given, once per repetition (repeat 1 is the order runs always had)', () => {
    assert.deepEqual(order([arm('main', [4, 1, 2])], 1), ['main@4#1', 'main@1#1', 'main@2#1']);
    assert.deepEqual(order([arm('main', [1, 2])], 3), ['main@1#1', 'main@2#1', 'main@1#2', 'main@2#2', 'main@1#3', 'main@2#3']);
  });

  it('two arms: A B, then B A, then A B (ABBA), at each thread count in turn', () => {
    assert.deepEqual(order([arm('a', [2]), arm('b', [2])], 4), ['a@2#1', 'b@2#1', 'b@2#2', 'a@2#2', 'a@2#3', 'b@2#3', 'b@2#4', 'a@2#4']);
    assert.deepEqual(order([arm('a', [1, 4]), arm('b', [1, 4])], 2), [
      'a@1#1',
      'b@1#1',
      'a@4#1',
      'b@4#1',
      'b@1#2',
      'a@1#2',
      'b@4#2',
      'a@4#2',
    ]);
  });

  it('three arms: forward, reversed, forward', () => {
    assert.deepEqual(order([arm('a', [8]), arm('b', [8]), arm('c', [8])], 3), [
      'a@8#1',
      'b@8#1',
      'c@8#1',
      'c@8#2',
      'b@8#2',
      'a@8#2',
      'a@8#3',
      'b@8#3',
      'c@8#3',
    ]);
  });

  it('deploy groups of one slot (one scenario, other deploy values) cannot coexist: each group runs whole, one block apart', () => {
    const arms = [
      arm('seed-a', [2], 'seed-1', 'disk-insert'),
      arm('seed-b', [2], 'seed-2', 'disk-insert'),
      arm('seed-a2', [2], 'seed-1', 'disk-insert'),
    ];
    assert.deepEqual(order(arms, 2), ['seed-a@2#1', 'seed-a2@2#1', 'seed-a2@2#2', 'seed-a@2#2', 'seed-b@2#1', 'seed-b@2#2']);
    const runs = planOrder(arms, 2);
    // seed-a and seed-b never share a block: the record says they were not interleaved.
    assert.deepEqual(
      runs.map((r) => r.block),
      [1, 1, 2, 2, 3, 4],
    );
    assert.deepEqual(interleavedArms(arms), [['seed-a', 'seed-a2'], ['seed-b']]);
    // Each set deploys before its first run (the second set replaces the first's objects).
    assert.deepEqual(
      runs.map((r) => r.deploy),
      [[0], undefined, undefined, undefined, [1], undefined],
    );
  });

  it('deploy groups of different slots (scenarios) coexist: all deploy first, then their arms take turns (A B, B A)', () => {
    const arms = [arm('disk', [2, 4], 'disk-g', 'disk-insert'), arm('mem', [2, 4], 'mem-g', 'inmem-insert')];
    assert.deepEqual(order(arms, 2), ['disk@2#1', 'mem@2#1', 'disk@4#1', 'mem@4#1', 'mem@2#2', 'disk@2#2', 'mem@4#2', 'disk@4#2']);
    const runs = planOrder(arms, 2);
    assert.deepEqual(
      runs.map((r) => r.block),
      [1, 1, 2, 2, 3, 3, 4, 4],
    );
    assert.deepEqual(runs[0].deploy, [0, 1]);
    assert.ok(runs.slice(1).every((r) => r.deploy === undefined));
    assert.deepEqual(interleavedArms(arms), [['disk', 'mem']]);
  });

  it('mixed: a scenario deployed twice and another once: the other joins the first set, the second deploy runs after', () => {
    const arms = [
      arm('ring-disk', [2], 'ring-disk-g', 'ring-buffer'),
      arm('ring-mem', [2], 'ring-mem-g', 'ring-buffer'),
      arm('disk', [2], 'disk-g', 'disk-insert'),
    ];
    assert.deepEqual(order(arms, 2), ['ring-disk@2#1', 'disk@2#1', 'disk@2#2', 'ring-disk@2#2', 'ring-mem@2#1', 'ring-mem@2#2']);
    assert.deepEqual(interleavedArms(arms), [['ring-disk', 'disk'], ['ring-mem']]);
    assert.deepEqual(planOrder(arms, 2)[0].deploy, [0, 2]);
  });

  it("arms with different thread lists: the group's counts in first-appearance order, an arm skipped at a count it does not list", () => {
    const arms = [arm('a', [1, 4]), arm('b', [2, 4]), arm('one-socket', [4])];
    assert.deepEqual(order(arms, 2), [
      'a@1#1',
      'a@4#1',
      'b@4#1',
      'one-socket@4#1',
      'b@2#1',
      'a@1#2',
      'one-socket@4#2',
      'b@4#2',
      'a@4#2',
      'b@2#2',
    ]);
    // Every cell runs exactly `repeat` times.
    const runs = planOrder(arms, 5);
    assert.equal(runs.length, (2 + 2 + 1) * 5);
    for (const [i, a] of arms.entries())
      for (const t of a.threads)
        assert.deepEqual(
          runs.filter((r) => r.arm === i && r.threads === t).map((r) => r.repetition),
          [1, 2, 3, 4, 5],
        );
  });

  it('refuses a repetition count that is not a whole number from 1 to 100', () => {
    for (const bad of [0, -1, 1.5, 101, NaN]) assert.throws(() => checkRepeat(bad), /whole number from 1 to 100/);
    assert.equal(checkRepeat(100), 100);
    assert.throws(() => planOrder([arm('a', [1])], 0), /Repetitions/);
  });
});

describe('planTime', () => {
  const load = { durationMs: 30_000, rows: null, warmupMs: 5000 };

  it('says the runs and the time before an experiment starts: arms x thread counts x repetitions', () => {
    const t = planTime([{ threads: [1, 2] }, { threads: [1, 2] }], load, 3);
    assert.equal(t.runs, 12);
    assert.equal(t.seconds, 12 * 35);
    assert.equal(
      t.text,
      '12 runs (2 arms x 2 thread counts x 3 repetitions): about 7 min (30 s measured + 5 s warm-up each, plus deploys)',
    );
  });

  it('one arm, no warm-up, no deploy; arms with different thread lists; seconds and hours', () => {
    assert.equal(
      planTime([{ threads: [1, 2, 4] }], { durationMs: 2000, rows: null, warmupMs: 0 }, 1, false).text,
      '3 runs (3 thread counts x 1 repetition): about 6 s (2 s measured each)',
    );
    const mixed = planTime([{ threads: [1, 4] }, { threads: [4] }], load, 2);
    assert.equal(mixed.runs, 6);
    assert.match(mixed.text, /^6 runs \(3 arm and thread count pairs x 2 repetitions\): about 4 min/);
    assert.match(
      planTime([{ threads: [1, 2, 4, 8] }], { durationMs: 300_000, rows: null, warmupMs: 60_000 }, 5).text,
      /about 2 h$|about 2 h \(/,
    );
    assert.match(planTime([{ threads: [1] }], { durationMs: 1500, rows: null, warmupMs: 0 }, 1).text, /\(1.5 s measured each/);
  });

  it('runs that end on a row count or a call count: the count, and no time', () => {
    const rows = planTime(
      [{ threads: [10] }, { threads: [10] }, { threads: [10] }, { threads: [10] }],
      { ...load, durationMs: null, rows: 20_000_000 },
      3,
    );
    assert.deepEqual([rows.runs, rows.seconds], [12, null]);
    assert.equal(
      rows.text,
      "12 runs (4 arms x 1 thread count x 3 repetitions) of 20M rows after 5 s warm-up each: the time depends on the server's throughput",
    );
    const calls = planTime([{ threads: [2] }], { durationMs: null, rows: null, warmupMs: 0 }, 2, false);
    assert.equal(
      calls.text,
      "2 runs (1 thread count x 2 repetitions) of a fixed number of calls per session each: the time depends on the server's throughput",
    );
  });

  it('parseRepeat takes 1 to 100 as typed; repeatOf reads a record (1 when it has no design)', () => {
    assert.equal(parseRepeat(' 3 '), 3);
    for (const bad of ['0', '101', '2.5', 'three', '-1', '']) assert.throws(() => parseRepeat(bad), /whole number from 1 to 100/);
    assert.equal(repeatOf({}), 1);
    assert.equal(repeatOf({ design: null }), 1);
    assert.equal(repeatOf({ design: { repeat: 4 } }), 4);
  });
});
