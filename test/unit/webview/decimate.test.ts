// Min/max decimation with one index set for every series of a chart.
import assert from 'node:assert/strict';
import { decimateIndices, lowerBound } from '../../../src/webview/model/decimate';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

it('few samples: every index', () => {
  assert.deepEqual(decimateIndices(range(10), 10, [range(10)], null, 10), range(10));
  assert.deepEqual(decimateIndices([], 0, [], null, 10), []);
});

it('an hour of samples becomes a few hundred, keeping every spike of every series', () => {
  const n = 3600;
  const xs = range(n);
  const a = xs.map(() => 1);
  const bb = xs.map(() => 5);
  a[1234] = 100;
  bb[2500] = -7;
  const idx = decimateIndices(xs, n, [a, bb], null, 100);
  assert.ok(idx.length <= 100 * 6 && idx.length >= 200, `${idx.length} points`);
  assert.ok(idx.includes(1234) && idx.includes(2500), 'the spike in each series is kept');
  assert.equal(idx[0], 0);
  assert.equal(idx[idx.length - 1], n - 1);
  assert.deepEqual(idx, [...idx].sort((x, y) => x - y), 'ascending');
  assert.equal(new Set(idx).size, idx.length, 'no duplicates');
});

it('a zoomed range keeps one sample either side of it', () => {
  const xs = range(1000);
  const idx = decimateIndices(xs, 1000, [xs], { min: 100.5, max: 200 }, 500);
  assert.equal(idx[0], 100);
  assert.equal(idx[idx.length - 1], 200);
  assert.equal(idx.length, 101);
});

it('only the first `length` values count (a growable column has spare capacity)', () => {
  const xs = new Float64Array([0, 1, 2, 0, 0]);
  assert.deepEqual(decimateIndices(xs, 3, [xs], null, 10), [0, 1, 2]);
  assert.equal(lowerBound(xs, 3, 1.5), 2);
  assert.equal(lowerBound(xs, 3, 9), 3);
});
