// Group-sequential gates (shared/sequential.ts): the Lan-DeMets O'Brien-Fleming-type spending function, the boundaries
// it gives against published values, and the whole sequential gate (looks from 2 repetitions to the maximum, each on
// the interval at the level spent) measured on seeded synthetic cells: its error at the limit and its power.
import assert from 'node:assert/strict';
import normalFactory from '@stdlib/random-base-normal';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import {
  crossingProbability,
  DEFAULT_MAX_REPEAT,
  FIRST_LOOK,
  lookLevel,
  nominalLevels,
  obfSpending,
  spendingBoundaries,
} from '../../src/shared/sequential';
import { evaluateGates, parseGate } from '../../src/shared/gates';
import type { RunRecord } from '../../src/shared/experiment';
import { runRecord } from '../helpers/builders';

const equal = (k: number) => Array.from({ length: k }, (_, i) => (i + 1) / k);
const close = (actual: number[], expected: number[], tol: number, what: string) =>
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]) <= tol, `${what}: ${actual.map((x) => x.toFixed(4)).join(', ')}`));

describe('sequential: spending and boundaries', () => {
  it('spends alpha(t) = 2 - 2 Phi(z(1 - alpha/2) / sqrt(t)): all of it at t = 1, almost none early', () => {
    assert.ok(Math.abs(obfSpending(1, 0.025) - 0.025) < 1e-12);
    assert.equal(obfSpending(0, 0.025), 0);
    assert.ok(Math.abs(obfSpending(0.5, 0.05) - (2 - 2 * normalCdf(1.959964 / Math.sqrt(0.5), 0, 1))) < 1e-6);
    assert.ok(obfSpending(0.2, 0.025) < 1e-5);
  });

  it('gives the published Lan-DeMets O-F boundaries (one-sided 0.025, equal looks; gsDesign sfLDOF, rpact)', () => {
    close(spendingBoundaries(equal(2), 0.025), [2.963, 1.969], 0.001, 'K=2');
    close(spendingBoundaries(equal(3), 0.025), [3.71, 2.511, 1.993], 0.001, 'K=3');
    close(spendingBoundaries(equal(4), 0.025), [4.333, 2.963, 2.359, 2.014], 0.001, 'K=4');
    close(spendingBoundaries(equal(5), 0.025), [4.877, 3.357, 2.68, 2.29, 2.031], 0.001, 'K=5');
  });

  it("integrates the looks' joint distribution: Jennison and Turnbull's O'Brien-Fleming and Pocock constants hold 5%", () => {
    // Tables 2.1 and 2.3 of Jennison and Turnbull (2000): two-sided 0.05, K equal looks; O-F crosses C_B sqrt(K / k).
    const cb: Record<number, number> = { 2: 1.977, 3: 2.004, 4: 2.024, 5: 2.04, 10: 2.087 };
    const cp: Record<number, number> = { 2: 2.178, 3: 2.289, 4: 2.361, 5: 2.413, 10: 2.555 };
    for (const k of [2, 3, 4, 5, 10]) {
      const f = equal(k);
      const obf = crossingProbability(
        f,
        f.map((t) => cb[k] / Math.sqrt(t)),
        true,
      );
      const pocock = crossingProbability(
        f,
        f.map(() => cp[k]),
        true,
      );
      assert.ok(Math.abs(obf - 0.05) < 5e-4 && Math.abs(pocock - 0.05) < 5e-4, `K=${k}: O-F ${obf}, Pocock ${pocock}`);
    }
  });

  it('looks from the second repetition to the most: the levels rise to about the fixed design at the last look', () => {
    const design = { maxRepeat: DEFAULT_MAX_REPEAT, firstLook: FIRST_LOOK };
    const p = nominalLevels(design, 0.025);
    assert.equal(p.length, DEFAULT_MAX_REPEAT - 1);
    for (let i = 1; i < p.length; i++) assert.ok(p[i] > p[i - 1]);
    assert.equal(lookLevel(design, 1, 0.025), null);
    assert.ok((lookLevel(design, 2, 0.025) as number) > 0.99999);
    const last = lookLevel(design, DEFAULT_MAX_REPEAT, 0.025) as number;
    assert.ok(last > 0.95 && last < 0.965, `last look ${last}`);
  });
});

/**
 * One cell of `n` repetitions whose rows/s are lognormal at `noise` (coefficient of variation) with geometric mean
 * `truth`: the figure a gate judges is the geometric mean.
 */
function cellOf(draw: () => number, truth: number, noise: number, n: number): RunRecord[] {
  const sigma = Math.sqrt(Math.log(1 + noise * noise));
  return Array.from({ length: n }, (_, i) => {
    const r = runRecord(i, 4);
    r.repetition = i + 1;
    r.derived = { ...r.derived, rowsPerSec: truth * Math.exp(sigma * draw()) };
    return r;
  });
}

/** The sequential gate on `trials` seeded cells: how often it passes, fails, and its mean repetitions. */
function measure(gate: string, truth: number, noise: number, trials: number, seed: number, peek = false) {
  const draw = normalFactory.factory(0, 1, { seed });
  const design = { maxRepeat: DEFAULT_MAX_REPEAT, firstLook: FIRST_LOOK };
  const g = [parseGate(gate)];
  let pass = 0;
  let fail = 0;
  let reps = 0;
  for (let i = 0; i < trials; i++) {
    const runs = cellOf(draw, truth, noise, DEFAULT_MAX_REPEAT);
    // What the run loop does: a look after each repetition until the gate is decided. `peek`: the naive way, the
    // fixed design's 95% interval at every look.
    let n = 1;
    let outcome = 'inconclusive';
    for (; n <= DEFAULT_MAX_REPEAT && outcome === 'inconclusive'; n++)
      outcome = evaluateGates(g, runs.slice(0, n), null, peek ? null : design)[0].outcome;
    pass += +(outcome === 'pass');
    fail += +(outcome === 'fail');
    reps += n - 1;
  }
  return { pass: pass / trials, fail: fail / trials, meanRepetitions: reps / trials };
}

describe('sequential gates on seeded synthetic cells (10% noise, at most 15 repetitions)', function () {
  this.timeout(120_000);
  it('at the limit, each wrong call stays near 2.5% (peeking at the 95% interval after each repetition: over 20% together)', () => {
    const at = measure('rows_per_sec>=10000', 10000, 0.1, 3000, 11);
    const peek = measure('rows_per_sec>=10000', 10000, 0.1, 1000, 12, true);
    console.log(
      `      at the limit: passes ${(100 * at.pass).toFixed(1)}%, fails ${(100 * at.fail).toFixed(1)}% (mean ${at.meanRepetitions.toFixed(1)} repetitions); peeking at 95%: passes ${(100 * peek.pass).toFixed(1)}%, fails ${(100 * peek.fail).toFixed(1)}%`,
    );
    assert.ok(at.pass < 0.035 && at.fail < 0.035, JSON.stringify(at));
    assert.ok(peek.pass + peek.fail > 0.2, JSON.stringify(peek));
  });

  it('with the truth 10% on the good side, a floor passes at least 90% of the time and never fails', () => {
    const good = measure('rows_per_sec>=9000', 10000, 0.1, 2000, 13);
    const ceiling = measure('rows_per_sec<=11000', 10000, 0.1, 1000, 14);
    console.log(
      `      10% clear: a floor passes ${(100 * good.pass).toFixed(1)}% (mean ${good.meanRepetitions.toFixed(1)} repetitions), a ceiling ${(100 * ceiling.pass).toFixed(1)}%`,
    );
    assert.ok(good.pass >= 0.9 && good.fail === 0, JSON.stringify(good));
    assert.ok(ceiling.pass >= 0.9 && ceiling.fail === 0, JSON.stringify(ceiling));
  });
});
