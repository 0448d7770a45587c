// The close of a tune whose confirmation could not tell: a winner 2.2x the current settings on a handful of fresh
// pairs with a 95% interval from -40% to +707% is said to be too short or too noisy to tell (never "no difference"),
// with how many more confirmation pairs and how much more budget would settle it; and never "nothing left to
// settle" beside it. The search is a stand-in with the figures tuneResult reads (a constructed report).
import assert from 'node:assert/strict';
import { tuneResult } from '../../src/engine/tune/result';
import type { TuneSearch } from '../../src/engine/tune/search';
import { tuneReport } from '../../src/engine/tuneReport';
import type { TuneInfo, TuneStanding } from '../../src/shared/tune';
import { estimate } from '../../src/shared/repeats';
import { topology } from '../helpers/builders';
import { tuneExperiment } from '../helpers/tuneExperiment';

const standing = (config: string, values: number[], state: TuneStanding['state']): TuneStanding => ({
  config,
  threads: 8,
  estimate: estimate(values),
  trials: values.length,
  state,
});

/** A search that chose c1 (about twice the current settings) and confirmed it on three wildly noisy pairs. */
function noisySearch(pairs: [number, number][]): TuneSearch {
  const selection: Record<string, number[]> = { c0: [10_000, 10_400, 9_800], c1: [22_000, 21_000, 23_500] };
  return {
    standings: () => [standing('c1', selection.c1, 'racing'), standing('c0', selection.c0, 'racing')],
    selectionValues: (i: number) => selection[`c${i}`],
    confirmation: () => ({ a: { i: 0, threads: 8 }, b: { i: 1, threads: 8 }, from: 6, pairs }),
    confirmPairs: 12,
    noise: () => ({ sd: 0.05, df: 4, measured: 0.05 }),
  } as unknown as TuneSearch;
}

describe('tune close: a confirmation too short or too noisy to tell', () => {
  const base = tuneExperiment();
  const tune: TuneInfo = { ...base.tune!, configs: base.tune!.configs.slice(0, 2), budgetMs: 600_000 };
  // Winner / current per pair: 5.0, 0.8, 2.6 (about 2.2x at the middle; a 95% interval from below 1 to over 20x).
  const r = tuneResult(
    tune,
    noisySearch([
      [10_000, 50_000],
      [10_000, 8_000],
      [10_000, 26_000],
    ]),
    { topology: topology(), database: 'SpinlockLab', custom: false, trialMs: 6000 },
  )!;

  it('says the confirmation could not tell, with the interval and the middle, not "no difference"', () => {
    assert.match(r.verdict, /^Too short or too noisy to tell: on 3 fresh pairs of trials/, r.verdict);
    assert.match(r.verdict, /came out at 2\.\dx the current settings in throughput at the middle/);
    assert.match(r.verdict, /the 95% interval \(-\d+% to \+\d+%\) also takes in no difference/);
    assert.doesNotMatch(r.verdict, /^No difference|no difference in throughput detectable/i);
  });

  it('says how many more confirmation pairs, and how much more budget, would settle it', () => {
    assert.match(
      r.moreTime ?? '',
      /About \d+ more confirmation pairs \(about \d+ (s|min) more budget: --budget \d+m in all\) would settle whether a difference the size seen \(\+\d+%\) is real/,
    );
  });

  it('the printed close never says "nothing left to settle" beside it', () => {
    const e = { ...base, tune: { ...tune, result: r } };
    const text = tuneReport(e).join('\n');
    assert.ok(text.includes(r.verdict), text);
    assert.match(text, /More time: About \d+ more confirmation pairs/);
    assert.doesNotMatch(text, /nothing left to settle/);
  });
});
