// A client the project did not write: FreeTDS's ODBC driver (Debian tdsodbc + unixodbc) through pyodbc runs a
// parameterised query (sp_prepexec), a procedure call with positional parameters, and a transaction (transaction-
// manager requests) against the simulator. Installs nothing: scripts/integration-setup.sh does.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import * as sql from 'mssql';
import { connect, runFile, SIM_PASSWORD, withSim } from '../helpers/simClient';

function requireOdbc(): void {
  const py = spawnSync('python3', ['-c', 'import pyodbc; print(",".join(pyodbc.drivers()))'], { encoding: 'utf8' });
  assert.equal(
    py.status,
    0,
    'python3 with pyodbc is missing: run scripts/integration-setup.sh (pip install pyodbc; apt-get install -y unixodbc tdsodbc)',
  );
  assert.match(
    py.stdout,
    /FreeTDS/,
    'the FreeTDS ODBC driver is not registered: apt-get install -y tdsodbc unixodbc (scripts/integration-setup.sh)',
  );
}

function runClient(port: number): Promise<Record<string, unknown>> {
  const script = path.join(__dirname, '..', '..', '..', 'test', 'integration', 'clients', 'odbc_client.py');
  return new Promise((resolve, reject) => {
    const p = spawn('python3', [script, String(port), SIM_PASSWORD, 'SpinlockLab']);
    let out = '';
    let errText = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (errText += d));
    const timer = setTimeout(() => {
      p.kill();
      reject(new Error(`ODBC client timed out: ${out}${errText}`));
    }, 60_000);
    p.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`ODBC client failed (${code}): ${errText}`));
      resolve(JSON.parse(out));
    });
  });
}

it('FreeTDS ODBC: parameterised query, positional procedure call, transaction', function () {
  this.timeout(120_000);
  requireOdbc();
  return withSim({}, async (sim) => {
    const admin = await connect(sim);
    await runFile(admin, 'lab/create', { db: [sql.NVarChar(128), 'SpinlockLab'], mark: [sql.NVarChar(256), 'spinlab v1'] });
    const lab = await connect(sim, 'sa', SIM_PASSWORD, 'SpinlockLab');
    await runFile(lab, 'lab/common');
    for (let b = 0; b < 3; b++) await runFile(lab, 'scenarios/disk-insert/deploy', {}, b);
    await lab.close();
    await admin.close();

    const r = await runClient(sim.port);
    assert.deepEqual(r.param, [41, 'forty-one'], 'SELECT ? AS a, ? AS b through sp_prepexec with unnamed values');
    assert.deepEqual(r.prepared, [2, 3]);
    // The loop procedure ends only if @rows arrived: unbound, it would run with every parameter NULL.
    assert.ok(typeof r.proc_rows_done === 'number' && r.proc_rows_done >= 5, `rows_done ${String(r.proc_rows_done)}`);
    assert.equal(r.trancount_in, 1, 'autocommit off opens a transaction (TM begin)');
    assert.equal(r.trancount_after_commit, 1, 'FreeTDS commits with fBeginXact: a new transaction follows');
    assert.equal(r.trancount_autocommit, 0);
    assert.match(String(r.missing_proc), /Could not find stored procedure 'dbo\.no_such_procedure'\. \(2812\)/);
  });
});
