// Change points over a workload's history (src/shared/changePoints.ts, regressionHistory.ts), measured on seeded
// synthetic histories through the path `spinlab history` and the panel use: experiments of one run each, their
// throughput a level times a lognormal factor. Pure noise must rarely get a marker; a real step must be found where
// it is. The measured rates are printed.
import assert from 'node:assert/strict';
import { bestSplit, eDivisive } from '../../src/shared/changePoints';
import { changePointText, findChanges, MIN_POINTS, workloadHistory, type HistoryExperiment } from '../../src/shared/regressionHistory';
import { lognormalFactors, repeatedRuns } from '../helpers/repeatedRuns';
import { experiment } from '../helpers/builders';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** A history of `levels.length` experiments, one run each, the i-th at levels[i] rows/s times the noise. */
function history(levels: readonly number[], factor: () => number): HistoryExperiment[] {
  return levels.map((level, i) => {
    const e = experiment(`exp-${String(i).padStart(3, '0')}`, [8]);
    const runs = repeatedRuns(factor, [{ id: 'main', rowsPerSec: level }], 1).map((r) => ({
      ...r,
      arm: { ...e.runs[0].arm },
      startedAt: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 86_400_000).toISOString(),
    }));
    return { ...e, runs } as unknown as HistoryExperiment;
  });
}

const changesOf = (es: HistoryExperiment[]) => workloadHistory(es).cells[0].changes;

describe('change points in a history of experiments (E-divisive, seeded)', function () {
  this.timeout(120_000);

  it('pure noise (10% multiplicative, 20 experiments): at most 5% of 30 seeded histories get any change point', () => {
    let flagged = 0;
    for (let h = 0; h < 30; h++) {
      const factor = lognormalFactors(1000 + h, 0.1);
      if (changesOf(history(Array(20).fill(20_000), factor)).length) flagged++;
    }
    console.log(`      false alarms: ${flagged} of 30 noise histories (${pct(flagged / 30)})`);
    assert.ok(flagged / 30 <= 0.05, `${flagged} of 30 noise histories got a change point`);
  });

  it('pure noise, 300 more seeded histories: the false-alarm rate stays under 5%', () => {
    let flagged = 0;
    for (let h = 0; h < 300; h++) {
      const factor = lognormalFactors(5000 + h, 0.1);
      if (findChanges(Array.from({ length: 20 }, () => 20_000 * factor())).length) flagged++;
    }
    console.log(`      false alarms: ${flagged} of 300 noise histories (${pct(flagged / 300)})`);
    assert.ok(flagged / 300 <= 0.05, `${flagged} of 300`);
  });

  it('a 15% step down in the middle of 20 experiments at 5% noise is found at its place (±1) in 90% or more of 100 seeded histories', () => {
    let found = 0;
    let extra = 0;
    let example = '';
    for (let h = 0; h < 100; h++) {
      const factor = lognormalFactors(2000 + h, 0.05);
      const levels = Array.from({ length: 20 }, (_, i) => (i < 10 ? 20_000 : 17_000));
      const changes = changesOf(history(levels, factor));
      if (changes.some((c) => Math.abs(c.index - 10) <= 1)) found++;
      if (changes.some((c) => Math.abs(c.index - 10) > 1)) extra++;
      if (h === 0 && changes.length) example = changePointText(changes[0]);
    }
    console.log(`      detected at the step (±1): ${found} of 100 (${pct(found / 100)}); a marker elsewhere too: ${extra} of 100`);
    console.log(`      e.g. "${example}"`);
    assert.ok(found >= 90, `found ${found} of 100`);
  });

  it('the shift of a change is the new level against the old with its interval, covering the true 0.85', () => {
    const factor = lognormalFactors(78, 0.05);
    const levels = Array.from({ length: 20 }, (_, i) => (i < 10 ? 20_000 : 17_000));
    const [c] = changesOf(history(levels, factor));
    assert.equal(c.experimentId, 'exp-010');
    assert.ok(c.interval.low < 0.85 && 0.85 < c.interval.high && c.interval.high < 1, JSON.stringify(c));
    assert.deepEqual([c.before, c.after], [10, 10]);
    assert.match(changePointText(c), /^slower -1\d(\.\d)?% \[-\d+(\.\d)?%, -\d+(\.\d)?%\] from here \(10 before, 10 after\)$/);
  });

  it('two steps (down, then back up) are both found; every view gets the same points from the same seed', () => {
    const factor = lognormalFactors(31, 0.04);
    const levels = Array.from({ length: 30 }, (_, i) => (i >= 10 && i < 20 ? 16_000 : 20_000));
    const es = history(levels, factor);
    const a = changesOf(es);
    assert.deepEqual(
      a.map((c) => c.index),
      [10, 20],
    );
    assert.ok(a[0].ratio < 1 && a[1].ratio > 1);
    assert.deepEqual(changesOf(es), a, 'seeded: computed again, the same');
  });

  it('orders experiments by start time, not by the order given, and says when there are too few to find a change', () => {
    const factor = lognormalFactors(3, 0.05);
    const es = history(
      [1, 2, 3, 4].map(() => 20_000),
      factor,
    ).reverse();
    const h = workloadHistory(es);
    assert.deepEqual(
      h.cells[0].points.map((p) => p.experimentId),
      ['exp-000', 'exp-001', 'exp-002', 'exp-003'],
    );
    assert.equal(h.cells[0].name, '8 threads');
    assert.match(h.note ?? '', new RegExp(`4 experiments .* needs 3 on each side of it \\(${MIN_POINTS} in all\\)`));
  });

  it('the best split is where the energy distance is largest (checked against the definition, term by term); a segment too short has none', () => {
    /** Matteson and James's q̂ maximised over τ and κ, straight from the definition. */
    function naive(x: number[], min: number): { index: number; q: number } | null {
      let best: { index: number; q: number } | null = null;
      const sum = (a: number[], b: number[]) => a.reduce((t, u) => t + b.reduce((v, w) => v + Math.abs(u - w), 0), 0);
      for (let tau = min; tau <= x.length - min; tau++)
        for (let kappa = tau + min; kappa <= x.length; kappa++) {
          const X = x.slice(0, tau);
          const Y = x.slice(tau, kappa);
          const [m, n] = [X.length, Y.length];
          const energy = (2 * sum(X, Y)) / (m * n) - sum(X, X) / (m * (m - 1)) - sum(Y, Y) / (n * (n - 1));
          const q = ((m * n) / (m + n)) * energy;
          if (!best || q > best.q) best = { index: tau, q };
        }
      return best;
    }
    const factor = lognormalFactors(9, 0.2);
    for (let k = 0; k < 20; k++) {
      const x = Array.from({ length: 6 + k }, (_, i) => Math.log((i % 7 < 3 ? 1 : 1.3) * factor()));
      const want = naive(x, 3)!;
      const got = bestSplit(x, 0, x.length, 3)!;
      assert.equal(got.index, want.index, `length ${x.length}`);
      assert.ok(Math.abs(got.q - want.q) < 1e-9 * Math.max(1, want.q), `${got.q} against ${want.q}`);
    }
    assert.deepEqual(bestSplit([1, 1, 1, 1, 5, 5, 5, 5], 0, 8, 3)?.index, 4);
    assert.equal(bestSplit([1, 1, 5, 5, 5], 0, 5, 3), null);
    assert.deepEqual(eDivisive([0, 0, 0, 0, 0, 0]), [], 'a flat series: the permutation test keeps nothing');
  });
});
