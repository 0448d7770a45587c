// The check report on connect (src/host/checkView.ts): a check that fails becomes an error in the view, never a throw
// that would fail the connect.
import assert from 'node:assert/strict';
import { readCheck } from '../../../src/host/checkView';

describe('readCheck', () => {
  it('a failing check is recorded in the view, not thrown', async () => {
    const v = await readCheck(() => Promise.reject(new Error('the connection was reset')), 'SpinlockLab');
    assert.deepEqual(v.features, []);
    assert.equal(v.error, 'The permission check failed: the connection was reset');
  });
});
