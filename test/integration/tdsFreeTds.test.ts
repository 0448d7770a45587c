// A second, independent client: FreeTDS's tsql (TDS 7.4) logs in and runs queries against the echo handler.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { startTestServer, TestServer } from '../helpers/tdsServer';

function tsqlPath(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v tsql'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Runs tsql asynchronously (the server lives in this process, so spawnSync would block it). */
function runTsql(bin: string, port: number, password: string, script: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-H', '127.0.0.1', '-p', String(port), '-U', 'sa', '-P', password], {
      env: { ...process.env, TDSVER: '7.4' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
    child.stdin.end(script);
  });
}

describe('TDS with FreeTDS tsql', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('logs in with TDS 7.4 and shows the handler rows', async () => {
    const bin = tsqlPath();
    assert.ok(bin, 'tsql (FreeTDS) is not installed: run `apt-get install freetds-bin`');
    const r = await runTsql(bin, t.port, 'pw', 'big 3\ngo\nselect @@spid\ngo\nerror\ngo\nexit\n');
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /0\s+row 0/);
    assert.match(r.out, /2\s+row 2/);
    assert.match(r.out, /\(3 rows affected\)/);
    assert.match(r.out, /it failed/, 'the ERROR token reaches tsql');
    const batches = t.handler.calls.filter((c) => c.kind === 'batch').map((c) => c.text.trim());
    assert.ok(batches.includes('big 3') && batches.includes('select @@spid'), JSON.stringify(batches));
  });

  it('reports a failed login', async () => {
    const bin = tsqlPath();
    assert.ok(bin, 'tsql (FreeTDS) is not installed: run `apt-get install freetds-bin`');
    const r = await runTsql(bin, t.port, 'wrong', 'exit\n');
    assert.notEqual(r.code, 0);
    assert.match(r.out, /Login failed for user 'sa'/);
  });
});
