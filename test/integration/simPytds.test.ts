// A client the project did not write: python-tds (pytds, a pure-Python TDS client) runs test/clients/pytds/client.py
// against a simulator: a parameterised query, sp_executesql with an OUTPUT parameter and its return status, a
// transaction (transaction-manager requests), a batch with an error in the middle, a cancel (query timeout), a pooled
// connection reused through sp_reset_connection and 50 connections. Installs nothing: scripts/integration-setup.sh
// does (pip install python-tds).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { assertCommon, CLIENTS, runClient } from '../helpers/clientProgram';

it('python-tds: parameters, OUTPUT and return status, transaction, error mid-batch, cancel, sp_reset_connection, 50 connections', function () {
  this.timeout(120_000);
  const py = spawnSync('python3', ['-c', 'import pytds'], { encoding: 'utf8' });
  assert.equal(py.status, 0, `python3 cannot import pytds: run scripts/integration-setup.sh (pip install python-tds)\n${py.stderr}`);
  return withSim({}, async (sim) => {
    const r = await runClient('python3', [path.join(CLIENTS, 'pytds', 'client.py'), String(sim.port), SIM_PASSWORD]);
    assertCommon(r, 'python-tds');
    assert.match(String((r.cancel as { result: string }).result), /Timeout/);
    // autocommit off: a transaction-manager BEGIN, then COMMIT / ROLLBACK that each begin the next one.
    assert.deepEqual(r.tran, [1, 1, 1]);
    assert.deepEqual(r.pooled, { same_session: true }, 'the pooled connection came back after sp_reset_connection');
  });
});
