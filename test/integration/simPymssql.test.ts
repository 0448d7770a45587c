// A client the project did not write: pymssql (FreeTDS DB-Library under Python) runs test/clients/pymssql/client.py
// against a simulator: a parameterised query, sp_executesql with an OUTPUT parameter and its return status, a
// transaction, a batch with an error in the middle, a cancel (query timeout) and 50 connections. Installs nothing:
// scripts/integration-setup.sh does (pip install pymssql).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { assertCommon, CLIENTS, runClient } from '../helpers/clientProgram';

it('pymssql: parameters, OUTPUT and return status by RPC, transaction, error mid-batch, cancel, 50 connections', function () {
  this.timeout(120_000);
  const py = spawnSync('python3', ['-c', 'import pymssql'], { encoding: 'utf8' });
  assert.equal(py.status, 0, `python3 cannot import pymssql: run scripts/integration-setup.sh (pip install pymssql)\n${py.stderr}`);
  return withSim({}, async (sim) => {
    const r = await runClient('python3', [path.join(CLIENTS, 'pymssql', 'client.py'), String(sim.port), SIM_PASSWORD]);
    assertCommon(r, 'pymssql');
    // pymssql's login runs SET TEXTSIZE 2147483647 among its connection properties: the connection exists at all.
    assert.deepEqual(r.top, [1, 2], 'SELECT TOP 2 * ... ORDER BY database_id');
    // DB-Library begins a new transaction after each commit and rollback while autocommit is off.
    assert.deepEqual(r.tran, [1, 1, 1]);
  });
});
