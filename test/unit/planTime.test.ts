// How long an experiment will take, said before it starts.
import assert from 'node:assert/strict';
import { planTime } from '../../src/shared/planTime';

describe('planTime', () => {
  it('counts arms x thread counts x repetitions and adds warm-up to measured time', () => {
    const p = planTime([{ threads: [10] }, { threads: [10] }], { durationMs: 30_000, rows: null, warmupMs: 5000 }, 3);
    assert.equal(p.runs, 6);
    assert.equal(p.seconds, 210);
    assert.equal(p.text, '6 runs (2 arms x 1 thread count x 3 repetitions): about 4 min (30 s measured + 5 s warm-up each, plus deploys).');
  });
  it('says a row count has no time until the throughput is known', () => {
    const p = planTime([{ threads: [1, 2, 4] }], { durationMs: null, rows: 20_000_000, warmupMs: 5000 }, 1);
    assert.equal(p.runs, 3);
    assert.equal(p.seconds, null);
    assert.equal(p.text, "3 runs (3 thread counts x 1 repetition), 20,000,000 rows each: the time depends on the server's throughput.");
  });
});
