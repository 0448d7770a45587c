// --client-path (src/engine/runSettings.ts) and the run's account of which path the client loop took
// (src/engine/loadCaller.ts clientPathNote): lean by default, driver when forced, a typo refused with what to write.
import assert from 'node:assert/strict';
import { loadSettingsFrom } from '../../src/engine/runSettings';
import { clientPathNote } from '../../src/engine/loadCaller';

describe('client path setting', () => {
  it('is absent unless given (the lean path where a session allows it), and takes lean or driver', () => {
    assert.equal('clientPath' in loadSettingsFrom({ mode: 'client-loop' }), false);
    assert.equal(loadSettingsFrom({ mode: 'client-loop', clientPath: 'driver' }).clientPath, 'driver');
    assert.equal(loadSettingsFrom({ mode: 'client-loop', clientPath: ' Lean ' }).clientPath, 'lean');
    assert.throws(() => loadSettingsFrom({ mode: 'client-loop', clientPath: 'fast' }), /--client-path 'fast' is neither lean nor driver/);
  });

  it('says which path ran, and why the driver where the lean path was refused', () => {
    assert.equal(clientPathNote({ lean: 4, driver: 0 }), 'client path: lean (prebuilt RPC on the socket) on all 4 sessions');
    assert.equal(clientPathNote({ lean: 0, driver: 1 }), 'client path: the driver on all 1 session (--client-path driver)');
    assert.equal(
      clientPathNote({ lean: 0, driver: 2, refused: 'the session is encrypted (encrypt is not false)' }),
      'client path: the driver on all 2 sessions (lean path refused: the session is encrypted (encrypt is not false))',
    );
  });
});
