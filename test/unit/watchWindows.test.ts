// Two windows of a watch as the panel asks for them: from the start, a mark or a time, to a mark, a time or now;
// the ticks each holds (the tick a mark falls in belongs to neither side), in words, and what is wrong with one.
import assert from 'node:assert/strict';
import { describeWindow, inRange, resolveWindow, watchCompareSchema, type WatchWindow } from '../../src/shared/watchWindows';
import type { WatchMark } from '../../src/shared/watch';

const marks: WatchMark[] = [
  { id: 'm1', name: 'index rebuilt', t: 5000, at: '' },
  { id: 'm2', name: 'affinity changed', t: 9000, at: '' },
];
const ends = Array.from({ length: 12 }, (_, i) => (i + 1) * 1000);
const held = (w: WatchWindow) => {
  const r = resolveWindow('Window A', w, marks);
  if ('error' in r) throw new Error(r.error);
  return ends.filter((t) => inRange(r.range, t));
};

describe('watch windows (panel compare)', () => {
  it("mark to mark leaves out both marks' ticks; start and now are open; times hold the ticks that end inside", () => {
    assert.deepEqual(held({ from: { kind: 'mark', id: 'm1' }, to: { kind: 'mark', id: 'm2' } }), [6000, 7000, 8000]);
    assert.deepEqual(held({ from: { kind: 'start' }, to: { kind: 'mark', id: 'm1' } }), [1000, 2000, 3000, 4000]);
    assert.deepEqual(held({ from: { kind: 'mark', id: 'm2' }, to: { kind: 'now' } }), [10000, 11000, 12000]);
    assert.deepEqual(held({ from: { kind: 'time', t: 2500 }, to: { kind: 'time', t: 5000 } }), [3000, 4000, 5000]);
  });

  it('says each window in words', () => {
    assert.equal(
      describeWindow({ from: { kind: 'start' }, to: { kind: 'mark', id: 'm1' } }, marks),
      'from the start to "index rebuilt" (5.0 s)',
    );
    assert.equal(describeWindow({ from: { kind: 'time', t: 12_500 }, to: { kind: 'now' } }, marks), 'from 12.5 s to now');
  });

  it('refuses an end before the start and a mark the watch lacks, saying what to do', () => {
    const r = resolveWindow('Window B', { from: { kind: 'mark', id: 'm2' }, to: { kind: 'mark', id: 'm1' } }, marks);
    assert.ok('error' in r && /Window B ends \(5\.0 s\) before it starts \(9\.0 s\): pick an end after its start/.test(r.error));
    const m = resolveWindow('Window A', { from: { kind: 'mark', id: 'nope' }, to: { kind: 'now' } }, marks);
    assert.ok('error' in m && /a mark this watch does not have/.test(m.error));
  });

  it('the message schema takes the three kinds of each end and nothing else', () => {
    const ok = {
      watchId: 'w',
      a: { from: { kind: 'start' }, to: { kind: 'now' } },
      b: { from: { kind: 'time', t: 1000 }, to: { kind: 'mark', id: 'm1' } },
    };
    assert.ok(watchCompareSchema.safeParse(ok).success);
    assert.ok(!watchCompareSchema.safeParse({ ...ok, a: { from: { kind: 'now' }, to: { kind: 'now' } } }).success, 'now is not a start');
    assert.ok(
      !watchCompareSchema.safeParse({ ...ok, b: { from: { kind: 'time', t: -1 }, to: { kind: 'now' } } }).success,
      'no negative time',
    );
  });
});
