// Axis bounds held with headroom (views/chartBounds.ts): most live ticks keep the same bounds, so they skip chart.js's
// full update.
import assert from 'node:assert/strict';
import { boundsOf, niceCeil, sameBounds, xHeadroom } from '../../../src/webview/views/chartBounds';

const line = (ys: number[], x0 = 1, extra: { hidden?: boolean; yAxisID?: string } = {}) => ({
  data: ys.map((y, i) => ({ x: x0 + i, y })),
  ...extra,
});

describe('chart bounds with headroom', () => {
  it('niceCeil rounds up to 1, 2, 2.5 or 5 times a power of ten', () => {
    assert.deepEqual([0.7, 1, 1.2, 2.2, 3, 7, 10, 4321, 0].map(niceCeil), [1, 1, 2, 2.5, 5, 10, 10, 5000, 1]);
  });

  it('xHeadroom rounds the last x up to a step of at least 1% of the span', () => {
    assert.equal(xHeadroom(1, 5), 10);
    assert.equal(xHeadroom(1, 3601), 3660);
    assert.equal(xHeadroom(1, 28_801), 29_100);
  });

  it('a live chart keeps its bounds while points stay under them, and gets new ones when a point passes them', () => {
    const a = boundsOf([line([1, 2, 3]), line([4, 90])], true);
    assert.deepEqual(a, { xMin: 1, xMax: 10, y: 100, y1: null });
    assert.ok(sameBounds(a, boundsOf([line([1, 2, 3, 4]), line([4, 90, 95])], true)), 'one more point under both bounds');
    assert.ok(!sameBounds(a, boundsOf([line([1, 2, 3]), line([4, 90, 120])], true)), 'a point above the y max');
    assert.ok(!sameBounds(a, boundsOf([line(new Array(11).fill(1))], true)), 'a point past the x max');
  });

  it('a finished chart ends at its last point; hidden series do not count; the right axis has its own max', () => {
    assert.equal(boundsOf([line([1, 2, 3])], false)?.xMax, 3);
    assert.equal(boundsOf([line([1, 2]), line([500], 1, { hidden: true })], true)?.y, 2.5);
    assert.deepEqual(boundsOf([line([1, 2]), line([30], 1, { yAxisID: 'y1' })], true), { xMin: 1, xMax: 10, y: 2.5, y1: 50 });
  });

  it('no bounds (the axes fit the data) for a point below zero or no points', () => {
    assert.equal(boundsOf([line([1, -2])], true), null);
    assert.equal(boundsOf([line([])], true), null);
  });
});
