// A client the project did not write: Microsoft's go-mssqldb runs test/clients/gomssql (built once, before the test)
// against a simulator: a parameterised query, sp_executesql by RPC with an OUTPUT parameter and a ReturnStatus, a
// database/sql transaction, a batch with an error in the middle, a context cancel (attention), 50 connections, a TDS 8
// strict login (TLS first, TDSVersion 0x08000000) and a login to a database that does not exist.
// The module comes from the Go module proxy (scripts/integration-setup.sh downloads it ahead).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { assertCommon, CLIENTS, mustRun, runClient, simCertFile } from '../helpers/clientProgram';

// The Go on PATH (Debian's golang-go, which integration-setup.sh installs when none is there), else Go's own install.
const GO = process.env.GO ?? (spawnSync('go', ['version']).status === 0 ? 'go' : '/usr/local/go/bin/go');

describe('go-mssqldb', function () {
  const bin = path.join(os.tmpdir(), `spinlab-gomssql-${process.pid}`);
  before(function () {
    this.timeout(300_000);
    mustRun(
      GO,
      ['build', '-o', bin, '.'],
      path.join(CLIENTS, 'gomssql'),
      'go-mssqldb client does not build (run scripts/integration-setup.sh)',
    );
  });

  it('parameters, OUTPUT and return status by RPC, transaction, error mid-batch, cancel, 50 connections', function () {
    this.timeout(120_000);
    return withSim({}, async (sim) => {
      const certFile = await simCertFile();
      const r = await runClient(bin, [String(sim.port), SIM_PASSWORD, certFile]);
      assertCommon(r, 'go-mssqldb');
      assert.equal((r.cancel as { result: string }).result, 'context canceled');
      assert.deepEqual(r.tran, [1, 0, 0], 'BEGIN TRAN inside, none left after commit and rollback');
      assert.equal(r.strict, 8, 'encrypt=strict: TLS first, LOGIN7 with TDS 8.0 (0x08000000)');
      assert.match(String(r.missing_db), /Login failed for user 'sa'/);
    });
  });
});
