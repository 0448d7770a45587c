// The confirmations of server-wide changes in a few lines (what changes, that it is put back), the rest on demand.
import assert from 'node:assert/strict';
import { changeLines, confirmDetail, confirmMore } from '../../src/host/runRequest';
import { tuneConfirmDetail, tuneConfirmMore } from '../../src/host/tuneRequest';

describe('confirmations in a few lines, details on demand', () => {
  const two = ['CPU affinity (server-wide): AUTO -> CPUs 2-9 (numa:0)', 'Delayed durability on [SpinlockLab]: DISABLED -> FORCED'];
  it('a run says what changes and that it is put back, in four lines; the journal and restore are in the details', () => {
    const text = confirmDetail('SQLBOX', two);
    assert.equal(text.split('\n').length, 4, text);
    assert.match(text, /^On SQLBOX, each put back when the experiment ends, fails or is cancelled:\n- CPU affinity/);
    assert.doesNotMatch(text, /journal|spinlab restore/);
    assert.match(confirmMore(two), /restore journal.*spinlab restore/s);
  });
  it('lists at most four changes, counting the rest (all of them in the details)', () => {
    const seven = Array.from({ length: 7 }, (_, i) => `change ${i + 1}`);
    assert.equal(changeLines(seven), '- change 1\n- change 2\n- change 3\n- and 4 more (Show details)');
    assert.equal(changeLines(seven.slice(0, 4)).split('\n').length, 4);
    assert.match(confirmMore(seven), /- change 7/);
  });
  it('a tune says its budget, the changes and that each is put back, in a few lines', () => {
    const text = tuneConfirmDetail('SQLBOX', 120_000, two);
    assert.ok(text.split('\n').length <= 5, text);
    assert.match(text, /about 2 minutes \(its budget\)/);
    assert.match(text, /put back after each trial/);
    assert.match(tuneConfirmMore(two), /restore journal/);
  });
});
