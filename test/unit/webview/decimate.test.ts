// Min/max decimation with one index set for every series of a chart.
import assert from 'node:assert/strict';
import { decimateIndices, lowerBound, MinMaxBuckets } from '../../../src/webview/model/decimate';
import { SeriesSet } from '../../../src/webview/model/series';

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
  assert.deepEqual(
    idx,
    [...idx].sort((x, y) => x - y),
    'ascending',
  );
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

describe('MinMaxBuckets: the live view kept as samples arrive', () => {
  /** Checks every bucket against the samples it covers, computed from scratch. */
  const checkExact = (bk: MinMaxBuckets, xs: number[], cols: number[][]) => {
    assert.equal(bk.samples, xs.length);
    assert.ok(bk.count <= bk.maxBuckets, `${bk.count} buckets`);
    assert.equal(bk.count, Math.ceil(xs.length / bk.width));
    for (let bi = 0; bi < bk.count; bi++) {
      const lo = bi * bk.width;
      const hi = Math.min(xs.length, lo + bk.width);
      for (let c = 0; c < cols.length; c++) {
        const got = bk.bucket(bi, c);
        const part = cols[c].slice(lo, hi);
        assert.deepEqual(
          got,
          { xFirst: xs[lo], xLast: xs[hi - 1], samples: hi - lo, min: Math.min(...part), max: Math.max(...part) },
          `bucket ${bi} column ${c}`,
        );
      }
    }
  };

  it("keeps each bucket's min and max exact on every append, through every width doubling", () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const bk = new MinMaxBuckets(8);
    bk.addColumn();
    bk.addColumn();
    const xs: number[] = [];
    const cols: number[][] = [[], []];
    const widths = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const v = [Math.round(rnd() * 1000) - 500, rnd() < 0.05 ? 1e6 : rnd()];
      xs.push(i * 0.25);
      cols[0].push(v[0]);
      cols[1].push(v[1]);
      bk.append(i * 0.25, v);
      checkExact(bk, xs, cols);
      widths.add(bk.width);
    }
    assert.deepEqual([...widths], [1, 2, 4, 8, 16, 32, 64], 'the width doubled six times');
  });

  it('a doubling keeps every min and max: the merged bucket holds the extremes of both halves', () => {
    const bk = new MinMaxBuckets(4);
    bk.addColumn();
    for (const [x, v] of [
      [1, 5],
      [2, -3],
      [3, 9],
      [4, 0],
    ])
      bk.append(x, [v]);
    assert.equal(bk.width, 1);
    const generation = bk.generation;
    bk.append(5, [2]);
    assert.equal(bk.width, 2);
    assert.ok(bk.generation > generation, 'a merge tells a consumer holding points to rebuild them');
    assert.deepEqual(bk.bucket(0, 0), { xFirst: 1, xLast: 2, samples: 2, min: -3, max: 5 });
    assert.deepEqual(bk.bucket(1, 0), { xFirst: 3, xLast: 4, samples: 2, min: 0, max: 9 });
    assert.deepEqual(bk.bucket(2, 0), { xFirst: 5, xLast: 5, samples: 1, min: 2, max: 2 });
  });

  it("points: one per sample at width 1, then each bucket's min and max in time order, the same xs for every column", () => {
    const bk = new MinMaxBuckets(2);
    bk.addColumn();
    bk.append(1, [4]);
    bk.append(2, [1]);
    const out: { x: number; y: number }[] = [];
    bk.writePoints(0, 0, out);
    assert.deepEqual(out, [
      { x: 1, y: 4 },
      { x: 2, y: 1 },
    ]);
    bk.addColumn();
    bk.append(3, [7, 3]);
    bk.append(4, [0, 5]);
    bk.writePoints(0, 0, out);
    assert.deepEqual(
      out,
      [
        { x: 1, y: 4 },
        { x: 2, y: 1 },
        { x: 3, y: 7 },
        { x: 4, y: 0 },
      ],
      'the max came first in both buckets',
    );
    const late: { x: number; y: number }[] = [];
    bk.writePoints(1, 0, late);
    assert.deepEqual(
      late,
      [
        { x: 1, y: 0 },
        { x: 2, y: 0 },
        { x: 3, y: 3 },
        { x: 4, y: 5 },
      ],
      'a column added late counts 0 before it; here the min came first',
    );
    const kept = out[0];
    out[3].y = -1;
    bk.writePoints(0, 1, out);
    assert.equal(out[0], kept, 'buckets before `from` are left alone');
    assert.deepEqual(out[3], { x: 4, y: 0 }, 'buckets from `from` on are rewritten');
  });

  it('fill() leaves what appending every sample leaves: width, buckets, extremes, and which tie it drew', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const n of [1, 7, 8, 9, 16, 17, 100, 301]) {
      const one = new MinMaxBuckets(8);
      const all = new MinMaxBuckets(8);
      const cols: number[][] = [[], [], []];
      const xs: number[] = [];
      for (let c = 0; c < cols.length; c++) {
        one.addColumn();
        all.addColumn();
      }
      for (let i = 0; i < n; i++) {
        // Few distinct values (ties in every bucket), negatives, and a spike now and then.
        const v = [Math.round(rnd() * 4) - 2, rnd() < 0.05 ? 1e6 : Math.round(rnd() * 3), 0];
        xs.push(i * 0.5);
        v.forEach((x, c) => cols[c].push(x));
        one.append(i * 0.5, v);
      }
      all.fill(xs, n, cols);
      const state = (bk: MinMaxBuckets) => {
        const points = [0, 1, 2].map((c) => {
          const out: { x: number; y: number }[] = [];
          bk.writePoints(c, 0, out);
          return out;
        });
        return { width: bk.width, count: bk.count, samples: bk.samples, generation: bk.generation, points };
      };
      assert.deepEqual(state(all), state(one), `${n} samples`);
      checkExact(all, xs, cols);
    }
  });

  it('SeriesSet feeds its buckets, and a new bucket count rebuilds them exactly from the full-resolution columns', () => {
    const s = new SeriesSet({ maxShown: 3, maxBuckets: 16 });
    const xs: number[] = [];
    const a: number[] = [];
    const c: number[] = [];
    for (let i = 0; i < 100; i++) {
      const sample: Record<string, number> = { a: (i * 37) % 11 };
      if (i >= 40) sample.c = (i * 13) % 7;
      s.append(i, sample);
      xs.push(i);
      a.push(sample.a);
      c.push(sample.c ?? 0);
    }
    const ia = s.bucketColumn('a') as number;
    const ic = s.bucketColumn('c') as number;
    const byIndex: number[][] = [];
    byIndex[ia] = a;
    byIndex[ic] = c;
    checkExact(s.buckets, xs, byIndex);
    s.setMaxBuckets(6);
    assert.equal(s.buckets.maxBuckets, 6);
    checkExact(s.buckets, xs, byIndex);
  });
});
