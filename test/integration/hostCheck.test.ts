// The panel's "What will work here": connecting runs `spinlab check` once and puts its report in the
// state; a login without ALTER SETTINGS sees affinity not able to run with its exact GRANT, and Refresh reads it again.
import assert from 'node:assert/strict';
import { withSim } from '../helpers/simClient';
import { connectedController } from '../helpers/host';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';

const WEAK = { name: 'weak', password: 'Weak-Pw-1!', permissions: ['VIEW SERVER STATE' as const] };

describe('the check report in the panel (host)', function () {
  this.timeout(60_000);

  it('a login without ALTER SETTINGS: connect puts the report in the state, affinity not ok with its GRANT; Refresh keeps it', () =>
    withSim({ logins: [WEAK] }, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'), WEAK.name, WEAK.password);
      try {
        const s = ports.lastState();
        assert.equal(s.connection.status, 'connected', JSON.stringify(s.connection.error));
        assert.ok(s.check, 'the state carries the check report');
        assert.equal(s.check.error, null);
        const byId = new Map(s.check.features.map((f) => [f.id, f]));
        assert.equal(byId.get('sample')?.canRun, true);
        assert.equal(byId.get('watch')?.canRun, true);
        const aff = byId.get('affinity');
        assert.equal(aff?.canRun, false);
        assert.ok(aff.grants.includes('USE master; GRANT ALTER SETTINGS TO [weak];'), aff.grants.join(' | '));
        assert.match(aff.reasons.join(' '), /ALTER SETTINGS/);
        await c.receive({ type: 'serverRefresh', payload: {} });
        const again = ports.lastState();
        assert.equal(again.lastError, null, again.lastError?.message);
        assert.equal(again.check?.features.find((f) => f.id === 'affinity')?.canRun, false);
        await c.receive({ type: 'connectionClose', payload: {} });
        assert.equal(ports.lastState().check, null, 'no report once disconnected');
      } finally {
        await c.dispose();
      }
    }));
});
