// Equivalence gates ("rows_per_sec within 5% of baseline", "p99 ~= 5ms ± 10%"): parsed with a clear error for malformed
// text, and judged by two one-sided tests: pass when the 90% interval lies inside the band VALUE/1.05..VALUE*1.05,
// fail when it lies wholly outside, inconclusive otherwise.
import assert from 'node:assert/strict';
import { evaluateGates, GateError, parseGate } from '../../src/shared/gates';
import { decide, settleFigure, upperSd } from '../../src/shared/gateDecision';
import { estimate } from '../../src/shared/repeats';
import type { RunRecord } from '../../src/shared/experiment';
import { runRecord } from '../helpers/builders';

function cell(rates: number[]): RunRecord[] {
  return rates.map((rate, i) => {
    const r = runRecord(i, 8);
    r.repetition = i + 1;
    r.derived = { ...r.derived, rowsPerSec: rate };
    return r;
  });
}
const judge = (gate: string, runs: RunRecord[], baseline: RunRecord[] | null = null) => evaluateGates([parseGate(gate)], runs, baseline)[0];
const BASE = [24000, 24300, 23800, 24100, 24200];

describe('equivalence gates: parsing', () => {
  it('reads "within N% of VALUE" and "~= VALUE ± N%" (also +- and +/-), against the baseline or a number with its unit', () => {
    assert.deepEqual(parseGate('rows_per_sec within 5% of baseline'), {
      text: 'rows_per_sec within 5% of baseline',
      metric: { kind: 'rate', stat: 'rows_per_sec' },
      op: '~=',
      value: 1,
      against: 'baseline',
      margin: 0.05,
    });
    for (const t of ['rows_per_sec ~= baseline ± 5%', 'rows_per_sec~=baseline+-5%', 'rows_per_sec ~= baseline +/- 5%'])
      assert.deepEqual({ ...parseGate(t), text: '' }, { ...parseGate('rows_per_sec within 5% of baseline'), text: '' }, t);
    const p99 = parseGate('p99 ~= 5ms ± 10%');
    assert.deepEqual([p99.metric, p99.value, p99.margin, p99.against], [{ kind: 'latency', stat: 'p99' }, 5000, 0.1, undefined]);
    assert.equal(parseGate('rows_per_sec within 2.5% of 20k').value, 20000);
    assert.equal(parseGate('LOGCACHE_ACCESS.spins_per_row WITHIN 10% OF baseline').margin, 0.1);
  });

  it('refuses malformed equivalences with what to write', () => {
    for (const [text, why] of [
      ['rows_per_sec ~= baseline', /an equivalence needs its margin .* e\.g\. "rows_per_sec ~= baseline ± 5%"/],
      ['rows_per_sec ~= 20000', /an equivalence needs its margin/],
      ['rows_per_sec within 5 of baseline', /not an equivalence gate; write METRIC within N% of VALUE/],
      ['rows_per_sec within 5% baseline', /not an equivalence gate/],
      ['rows_per_sec within 0% of baseline', /the margin must be a percentage above 0 and at most 100/],
      ['rows_per_sec within 150% of baseline', /the margin must be a percentage above 0/],
      ['errors within 5% of 0', /judged run by run against a number/],
      ['p99 within 5% of 5', /a latency needs a unit/],
      ['rows_per_sec within 5% of 0', /needs a value above 0/],
      ['rows_per_minute within 5% of baseline', /unknown metric 'rows_per_minute'/],
    ] as const)
      assert.throws(
        () => parseGate(text),
        (e: Error) => e instanceof GateError && e.message.startsWith(`--assert "${text}": `) && why.test(e.message),
        text,
      );
  });
});

describe('equivalence gates: two one-sided tests on the 90% interval', () => {
  it('passes inside the band, fails wholly outside, is inconclusive across an edge', () => {
    const band = { low: 1 / 1.05, high: 1.05 };
    assert.equal(decide('~=', 1, { low: 0.97, high: 1.03 }, 1, 0.05), 'pass');
    assert.equal(decide('~=', 0.8, { low: 0.75, high: 0.85 }, 1, 0.05), 'fail');
    assert.equal(decide('~=', 1.2, { low: 1.1, high: 1.3 }, 1, 0.05), 'fail');
    assert.equal(decide('~=', 1.03, { low: 1.0, high: band.high + 0.01 }, 1, 0.05), 'inconclusive');
    // An interval wider than the whole band is neither.
    assert.equal(decide('~=', 1, { low: 0.9, high: 1.1 }, 1, 0.05), 'inconclusive');
    assert.equal(decide('~=', 1, null, 1, 0.05), 'inconclusive');
  });

  it('against the baseline: the same cell passes, 20% slower fails, a noisy one is inconclusive with a plan', () => {
    const same = judge('rows_per_sec within 5% of baseline', cell([24100, 23900, 24200, 24000, 24150]), cell(BASE));
    assert.equal(same.outcome, 'pass');
    assert.match(
      same.actual,
      /^24,\d{3} against the baseline's 24,\d{3}: [-+]\d\.\d% \[-\d\.\d%, \+\d\.\d%\] \(90% interval\), band -4\.8% to \+5\.0%$/,
    );
    assert.equal(judge('rows_per_sec within 5% of baseline', cell(BASE.map((v) => v * 0.8)), cell(BASE)).outcome, 'fail');
    const noisy = judge('rows_per_sec ~= baseline ± 5%', cell([24000, 27000, 21500, 25500, 22500]), cell(BASE));
    assert.equal(noisy.outcome, 'inconclusive');
    assert.match(noisy.settle!, /more repetitions? \(\d+( to \d+)? in all\) would settle it|within its noise/);
  });

  it('is judged on the 90% interval, not the 95%: a cell whose 95% interval pokes out of the band still passes', () => {
    const values = [20000, 20500, 19600, 20300, 19700];
    const iv95 = estimate(values).interval!;
    const iv90 = estimate(values, 0.9).interval!;
    const g = 'rows_per_sec within 2% of 20000';
    assert.ok(iv95.low < 20000 / 1.02 || iv95.high > 20000 * 1.02, `95%: ${JSON.stringify(iv95)}`);
    assert.ok(iv90.low >= 20000 / 1.02 && iv90.high <= 20000 * 1.02, `90%: ${JSON.stringify(iv90)}`);
    const r = judge(g, cell(values));
    assert.equal(r.outcome, 'pass');
    assert.match(r.actual, /\(90% interval\), band 19,608 to 20,400$/);
    // One run decides nothing here either.
    assert.equal(judge(g, cell([20000])).outcome, 'inconclusive');
  });
});

describe('gate plans: ranges, and no false precision at the limit', () => {
  it("the range's far end rests on the spread's 80% upper confidence bound, s sqrt((n-1) / chi2(0.2, n-1))", () => {
    // chi-square tables: the 20th percentile with 3 degrees of freedom is 1.005, with 9 it is 5.380.
    assert.ok(Math.abs(upperSd(1, 4) - Math.sqrt(3 / 1.005)) < 1e-3);
    assert.ok(Math.abs(upperSd(1, 10) - Math.sqrt(9 / 5.38)) < 1e-3);
  });

  it('a figure within one standard error of its limit is said to possibly sit on it, never "1 more would settle it"', () => {
    // Five runs at ~10% noise whose geometric mean is 0.3 standard errors above the limit.
    const values = [100, 112, 90, 105, 95];
    const logs = values.map(Math.log);
    const m = logs.reduce((a, b) => a + b) / 5;
    const se = Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / 4 / 5);
    const text = settleFigure(values, Math.exp(m - 0.3 * se));
    assert.match(
      text,
      /^the figure is within its noise of the limit \(it may sit on it, and then no number of repetitions settles it\); if it is where it seems, about \d+ to \d+ more repetitions \(\d+ to \d+ in all\)$/,
    );
    for (let k = 0.01; k < 1; k += 0.07)
      assert.doesNotMatch(settleFigure(values, Math.exp(m - k * se)), /^about 1 more|would settle it$/, String(k));
    // Clear of the limit by more than its noise: a plain range.
    assert.match(
      settleFigure(values, Math.exp(m - 2.5 * se)),
      /^about \d+ to \d+ more repetitions? \(\d+ to \d+ in all\) would settle it$/,
    );
  });
});
