import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LatencyRecorder, mergeSummaries } from '../../src/engine/histogram';

const close = (actual: number | null, expected: number, rel = 0.001) =>
  assert.ok(
    actual !== null && Math.abs(actual - expected) <= Math.max(1, expected * rel),
    `${actual} is not within ${rel * 100}% of ${expected}`,
  );

it('percentiles in µs from recorded calls', () => {
  const r = new LatencyRecorder();
  for (let i = 1; i <= 1000; i++) r.record(i * 10); // 10 µs .. 10 ms
  const s = r.summary();
  assert.equal(s.count, 1000);
  close(s.p50Us, 5000);
  close(s.p90Us, 9000);
  close(s.p99Us, 9900);
  close(s.p999Us, 9990);
  close(s.maxUs, 10_000);
  close(s.meanUs, 5005);
  assert.equal(s.histogram, undefined);
});

it('an empty recorder summarises to nulls: no call is no latency, neither 0 nor NaN', () => {
  assert.deepEqual(new LatencyRecorder().summary(), {
    count: 0,
    meanUs: null,
    p50Us: null,
    p90Us: null,
    p99Us: null,
    p999Us: null,
    maxUs: null,
  });
});

it('odd inputs: sub-µs counts as 1 µs, huge values clamp, negative/NaN are ignored', () => {
  const r = new LatencyRecorder();
  r.record(0.2);
  r.record(Number.NaN);
  r.record(-5);
  r.record(1e13);
  assert.equal(r.count, 2);
  assert.equal(r.clampedCount, 1);
  close(r.summary().maxUs, 3_600_000_000);
});

it('recordSince measures from an hrtime start', async () => {
  const r = new LatencyRecorder();
  const t0 = process.hrtime.bigint();
  await new Promise((res) => setTimeout(res, 20));
  r.recordSince(t0);
  assert.ok(r.summary().p50Us! >= 15_000, String(r.summary().p50Us));
});

it('merging sessions equals recording everything in one recorder', () => {
  const a = new LatencyRecorder();
  const b = new LatencyRecorder();
  const all = new LatencyRecorder();
  for (let i = 0; i < 500; i++) {
    a.record(100 + i);
    all.record(100 + i);
    b.record(50_000 + i * 7);
    all.record(50_000 + i * 7);
  }
  assert.deepEqual(new LatencyRecorder().merge(a).merge(b).summary(), all.summary());
  // ... and through the encoded form, as a stored experiment would.
  const merged = mergeSummaries([a.summary({ keepHistogram: true }), b.summary({ keepHistogram: true })]);
  assert.ok(merged && merged.histogram);
  // The encoded form keeps 3 significant digits: the maximum comes back as the top of its bucket.
  const exact = all.summary();
  assert.equal(merged!.count, exact.count);
  for (const k of ['meanUs', 'p50Us', 'p90Us', 'p99Us', 'p999Us', 'maxUs'] as const) close(merged![k], exact[k]!);
  const again = LatencyRecorder.decode(a.encode()).summary();
  assert.equal(again.count, a.count);
  close(again.maxUs, a.summary().maxUs!);
  assert.equal(mergeSummaries([a.summary()]), null, 'percentiles alone cannot be merged');
  assert.throws(() => LatencyRecorder.decode('bm90IGEgaGlzdG9ncmFt'), /not an encoded latency histogram/);
});

it('reset empties the recorder', () => {
  const r = new LatencyRecorder();
  r.record(5);
  r.reset();
  assert.equal(r.count, 0);
});

it('property: percentiles are ordered and within 0.1% of the true values', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 300 }), (values) => {
      const r = new LatencyRecorder();
      for (const v of values) r.record(v);
      const s = r.summary();
      assert.equal(s.count, values.length);
      assert.ok(s.p50Us! <= s.p90Us! && s.p90Us! <= s.p99Us! && s.p99Us! <= s.p999Us! && s.p999Us! <= s.maxUs!);
      const max = Math.max(...values);
      close(s.maxUs, max);
      const sorted = [...values].sort((x, y) => x - y);
      close(s.p50Us, sorted[Math.ceil(0.5 * sorted.length) - 1]);
    }),
  );
});
