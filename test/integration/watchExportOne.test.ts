// A single `spinlab watch -c ... --prometheus` exports like a fleet of one: the scrape carries the server's spinlock
// series with its labels and /healthz says it is up, with no servers file. The password comes from the environment.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSimProcess } from '../helpers/simProcess';
import { startProc, waitFor, type Proc, ROOT } from '../helpers/fleet';

const PW = 'One-Sim-Pw1!';

describe('spinlab watch -c ... --prometheus (one server, no servers file)', function () {
  this.timeout(120_000);
  let proc: Proc | undefined;
  let sim: { port: number; stop(): Promise<void> } | undefined;
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-one-'))));
  after(async () => {
    await proc?.stop();
    await sim?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the spinlock series of that server on /metrics and its state on /healthz', async () => {
    sim = await startSimProcess(PW, ['--background', 'disk-insert:1']);
    const conn = `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`;
    const args = [path.join(ROOT, 'bin', 'spinlab.js'), 'watch', '-c', conn, '--out', path.join(dir, 'out'), '--prometheus', '127.0.0.1:0'];
    const p = startProc(process.execPath, args, { ...process.env, SPINLAB_PASSWORD: PW });
    proc = p;
    const port = await waitFor('the metrics listener', () => {
      if (p.proc.exitCode !== null) throw new Error(`spinlab watch exited:\n${p.text()}`);
      const m = /metrics on http:\/\/[^\s]*:(\d+)\/metrics/.exec(p.text());
      return m ? Number(m[1]) : undefined;
    });
    const body = await waitFor('spinlock series in the scrape', async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return /^sqlserver_spinlock_spins_total\{[^}]*spinlab_server="127\.0\.0\.1"/m.test(text) ? text : undefined;
    });
    assert.match(body, /sqlserver_spinlock_name="[A-Z_]+"/);
    assert.doesNotMatch(body, new RegExp(PW.replace(/[!]/g, '\\!')));
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { servers: { name: string; state: string }[] };
    assert.deepEqual(
      health.servers.map((s) => [s.name, s.state]),
      [['127.0.0.1', 'up']],
    );
  });
});
