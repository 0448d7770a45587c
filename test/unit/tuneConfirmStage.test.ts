// The tune's confirmation stage and its budget, driven without the wire against the simulator's contention model
// (test/helpers/tuneModel.ts) at 10% noise: the minimum budget a space needs (screening plus the confirmation's pairs)
// and the refusal below it; at that minimum, over 40 seeds, the confirmation is reached and its winner / current ratio
// is unbiased against the model's true ratio (the selection's own estimate is not); its trials take no part in the
// selection; racing's drops are Holm-adjusted; and an undecided confirmation always says what more would settle it.
import assert from 'node:assert/strict';
import { buildSpace } from '../../src/engine/tune/space';
import { getScenario } from '../../src/engine/scenarios';
import { belowMinimum, minimumBudget } from '../../src/engine/tune/plan';
import { holmDrops } from '../../src/engine/tune/racing';
import { tuneResult } from '../../src/engine/tune/result';
import { pairedRatio, pairsToDetect } from '../../src/shared/tunePaired';
import type { TuneInfo } from '../../src/shared/tune';
import { topology } from '../helpers/builders';
import { modelRowsPerSec, simulateTune } from '../helpers/tuneModel';

const t = topology({ sockets: 2, coresPerSocket: 10, threadsPerCore: 2 });
const configs = buildSpace(
  {
    topology: t,
    scenario: getScenario('disk-insert'),
    parameters: { batch_size: 1, seed_rows: 100000 },
    request: {},
    constraints: [],
    currentDelayedDurability: 'DISABLED',
  },
  [],
);
/** A trial as the harness times it: 4 s measured, 1 s warm-up, 1.5 s of knobs, samples and saves. */
const TRIAL_MS = 6500;
const gmean = (v: readonly number[]) => Math.exp(v.reduce((a, x) => a + Math.log(x), 0) / v.length);

describe('tune: the minimum budget', () => {
  it('screening every configuration once plus the confirmation pairs: 6m for disk-insert on 2x10x2, and below it a refusal that says so', () => {
    const m = minimumBudget(configs.length, TRIAL_MS, false);
    assert.equal(configs.length, 24);
    assert.equal(m.pairs, 12, '80% power for a 20% change at the assumed 15% noise');
    assert.equal(m.trials, 24 + 2 * 12);
    assert.equal(m.ms, 360_000);
    const b = belowMinimum(180_000, m, false);
    assert.match(
      b.message,
      /^--budget 3m is below the 6m this space needs: screening its 24 configurations once \(24 trials\) and 12 pairs/,
    );
    assert.match(b.fix, /give --budget 6m or more, or narrow the search/);
    assert.ok(minimumBudget(configs.length, TRIAL_MS, true).ms > m.ms, 'a shared server needs more pairs');
    assert.equal(minimumBudget(1, TRIAL_MS, false).pairs, 0, 'one configuration: nothing to confirm');
  });

  it('pairs: the paired t cancels drift shared by neighbours, and plans the pairs a change needs', () => {
    // A 10% win under a drift that doubles the server's speed across the pairs: each pair sees the same drift.
    const pairs = Array.from({ length: 8 }, (_, k) => [1000 * (1 + k / 8), 1100 * (1 + k / 8) * (k % 2 ? 1.01 : 0.99)] as const);
    const p = pairedRatio(pairs);
    assert.equal(p.pairs, 8);
    assert.ok(Math.abs(p.ratio! - 1.1) < 0.005, `${p.ratio}`);
    assert.ok(p.interval!.low > 1.08 && p.interval!.high < 1.12, JSON.stringify(p.interval));
    assert.equal(
      pairedRatio([
        [1000, null],
        [0, 5],
      ]).pairs,
      0,
      'a pair with a side missing is left out',
    );
    assert.equal(pairsToDetect(Math.SQRT2 * Math.log(1.15), 0.2), 12);
  });
});

describe('tune: the confirmation at the minimum budget, over 40 seeds at 10% noise', () => {
  const budgetMs = minimumBudget(configs.length, TRIAL_MS, false).ms;
  const seeds = Array.from({ length: 40 }, (_, i) => i + 1);
  const tunes = seeds.map((seed) => ({ seed, ...simulateTune(configs, t, { seed, cv: 0.1, budgetMs, trialMs: TRIAL_MS }) }));

  it('reaches the confirmation in at least 36 of 40, and its winner / current ratio is within 2% of the truth on average', () => {
    let reached = 0;
    const bias: number[] = [];
    const selection: number[] = [];
    const tune = { objective: { kind: 'throughput' }, configs } as unknown as TuneInfo;
    const byId = (id: string) => configs.find((c) => c.id === id)!;
    for (const { seed, search, runs } of tunes) {
      assert.ok(3000 + runs.length * TRIAL_MS <= budgetMs, `seed ${seed}: ${runs.length} trials overran the budget`);
      // The figure the tune reports: its result's confirmation, winner (b) over the current settings (a).
      const c = tuneResult(tune, search, { topology: t, database: 'SpinlockLab', custom: false, trialMs: TRIAL_MS })!.confirmation;
      if (!c) continue;
      if (c.pairs >= 2 && c.interval) reached++;
      const truth = modelRowsPerSec(byId(c.b.config), c.b.threads, t) / modelRowsPerSec(byId(c.a.config), c.a.threads, t);
      bias.push(c.ratio! / truth - 1);
      const values = (s: { config: string; threads: number }) => search.selectionValues(configs.indexOf(byId(s.config)), s.threads);
      selection.push(gmean(values(c.b)) / gmean(values(c.a)) / truth - 1);
    }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const pct = (v: number) => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}%`;
    console.log(
      `      budget ${budgetMs / 60_000}m: confirmation reached in ${reached} of 40; winner / current mean bias ${pct(mean(bias))} ` +
        `(confirmation, fresh pairs) against ${pct(mean(selection))} (the selection's own trials)`,
    );
    assert.ok(reached >= 36, `reached in ${reached} of 40`);
    assert.ok(Math.abs(mean(bias)) <= 0.02, `mean bias ${pct(mean(bias))}`);
  });

  it('the confirmation runs the pairs A B, B A, ... after the selection, and none of its trials counts in the leaderboard', () => {
    const { search, runs } = tunes[0];
    const c = search.confirmation()!;
    const tail = runs.slice(c.from).map((r) => r.arm.id);
    const a = configs[c.a.i].id;
    const b = configs[c.b.i].id;
    // 12 pairs planned at the assumed 15% noise; fewer (at least 5) once the search has measured its 10%.
    assert.ok(tail.length >= 2 * 5 && tail.length % 2 === 0, `${tail.length} confirmation trials`);
    for (let k = 0; 2 * k + 1 < tail.length; k++) assert.deepEqual(tail.slice(2 * k, 2 * k + 2), k % 2 ? [b, a] : [a, b], `pair ${k}`);
    const counted = search.standings().reduce((n, s) => n + s.trials, 0);
    assert.equal(counted, c.from, 'the leaderboard counts the selection trials only');
    assert.equal(search.rounds.at(-1)!.stage, 'confirm');
  });
});

describe('tune: racing adjusted for multiplicity', () => {
  it("Holm's step-down: 20 comparisons each just past the unadjusted 95% drop nothing; a clear one drops, and the step stops at the first kept", () => {
    const df = 30;
    const near = Array.from({ length: 20 }, (_, i) => ({ i, gap: 2.1 * 0.1, se: 0.1 }));
    assert.deepEqual(holmDrops(near, df), [], 'z = 2.1 each: under the unadjusted 95% all twenty would go');
    const drops = holmDrops([{ i: 99, gap: 0.6, se: 0.1 }, ...near], df);
    assert.deepEqual(
      drops.map((d) => d.i),
      [99],
    );
    assert.equal(drops[0].family, 21);
    assert.ok(drops[0].low > 0 && drops[0].low < 0.6 - 0.1 * 2.04, 'the interval is wider than the unadjusted one');
  });
});

describe('tune: an undecided confirmation says what more would settle it', () => {
  it('two configurations the model cannot tell apart: "too short or too noisy to tell", and moreTime names the pairs', () => {
    // The same knobs at one session count: the same truth, so a 12-pair confirmation cannot settle a 5% question.
    const same = configs.slice(0, 2).map((c, i) => ({ ...c, batchSize: 1, affinity: null, sessions: [20], id: `c${i}`, current: i === 0 }));
    const { search } = simulateTune(same, t, { seed: 2, cv: 0.1, budgetMs: 300_000, trialMs: TRIAL_MS });
    const tune = { objective: { kind: 'throughput' }, configs: same } as unknown as TuneInfo;
    const r = tuneResult(tune, search, { topology: t, database: 'SpinlockLab', custom: false, trialMs: TRIAL_MS })!;
    const winnerIsCurrent = r.winner.config === 'c0';
    const open = /Too short or too noisy to tell: on \d+ fresh pairs/;
    assert.match(r.verdict, winnerIsCurrent ? new RegExp(`won the search.*${open.source}`) : new RegExp(`^${open.source}`));
    assert.match(r.moreTime ?? '', /About \d+ more confirmation pairs .* would show a 5% difference/);
  });
});
