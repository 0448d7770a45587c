// The statistics of repeated runs, measured on seeded synthetic run records through the same path the views use
// (cells of repetitions, their estimates and the A/B verdict): how often a 95% interval covers the truth, how often
// equal arms are called different, how often a real difference is found. The measured rates are printed.
import assert from 'node:assert/strict';
import {
  cellEstimate,
  cellsOf,
  compareArmCells,
  compareFigures,
  estimate,
  estimateText,
  repetitionsToDetect,
  ratioVerdict,
  SINGLE_RUN,
  THROUGHPUT_WORDS,
  type CellRun,
} from '../../src/shared/repeats';
import { lognormalFactors, repeatedRuns, type TrueArm } from '../helpers/repeatedRuns';

const throughput = { value: (f: { rowsPerSec: number }) => f.rowsPerSec };
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Share of `draws` seeded experiments (arms A and B, n repetitions, cv noise) where `hit` holds. */
function rate(seed: number, draws: number, arms: TrueArm[], n: number, cv: number, hit: (runs: CellRun[]) => boolean): number {
  const factor = lognormalFactors(seed, cv);
  let hits = 0;
  for (let i = 0; i < draws; i++) if (hit(repeatedRuns(factor, arms, n))) hits++;
  return hits / draws;
}

const detected = (runs: CellRun[]) => ['higher', 'lower'].includes(compareArmCells(runs, 'A', 'B')[0].verdict.kind);
/** The same runs with no order recorded: compared unpaired (Welch), as a record before blocks would be. */
const unordered = (runs: CellRun[]) => runs.map(({ index: _i, ...r }) => r);

describe('repeated runs: intervals and verdicts on seeded synthetic records', function () {
  this.timeout(120_000);

  for (const n of [3, 5, 10]) {
    it(`the 95% interval of an arm's throughput covers the true value 93-97% of the time (${n} repetitions, 10% noise, 2,000 draws)`, () => {
      const covered = rate(100 + n, 2000, [{ id: 'A', rowsPerSec: 20_000 }], n, 0.1, (runs) => {
        const e = cellEstimate(cellsOf(runs)[0], throughput);
        return e.interval!.low <= 20_000 && 20_000 <= e.interval!.high;
      });
      console.log(`      measured coverage, ${n} repetitions: ${pct(covered)}`);
      assert.ok(covered >= 0.93 && covered <= 0.97, `coverage ${pct(covered)}`);
    });
  }

  it('the interval of the B/A ratio covers the true ratio 93-97% of the time (5 repetitions, 10% noise, 2,000 draws)', () => {
    const covered = rate(
      7,
      2000,
      [
        { id: 'A', rowsPerSec: 20_000 },
        { id: 'B', rowsPerSec: 26_000 },
      ],
      5,
      0.1,
      (runs) => {
        const r = compareArmCells(runs, 'A', 'B')[0].figures[0].ratio;
        return r.interval!.low <= 1.3 && 1.3 <= r.interval!.high;
      },
    );
    console.log(`      measured coverage of the ratio: ${pct(covered)}`);
    assert.ok(covered >= 0.93 && covered <= 0.97, `coverage ${pct(covered)}`);
  });

  it('an A/B with no true difference is called a difference at most 5% of the time (5 repetitions, 10% noise, 20,000 draws)', () => {
    const fp = rate(
      11,
      20_000,
      [
        { id: 'A', rowsPerSec: 20_000 },
        { id: 'B', rowsPerSec: 20_000 },
      ],
      5,
      0.1,
      detected,
    );
    console.log(`      measured false-difference rate: ${pct(fp)}`);
    assert.ok(fp <= 0.05, `false differences ${pct(fp)}`);
  });

  it('a 20% difference at 10% noise with 6 repetitions is detected at least 80% of the time (B 20% slower than A; 2,000 draws)', () => {
    // Paired by block (the arms alternate), the test has n - 1 degrees of freedom where Welch on unordered runs has
    // about 2n - 2: with no drift to remove, pairing costs power at few repetitions (5: 74.8% paired, 85.5% Welch),
    // the price of an interval that stays right when the server drifts (the statistics tier measures that).
    const slower5 = rate(
      13,
      2000,
      [
        { id: 'A', rowsPerSec: 20_000 },
        { id: 'B', rowsPerSec: 16_000 },
      ],
      5,
      0.1,
      detected,
    );
    const welch5 = rate(
      13,
      2000,
      [
        { id: 'A', rowsPerSec: 20_000 },
        { id: 'B', rowsPerSec: 16_000 },
      ],
      5,
      0.1,
      (runs) => detected(unordered(runs)),
    );
    const slower = rate(
      13,
      2000,
      [
        { id: 'A', rowsPerSec: 20_000 },
        { id: 'B', rowsPerSec: 16_000 },
      ],
      6,
      0.1,
      detected,
    );
    // The other reading of "20%" (B 1.2x A) is a smaller change on the log scale the noise lives on: Student's t is the
    // most powerful unbiased test here, so no method finds it 80% of the time at 5; 7 repetitions do, paired too.
    const faster5 = rate(
      17,
      2000,
      [
        { id: 'A', rowsPerSec: 20_000 },
        { id: 'B', rowsPerSec: 24_000 },
      ],
      5,
      0.1,
      detected,
    );
    const faster7 = rate(
      19,
      2000,
      [
        { id: 'A', rowsPerSec: 20_000 },
        { id: 'B', rowsPerSec: 24_000 },
      ],
      7,
      0.1,
      detected,
    );
    console.log(
      `      measured detection: B 20% slower, 5 repetitions ${pct(slower5)} (Welch on the runs unordered ${pct(welch5)}), 6 repetitions ${pct(slower)}; B 1.2x, 5 repetitions ${pct(faster5)}, 7 repetitions ${pct(faster7)}`,
    );
    assert.ok(slower >= 0.8, `B 20% slower detected ${pct(slower)}`);
    assert.ok(faster7 >= 0.8, `B 1.2x with 7 repetitions detected ${pct(faster7)}`);
  });

  it('the verdict follows from the interval: faster, slower, or no difference with the repetitions a 5% change needs', () => {
    const faster = ratioVerdict(compareFigures([100, 102, 98, 101], [112, 114, 110, 113]), THROUGHPUT_WORDS('B'));
    assert.equal(faster.kind, 'higher');
    assert.match(faster.text, /^B is faster by 12% \(95% interval \d+(\.\d)?% to \d+(\.\d)?%\)\.$/);
    const slower = ratioVerdict(compareFigures([112, 114, 110, 113], [100, 102, 98, 101]), THROUGHPUT_WORDS('B'));
    assert.equal(slower.kind, 'lower');
    assert.match(slower.text, /^B is slower by 11%/);
    const same = ratioVerdict(compareFigures([100, 110, 90], [104, 96, 101]), THROUGHPUT_WORDS('B'));
    assert.equal(same.kind, 'same');
    assert.match(
      same.text,
      /^No difference in throughput detectable at this noise \(B against A, 95% interval -\d+(\.\d)?% to \+\d+(\.\d)?%\), nor shown to be within ±5%: detecting a 5% change would take about \d+ to \d+ repetitions of each arm \(\d+ at the measured spread\); showing equivalence within ±5%, were there no change, about \d+ to \d+ repetitions \(\d+ at the measured spread\)\.$/,
    );
    assert.equal(same.repetitionsFor5Pct, repetitionsToDetect(compareFigures([100, 110, 90], [104, 96, 101]).sdLog));
    const single = ratioVerdict(compareFigures([100], [112]), THROUGHPUT_WORDS('B'));
    assert.equal(single.kind, 'single');
    assert.match(single.text, /faster by 12% \(1 run each: no interval/);
    const big = ratioVerdict(compareFigures([10, 11, 10.5], [40, 42, 41]), {
      subject: 'B',
      figure: 'LOGCACHE_ACCESS spins per row',
      higher: 'higher',
      lower: 'lower',
    });
    assert.match(big.text, /^B's LOGCACHE_ACCESS spins per row is 3\.\dx higher \(95% interval 3\.\dx to 4\.\dx\)\.$/);
  });

  it('repetitions to detect a 5% change grow with the square of the noise (67 each at 10%)', () => {
    assert.equal(repetitionsToDetect(0.1), 67);
    const at5 = repetitionsToDetect(0.05)!;
    assert.ok(at5 >= 17 && at5 <= 19, String(at5));
    assert.equal(repetitionsToDetect(null), null);
    assert.equal(repetitionsToDetect(5), null, 'past any practical number');
  });

  it('one run has no interval and says so; a figure that was 0 in a run falls back to the mean, cut at 0', () => {
    assert.deepEqual(estimate([1234]), { method: 'single', n: 1, value: 1234, interval: null, cv: null, values: [1234] });
    assert.equal(estimateText(estimate([1234])), '1,234');
    assert.equal(SINGLE_RUN, '1 run: no interval');
    const z = estimate([0, 2, 10]);
    assert.equal(z.method, 'mean');
    assert.equal(z.value, 4);
    assert.equal(z.interval!.low, 0);
    const g = estimate([10, 40]);
    assert.equal(g.method, 'gmean');
    assert.ok(Math.abs(g.value! - 20) < 1e-9);
  });

  it('a ratio with zeros on one side is a permutation interval, the same every time', () => {
    const a = [0, 3, 5, 4];
    const b = [8, 9, 7, 10];
    const r1 = compareFigures(a, b);
    const r2 = compareFigures(a, b);
    assert.equal(r1.method, 'rank');
    assert.deepEqual(r1, r2);
    // 4 against 4: the smallest two-sided p of an exact permutation test is 2/70, so a clear shift can be shown.
    assert.ok(r1.interval!.low > 1, JSON.stringify(r1.interval));
    assert.ok(r1.p! < 0.05);
  });

  it('one non-zero run against zeros is no certainty: the interval stays open, never [0, 0]', () => {
    const r = compareFigures([3.1e-6, 0, 0], [0, 0, 0]);
    assert.equal(r.method, 'rank');
    assert.equal(r.ratio, 0);
    assert.deepEqual(r.interval, { low: 0, high: Infinity });
    assert.equal(r.p, 1);
    const v = ratioVerdict(r, { subject: 'B', figure: 'X spins per row', higher: 'higher', lower: 'lower' });
    assert.equal(v.kind, 'same');
    assert.match(v.text, /unbounded \(too few runs measured it to bound the ratio\)/);
    assert.doesNotMatch(v.text, /down to 0/);
  });

  it('3 runs a side of a figure with zeros can never be called different (smallest exact p is 2/20)', () => {
    const r = compareFigures([0, 1, 2], [50, 60, 70]);
    assert.equal(r.method, 'rank');
    assert.ok(Math.abs(r.p! - 0.1) < 1e-12, String(r.p));
    assert.ok(r.interval!.low <= 1);
  });

  it("an old record's runs (no repetition field) are cells of one run each: no interval", () => {
    const runs = repeatedRuns(
      () => 1,
      [
        { id: 'A', rowsPerSec: 1000 },
        { id: 'B', rowsPerSec: 1100 },
      ],
      1,
    ).map(({ repetition: _r, ...x }) => x);
    const [c] = compareArmCells(runs, 'A', 'B');
    assert.equal(c.figures[0].a.method, 'single');
    assert.equal(c.verdict.kind, 'single');
  });
});
