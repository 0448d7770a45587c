// One number formatter for ratios, tiny values and intervals (shared, so the terminal, the notebook and the panel
// print the same): never "Infinity" or "NaN", ratios grouped by thousands, tiny figures scaled, and an interval in its
// point's unit.
import assert from 'node:assert/strict';
import { ratioText } from '../../src/shared/numberText';
import { estimateText, changeWords, THROUGHPUT_WORDS, type FigureEstimate } from '../../src/shared/repeats';

const est = (value: number, low: number, high: number): FigureEstimate => ({
  method: 'gmean',
  n: 3,
  value,
  interval: { low, high },
  cv: 0.1,
  values: [value, value, value],
});

describe('one number formatter', () => {
  it('says a ratio with no end as "unbounded" and none as "n/a", never Infinity or NaN', () => {
    assert.equal(ratioText(Infinity), 'unbounded');
    assert.equal(ratioText(Number.NaN), 'n/a');
    assert.equal(ratioText(null), 'n/a');
    assert.equal(ratioText(1.1), '1.1x');
    assert.equal(ratioText(4.44), '4.4x');
    assert.equal(ratioText(4), '4.0x', 'a ratio below 10 keeps its one decimal');
  });

  it('groups a large ratio by thousands: 18,126x', () => {
    assert.equal(ratioText(18_126), '18,126x');
    const words = changeWords(
      { method: 'welch-log', ratio: 18_126, interval: { low: 9000, high: 30_000 }, nA: 3, nB: 3, sdLog: 0.1 },
      THROUGHPUT_WORDS('B'),
      true,
    );
    assert.match(words, /^18,126x faster/);
    assert.match(words, /9,000x to 30,000x/);
    assert.doesNotMatch(words, /Infinity|NaN/);
  });

  it('writes an interval in the unit of its point: 1.85 ns [0 ns, 9.79 ns], never [0 ms, ...]', () => {
    assert.equal(estimateText(est(1.85e-6, 0, 9.79e-6), { unit: 'ms/row', inTable: true }), '1.85 ns [0 ns, 9.79 ns]');
    assert.equal(estimateText(est(2.5, 1.2, 1500), { unit: 'ms', inTable: true }), '2.5 ms [1.2 ms, 1,500 ms]');
  });

  it('scales a tiny figure instead of a row of zeros: no 0.00000083 [0.00000032, 0.0000021]', () => {
    const text = estimateText(est(8.3e-7, 3.2e-7, 2.1e-6));
    assert.equal(text, '8.3e-7 [3.2e-7, 2.1e-6]');
  });

  it('says an interval end the data cannot close as unbounded', () => {
    assert.equal(estimateText(est(3, 1, Infinity)), '3 [1, unbounded]');
  });
});
