// Which runs the comparison pairs by default (the experiment's own, never across experiments), whether two runs did
// the same work, and `spinlab compare` on two different workloads: the figures side by side with no verdict.
import assert from 'node:assert/strict';
import { defaultPair, NO_VERDICT, runsDiffer, type PairRun, type RunWorkload } from '../../src/shared/runPairing';
import { compareExperiments } from '../../src/shared/experimentCompare';
import { comparisonText } from '../../src/cli/compare';
import { baselineSection } from '../../src/cli/gates';
import { experiment } from '../helpers/builders';

const run = (experimentKey: string, index: number, armId: string, threads: number, o: Partial<PairRun> = {}): PairRun => ({
  key: `${experimentKey}#${index}`,
  experimentKey,
  index,
  armId,
  threads,
  status: 'completed',
  ...o,
});

describe('the default comparison: the experiment’s own', () => {
  it('pairs arm A against arm B of the preset at the most sessions both completed, not across experiments', () => {
    const runs = [
      run('active', 0, 'lw', 4),
      run('active', 1, 'other', 4),
      run('active', 2, 'lw', 8),
      run('active', 3, 'other', 8),
      run('active', 4, 'lw', 16),
      run('active', 5, 'other', 16, { status: 'failed' }),
      run('inmem', 0, 'main', 1),
      run('inmem', 1, 'main', 32),
    ];
    const pair = defaultPair(runs, (k) => (k === 'active' ? [{ a: 'lw', b: 'other' }] : []));
    assert.deepEqual({ a: pair?.a, b: pair?.b }, { a: 'active#2', b: 'active#3' });
    assert.match(pair!.why, /arm A against arm B of the same experiment at 8 sessions/);
  });
  it('follows the preset’s comparison (B before A in the run order does not swap them)', () => {
    const runs = [run('e', 0, 'forced', 8), run('e', 1, 'disabled', 8)];
    const pair = defaultPair(runs, () => [{ a: 'disabled', b: 'forced' }]);
    assert.deepEqual([pair?.a, pair?.b], ['e#1', 'e#0']);
  });
  it('pairs a run with its repetition, then a sweep’s ends; one run alone has no default', () => {
    const reps = [
      run('e', 0, 'main', 8, { repetition: 1 }),
      run('e', 1, 'main', 8, { repetition: 2 }),
      run('e', 2, 'main', 8, { repetition: 3 }),
    ];
    const r = defaultPair(reps);
    assert.deepEqual([r?.a, r?.b], ['e#0', 'e#2']);
    assert.match(r!.why, /repetition/);
    const sweep = [run('e', 0, 'main', 1), run('e', 1, 'main', 4), run('e', 2, 'main', 16)];
    assert.deepEqual([defaultPair(sweep)?.a, defaultPair(sweep)?.b], ['e#0', 'e#2']);
    // Two experiments of one run each: nothing of its own to compare, so nothing is chosen across them.
    assert.equal(defaultPair([run('active', 0, 'main', 8), run('other', 0, 'main', 8)]), null);
  });
  it('skips an experiment of one run for the next that has two', () => {
    const pair = defaultPair([run('active', 0, 'main', 8), run('old', 0, 'main', 2), run('old', 1, 'main', 8)]);
    assert.deepEqual([pair?.a, pair?.b], ['old#0', 'old#1']);
  });
});

describe('runs of different workloads', () => {
  const disk: RunWorkload = { scenarioId: 'disk-insert', parameters: { batch_size: 1 }, mode: 'server-loop' };
  const at = (experimentKey: string, workload: RunWorkload | null) => ({ experimentKey, workload });
  it('says how two experiments’ workloads differ: scenario, custom against scenario, settings, mode', () => {
    assert.equal(runsDiffer(at('a', disk), at('b', { ...disk })), null, 'the same workload under other knobs compares');
    assert.match(
      runsDiffer(at('a', disk), at('b', { ...disk, scenarioId: 'inmem-insert' })) ?? '',
      /^A ran scenario disk-insert \(batch_size=1\), B scenario inmem-insert \(batch_size=1\): this compares different workloads\.$/,
    );
    const custom: RunWorkload = {
      scenarioId: 'custom',
      parameters: {},
      mode: 'client-loop',
      custom: { database: 'Sales', statements: ['SELECT 1'] },
    };
    assert.match(runsDiffer(at('a', custom), at('b', disk)) ?? '', /A ran a custom workload in \[Sales\], B scenario disk-insert/);
    assert.match(runsDiffer(at('a', disk), at('b', { ...disk, parameters: { batch_size: 10 } })) ?? '', /batch_size 1 in A, 10 in B/);
    assert.match(runsDiffer(at('a', disk), at('b', { ...disk, mode: 'client-loop' })) ?? '', /A ran in server-loop, B in client-loop/);
    const other = { ...custom, custom: { database: 'Sales', statements: ['SELECT 2'] } };
    assert.match(runsDiffer(at('a', custom), at('b', other)) ?? '', /different statements/);
  });
  it('never calls the arms of one experiment, or an unknown workload, different', () => {
    assert.equal(runsDiffer(at('e', disk), at('e', { ...disk, parameters: { batch_size: 10 } })), null);
    assert.equal(runsDiffer(at('a', disk), at('b', null)), null);
  });
});

describe('spinlab compare and --baseline on different workloads', () => {
  const a = experiment('a', [8], { ticks: 6 });
  const b = { ...experiment('b', [8], { ticks: 6 }), scenario: { id: 'inmem-insert', parameters: {} } };
  it('prints the figures of both side by side with no ratio and no verdict', () => {
    const text = comparisonText(compareExperiments(a, b), 'a', 'b');
    assert.match(text, /this compares different workloads/);
    assert.ok(text.includes(NO_VERDICT));
    assert.doesNotMatch(text.replace(NO_VERDICT, ''), /B\/A|faster|slower|No difference/);
    assert.match(text, /Rows\/s|rows\/s/i);
    const same = comparisonText(compareExperiments(a, experiment('c', [8], { ticks: 6, seed: 9 })), 'a', 'c');
    assert.match(same, /B\/A \[interval\]/, 'the same workload keeps its ratio column');
  });
  it('gives the baseline section the note and no verdict', () => {
    const text = baselineSection(b, a, 'base');
    assert.ok(text.includes(NO_VERDICT));
    assert.doesNotMatch(text.replace(NO_VERDICT, ''), /faster|slower|No difference|at 8 threads/);
  });
});
