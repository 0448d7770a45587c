// A client the project did not write: Microsoft's JDBC driver (mssql-jdbc from Maven Central) runs
// test/clients/jdbc (compiled once, before the test) against a simulator: a parameterised query, sp_executesql by a
// CallableStatement with an OUTPUT parameter and the return status, commit / rollback / savepoints, a batch with an
// error in the middle, Statement.cancel(), 50 connections and a TDS 8 strict connection. scripts/integration-setup.sh fetches the driver.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { assertCommon, CLIENTS, mustRun, runClient, simCertFile } from '../helpers/clientProgram';

describe('mssql-jdbc', function () {
  const dir = path.join(CLIENTS, 'jdbc');
  let cp = '';
  before(function () {
    this.timeout(300_000);
    mustRun(
      'mvn',
      ['-q', '-B', 'compile', 'dependency:build-classpath', '-Dmdep.outputFile=target/cp.txt'],
      dir,
      'the JDBC client does not build (run scripts/integration-setup.sh)',
    );
    cp = `${path.join(dir, 'target', 'classes')}${path.delimiter}${fs.readFileSync(path.join(dir, 'target', 'cp.txt'), 'utf8').trim()}`;
  });

  it('parameters, OUTPUT and return status by RPC, commit/rollback/savepoint, error mid-batch, cancel, 50 connections', function () {
    this.timeout(120_000);
    return withSim({}, async (sim) => {
      const certFile = await simCertFile();
      const r = await runClient('java', ['-cp', cp, 'spinlab.JdbcClient', String(sim.port), SIM_PASSWORD, certFile]);
      // JDBC reads an error up to the DONE that ends its statement: the later result set (2) must follow.
      assert.deepEqual(r.batch_error, [1, 'error: in the middle', 2]);
      assert.match(String((r.cancel as { result: string }).result), /canceled/);
      // commit()/rollback()/savepoints send IF @@TRANCOUNT > 0 COMMIT TRAN, IF @@TRANCOUNT = 0 BEGIN BEGIN TRAN ... END
      // SAVE TRAN sp1, ... as batches. After setAutoCommit(false) (SET IMPLICIT_TRANSACTIONS ON) @@TRANCOUNT is 0: a
      // SELECT from no table opens no transaction (docs: SET IMPLICIT_TRANSACTIONS); the savepoint's BEGIN TRAN leaves 1.
      assert.deepEqual(r.tran, [0, 1, 0]);
      assertCommon(r, 'mssql-jdbc');
      assert.equal(r.strict, 8, 'encrypt=strict: TLS first, then the TDS 8 login');
    });
  });
});
