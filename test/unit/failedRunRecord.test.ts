// What a failed run's record means to its readers: a gate never passes on a failed run or on a latency with no
// sample, and a record written before "no sample" was null reads its zeros as nulls.
import assert from 'node:assert/strict';
import { evaluateGates, parseGate } from '../../src/shared/gates';
import { upgradeExperiment, validateExperiment } from '../../src/engine/migrate';
import type { Experiment } from '../../src/shared/experiment';
import { experiment, runRecord } from '../helpers/builders';

describe('a failed run and its records', () => {
  it('a gate fails on a failed run, naming why it failed, even when the other runs pass it', () => {
    const ok = runRecord(0, 2, { latency: true });
    const failed = runRecord(1, 4, { latency: true, status: 'failed' });
    failed.failedReason = "every call failed: Msg 102 Incorrect syntax near ','. (10 of 10 calls)";
    // Two repetitions at 2 threads: one run alone decides no gate.
    const res = evaluateGates([parseGate('p99<5ms')], [ok, { ...ok, index: 2 }, failed]);
    assert.deepEqual(
      res.map((r) => [r.run, r.ok]),
      [
        ['2 threads', true],
        ['4 threads', false],
      ],
    );
    assert.equal(res[1].actual, `the run failed (${failed.failedReason})`);
  });

  it('a null latency never passes a latency gate ("p99<5ms" is not held by no sample)', () => {
    const r = runRecord(0, 2, { latency: true });
    r.latency = { ...r.latency!, p99Us: null };
    const [g] = evaluateGates([parseGate('p99<5ms')], [r]);
    assert.equal(g.ok, false);
    assert.match(g.actual, /no call completed/);
  });

  it("an older record's latency of zeros over no call reads as nulls, and still validates", () => {
    const e = experiment('2025-03-01-disk-insert', [2, 4], { latency: true });
    e.runs[0].latency = { count: 0, meanUs: 0, p50Us: 0, p90Us: 0, p99Us: 0, p999Us: 0, maxUs: 0 };
    const read = upgradeExperiment(JSON.parse(JSON.stringify(e)), 'test') as unknown as Experiment;
    assert.deepEqual(read.runs[0].latency, { count: 0, meanUs: null, p50Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null });
    assert.deepEqual(read.runs[1].latency, e.runs[1].latency, 'a latency with samples is unchanged');
    assert.equal(validateExperiment(read), null);
  });
});
