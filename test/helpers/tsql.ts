// FreeTDS's tsql, a TDS client the project did not write, driven over stdin for integration tests of the simulator.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { Simulator } from '../../tools/sim/simulator';
import { SIM_PASSWORD } from './simClient';

/** Fails loudly, naming the package, when tsql is not installed. */
export function requireTsql(): void {
  const which = spawnSync('sh', ['-c', 'command -v tsql']);
  assert.equal(which.status, 0, 'tsql is missing: install it with `apt-get install -y freetds-bin`');
}

/** Runs `input` (batches ended by `go`, then `exit`) through tsql as sa with TDS 7.4; resolves with all it printed. */
export function runTsql(sim: Simulator, input: string, timeoutMs = 20_000): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const p = spawn('tsql', ['-H', '127.0.0.1', '-p', String(sim.port), '-U', 'sa', '-P', SIM_PASSWORD], {
      env: { ...process.env, TDSVER: '7.4' },
    });
    let text = '';
    p.stdout.on('data', (d) => (text += d));
    p.stderr.on('data', (d) => (text += d));
    const timer = setTimeout(() => {
      p.kill();
      reject(new Error(`tsql timed out: ${text}`));
    }, timeoutMs);
    p.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    p.stdin.end(input);
  });
}
