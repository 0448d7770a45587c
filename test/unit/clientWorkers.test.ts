// The pieces of the client worker pool that need no server: how many workers a run gets, the --client-workers field,
// error tallies merged across workers, and a latency recorder handed from one thread to another exactly.
import assert from 'node:assert/strict';
import { clientCores, clientWorkerCount, workerEntry, WORKER_FILE } from '../../src/engine/workers/clientPool';
import { loadSettingsFrom } from '../../src/engine/runSettings';
import { ParamError } from '../../src/shared/params';
import { ErrorTally, mergeErrorCounts } from '../../src/engine/custom/tally';
import { LatencyRecorder } from '../../src/engine/histogram';

describe('client workers', () => {
  it('default one per client core, capped by the sessions; 0 keeps one event loop', () => {
    assert.equal(clientWorkerCount(undefined, 1), 1);
    assert.equal(clientWorkerCount(undefined, 1000), clientCores());
    assert.equal(clientWorkerCount(8, 3), 3);
    assert.equal(clientWorkerCount(2, 128), 2);
    assert.equal(clientWorkerCount(0, 16), 0);
  });

  it('the worker file exists beside the pool after tsc; a missing one is reported as null', () => {
    assert.equal(workerEntry(), WORKER_FILE);
    assert.equal(workerEntry(WORKER_FILE + '.missing'), null);
  });

  it('--client-workers takes 0..256 and refuses anything else by name', () => {
    assert.equal(loadSettingsFrom({ mode: 'client-loop', clientWorkers: '2' }).clientWorkers, 2);
    assert.equal(loadSettingsFrom({ mode: 'client-loop', clientWorkers: '0' }).clientWorkers, 0);
    assert.equal('clientWorkers' in loadSettingsFrom({ mode: 'client-loop', clientWorkers: ' ' }), false);
    for (const bad of ['-1', '2.5', 'two', '257']) {
      assert.throws(
        () => loadSettingsFrom({ mode: 'client-loop', clientWorkers: bad }),
        (e: ParamError) => /--client-workers '.*' is not a whole number from 0 to 256/.test(e.message),
        bad,
      );
    }
  });

  it('error tallies of two workers merge as one tally would have counted them', () => {
    const one = new ErrorTally();
    const a = new ErrorTally();
    const b = new ErrorTally();
    const e1 = { number: 1205, message: 'deadlock victim' };
    const e2 = { number: 50000, message: 'boom' };
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    [
      [a, 1, e1, 1],
      [b, 1, e1, 2],
      [a, 2, e2, 3],
      [b, 3, e1, 4],
      [b, 4, e2, 5],
    ].forEach(([t, s, e, sec]) => {
      (t as ErrorTally).add(s as number, e, at(sec as number));
      one.add(s as number, e, at(sec as number));
    });
    assert.deepEqual(mergeErrorCounts([a.list(), b.list()]), one.list());
  });

  it('a recorder handed over as its state merges exactly (max and clamped included)', () => {
    const a = new LatencyRecorder();
    const b = new LatencyRecorder();
    const both = new LatencyRecorder();
    for (let i = 1; i <= 1000; i++) {
      a.record(i * 1.7);
      both.record(i * 1.7);
    }
    for (let i = 1; i <= 500; i++) {
      b.record(i * 13.3);
      both.record(i * 13.3);
    }
    b.record(5e9);
    both.record(5e9);
    const merged = new LatencyRecorder().mergeState(a.state()).mergeState(b.state());
    assert.deepEqual(merged.summary(), both.summary());
    assert.equal(merged.clampedCount, 1);
  });
});
