// A fleet's servers start spread across their interval, so their ticks do not all fall in the same millisecond.
import assert from 'node:assert/strict';
import { staggerMs } from '../../src/cli/fleetWatch';

describe('spinlab watch --servers: staggered starts', () => {
  it('spreads n servers evenly over the interval, at most 1 s, and one server starts at once', () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => staggerMs(i, 4, 1000)),
      [0, 250, 500, 750],
    );
    assert.deepEqual(
      [0, 1].map((i) => staggerMs(i, 2, 10_000)),
      [0, 500],
    );
    assert.equal(staggerMs(0, 1, 1000), 0);
    const fifty = Array.from({ length: 50 }, (_, i) => staggerMs(i, 50, 1000));
    assert.equal(new Set(fifty).size, 50);
    assert.ok(Math.max(...fifty) < 1000);
  });
});
