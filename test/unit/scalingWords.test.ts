// A scaling sentence carries its interval: "4.4x the rows/s for 4.0x the threads" is never said flatly when the
// thread counts were repeated, and says "no interval" when they were not. One computation (shared/scalingWords.ts)
// for the terminal's scaling view, the notebook's summary and the panel's.
import assert from 'node:assert/strict';
import { scalingGainText } from '../../src/shared/scalingWords';
import { summarizeScaling, type ScalingCurve } from '../../src/shared/analysis';

const curve = (points: [number, number][], values?: Record<number, number[]>): ScalingCurve => ({
  experimentId: 'e',
  title: 't',
  points: points.map(([threads, rowsPerSec]) => ({ threads, rowsPerSec, spinsPerRow: 0, bySpinlock: {}, status: 'completed' })),
  topSpinlocks: [],
  peak: { threads: points[points.length - 1][0], rowsPerSec: points[points.length - 1][1] },
  ...(values ? { rowsPerSecValues: values } : {}),
});

describe('scaling sentences with their intervals', () => {
  it('gives the ratio its 95% interval when both ends were repeated', () => {
    const text = scalingGainText(
      { threads: 1, values: [11_800, 12_100, 12_300] },
      { threads: 4, values: [52_000, 53_500, 54_000] },
      'rows',
    )!;
    assert.match(text, /^1 → 4 threads gives 4\.4x the rows\/s \(95% interval 4\.\dx to 4\.\dx\) for 4\.0x the threads$/);
  });

  it('says the interval is too wide to claim the gain, with the interval, when it is', () => {
    const text = scalingGainText(
      { threads: 1, values: [7_806, 19_886, 11_000] },
      { threads: 4, values: [52_000, 56_000, 54_000] },
      'rows',
    )!;
    assert.match(
      text,
      /gives 4\.\dx the rows\/s for 4\.0x the threads, but its 95% interval \([\d.]+x to [\d.]+x\) is too wide to claim it/,
    );
  });

  it('says a sweep of one run per thread count has no interval', () => {
    const text = scalingGainText({ threads: 1, values: [12_000] }, { threads: 4, values: [52_800] }, 'rows')!;
    assert.equal(text, '1 → 4 threads gives 4.4x the rows/s for 4.0x the threads (1 run per thread count: no interval)');
  });

  it('the summary of a curve says the same as the shared sentence', () => {
    const values = { 1: [11_800, 12_100, 12_300], 4: [52_000, 53_500, 54_000] };
    const s = summarizeScaling(
      curve(
        [
          [1, 12_066],
          [4, 53_160],
        ],
        values,
      ),
    );
    assert.ok(s.includes(scalingGainText({ threads: 1, values: values[1] }, { threads: 4, values: values[4] }, 'rows')!), s);
    const single = summarizeScaling(
      curve([
        [1, 12_000],
        [4, 52_800],
      ]),
    );
    assert.match(single, /for 4\.0x the threads \(1 run per thread count: no interval\)/);
  });
});
