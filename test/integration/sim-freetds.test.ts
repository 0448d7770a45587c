// A second, independent TDS client (FreeTDS's tsql) reads the simulator: the wire format is not tuned to tedious.
import assert from 'node:assert/strict';
import { spawnSync, spawn } from 'node:child_process';
import { SIM_PASSWORD, withSim } from '../helpers/sim-client';

it('FreeTDS tsql (TDS 7.4) reads the top spinlocks', () => {
  const which = spawnSync('sh', ['-c', 'command -v tsql']);
  assert.equal(which.status, 0, 'tsql is missing: install it with `apt-get install -y freetds-bin`');
  return withSim({}, async (sim) => {
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn('tsql', ['-H', '127.0.0.1', '-p', String(sim.port), '-U', 'sa', '-P', SIM_PASSWORD], { env: { ...process.env, TDSVER: '7.4' } });
      let text = '';
      p.stdout.on('data', (d) => (text += d));
      p.stderr.on('data', (d) => (text += d));
      const timer = setTimeout(() => { p.kill(); reject(new Error(`tsql timed out: ${text}`)); }, 20_000);
      p.on('close', () => { clearTimeout(timer); resolve(text); });
      p.stdin.end('SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC\ngo\nexit\n');
    });
    assert.match(out, /name\s+spins/);
    assert.match(out, /SOS_CACHESTORE\s+\d+/);
    assert.match(out, /\(5 rows affected\)/);
  });
});
