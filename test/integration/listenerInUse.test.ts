// A listener that cannot start ends the command: `spinlab watch --prometheus` (one server, or --servers) on a port
// another program holds exits at once with exit code 5 and says which port and what to do, instead of staying up
// with nothing to serve; `spinlab sim` on a port in use says the same with the same code.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startProc, type Proc } from '../helpers/fleet';
import { BIN } from '../helpers/cliChild';

/** A port held by another program (this test) on 127.0.0.1, and the way to let it go. */
async function holdPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  return { port, close: () => new Promise<void>((r) => s.close(() => r())) };
}

/** The exit code, or null when the process was still running after `ms` (then it is stopped). */
async function exitWithin(p: Proc, ms: number): Promise<number | null> {
  if (p.proc.exitCode !== null) return p.proc.exitCode;
  const code = await new Promise<number | null>((resolve) => {
    const t = setTimeout(() => resolve(null), ms);
    p.proc.once('exit', (c) => {
      clearTimeout(t);
      resolve(c);
    });
  });
  if (code === null) await p.stop();
  return code;
}

describe('a listener on a port in use ends the command', function () {
  this.timeout(60_000);
  let held: { port: number; close: () => Promise<void> };
  let dir: string;
  beforeEach(async () => {
    held = await holdPort();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-inuse-'));
  });
  afterEach(async () => {
    await held.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('watch -c ... --prometheus 127.0.0.1:PORT: exit 5 at once, naming the port and the fix', async () => {
    const conn = 'Server=127.0.0.1,1;User ID=sa;Password=x;Encrypt=false';
    const p = startProc(process.execPath, [
      BIN,
      'watch',
      '-c',
      conn,
      '--out',
      path.join(dir, 'w'),
      '--prometheus',
      `127.0.0.1:${held.port}`,
    ]);
    const code = await exitWithin(p, 15_000);
    assert.equal(code, 5, `still running or wrong code:\n${p.text()}`);
    assert.match(p.text(), new RegExp(`port ${held.port} .*is in use by another program`));
    assert.match(p.text(), /pick another with --prometheus/);
    assert.doesNotMatch(p.text(), /EADDRINUSE/);
  });

  it('watch --servers FILE --prometheus :PORT: the same', async () => {
    const file = path.join(dir, 'servers.yaml');
    fs.writeFileSync(file, '- name: one\n  server: 127.0.0.1\n  port: 1\n  user: sa\n  passwordEnv: NO_SUCH_PW\n');
    const p = startProc(
      process.execPath,
      [BIN, 'watch', '--servers', file, '--out', path.join(dir, 'f'), '--prometheus', `127.0.0.1:${held.port}`],
      {
        ...process.env,
        NO_SUCH_PW: 'x',
      },
    );
    const code = await exitWithin(p, 15_000);
    assert.equal(code, 5, `still running or wrong code:\n${p.text()}`);
    assert.match(p.text(), new RegExp(`port ${held.port} .*is in use by another program`));
  });

  it('sim --port PORT: exit 5, the same as any other listener', async () => {
    const p = startProc(process.execPath, [BIN, 'sim', '--port', String(held.port), '--password', 'Pw-in-use-1']);
    const code = await exitWithin(p, 15_000);
    assert.equal(code, 5, p.text());
    assert.match(p.text(), new RegExp(`port ${held.port} on 127\\.0\\.0\\.1 is in use`));
  });

  it('watch --prometheus with an --out no folder can be made in: exit 5 at once, before listening or connecting', async () => {
    const conn = 'Server=127.0.0.1,1;User ID=sa;Password=x;Encrypt=false';
    const p = startProc(process.execPath, [BIN, 'watch', '-c', conn, '--out', '/proc/spinlab-no-folder', '--prometheus', '127.0.0.1:0']);
    const code = await exitWithin(p, 15_000);
    assert.equal(code, 5, `still running or wrong code:\n${p.text()}`);
    assert.match(p.text(), /Could not write \/proc\/spinlab-no-folder/);
    assert.doesNotMatch(p.text(), /metrics on http|connecting to/);
  });
});
