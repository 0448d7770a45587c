// Connection advice that must not be wrong (issue #45): a port where something answers that is not SQL Server is said
// to be one, at once, instead of "could not be reached" after the login timeout; with Encrypt=strict an untrusted
// certificate is not told to add TrustServerCertificate (strict ignores it); HostNameInCertificate names the
// certificate's name when connecting by address.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DbSession } from '../../src/db/client';
import { targetFromArgs } from '../../src/cli/commands';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { BIN } from '../helpers/cliChild';
import { selfSignedCert } from '../../tools/sim/tds/cert';

async function failure(conn: string): Promise<{ message: string; ms: number }> {
  const t0 = Date.now();
  try {
    const s = await DbSession.open(targetFromArgs(conn, {}), { appName: 'test' });
    await s.close();
  } catch (e) {
    return { message: (e as Error).message, ms: Date.now() - t0 };
  }
  throw new Error('expected the connection to fail');
}

/** A TCP server on a free loopback port doing `onSocket` with each connection, for the length of `fn`. */
async function withServer<T>(onSocket: (s: net.Socket) => void, fn: (port: number) => Promise<T>): Promise<T> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => {
    sockets.push(s);
    s.on('error', () => undefined);
    onSocket(s);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn((server.address() as net.AddressInfo).port);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('connection advice: what answered, and what to change (issue #45)', function () {
  this.timeout(60_000);

  it('an HTTP server on the port: not SQL Server, its reply named, within a few seconds (not the 15 s timeout)', async () => {
    const server = http.createServer((_q, r) => r.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const { message, ms } = await failure(`Server=127.0.0.1,${port};User ID=sa;Password=x;Encrypt=false`);
      assert.ok(ms < 5000, `took ${ms} ms`);
      assert.match(message, /answered, but it is not SQL Server/);
      assert.match(message, /an HTTP server: "HTTP\/1\.1 400/);
      assert.match(message, /Check the port/);
      assert.doesNotMatch(message, /could not be reached/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a service that answers with other bytes (garbage): not TDS, at once', () =>
    withServer(
      (s) => s.on('data', () => s.write('+OK POP3 ready\r\n')),
      async (port) => {
        const { message, ms } = await failure(`Server=127.0.0.1,${port};User ID=sa;Password=x;Encrypt=false`);
        assert.ok(ms < 5000, `took ${ms} ms`);
        assert.match(message, /its first reply \("\+OK POP3 ready"\) is not TDS/);
      },
    ));

  it('a service that accepts and closes at once: closed without a reply, not "could not be reached"', () =>
    withServer(
      (s) => s.end(),
      async (port) => {
        const { message } = await failure(`Server=127.0.0.1,${port};User ID=sa;Password=x;Encrypt=false`);
        assert.match(message, /accepted the TCP connection and closed it without a reply/);
        assert.doesNotMatch(message, /could not be reached|connection to the server was lost/);
      },
    ));

  it('a service that accepts and never replies: said so, with the wait it gave, not "could not be reached"', () =>
    withServer(
      () => undefined,
      async (port) => {
        const { message } = await failure(`Server=127.0.0.1,${port};User ID=sa;Password=x;Encrypt=false;Connect Timeout=2`);
        assert.match(message, /accepted the TCP connection but did not answer the client's first message within 2 s/);
        assert.doesNotMatch(message, /could not be reached/);
      },
    ));

  it('Encrypt=strict to a server that does not speak TLS: not TLS, or a SQL Server older than 2022', () =>
    withServer(
      (s) => s.on('data', () => s.write('HTTP/1.1 400 Bad Request\r\n\r\n')),
      async (port) => {
        const { message } = await failure(`Server=127.0.0.1,${port};User ID=sa;Password=x;Encrypt=strict`);
        assert.match(message, /answered, but not with TLS, which Encrypt=strict \(TDS 8\) starts with/);
        assert.match(message, /use Encrypt=mandatory/);
      },
    ));

  it('Encrypt=strict;TrustServerCertificate=true and an untrusted certificate: strict ignores it, trust or pin the certificate', () =>
    withSim({}, async (sim) => {
      const { message } = await failure(
        `Server=127.0.0.1,${sim.port};User ID=sa;Password=${SIM_PASSWORD};Encrypt=strict;TrustServerCertificate=true`,
      );
      assert.match(message, /self-signed certificate/);
      assert.match(message, /TrustServerCertificate is ignored/);
      assert.doesNotMatch(message, /add TrustServerCertificate=true/);
      assert.match(message, /NODE_EXTRA_CA_CERTS/);
      assert.match(message, /HostNameInCertificate/);
      assert.match(message, /Encrypt=mandatory;TrustServerCertificate=true/);
    }));

  it('HostNameInCertificate is the name the certificate is checked against (strict, the certificate trusted)', () =>
    withSim({}, async (sim) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-cert-'));
      const pem = path.join(dir, 'sim.pem');
      fs.writeFileSync(pem, (await selfSignedCert()).cert);
      const run = (extra: string) =>
        new Promise<{ code: number; out: string }>((resolve) => {
          execFile(
            process.execPath,
            [BIN, 'topology', '-c', `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=strict${extra}`],
            { env: { ...process.env, NODE_EXTRA_CA_CERTS: pem, SPINLAB_PASSWORD: SIM_PASSWORD } },
            (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
          );
        });
      try {
        const good = await run(';HostNameInCertificate=localhost');
        assert.equal(good.code, 0, good.out);
        const wrong = await run(';HostNameInCertificate=db9.example.com');
        assert.equal(wrong.code, 3, wrong.out);
        assert.match(wrong.out, /db9\.example\.com/);
        assert.match(wrong.out, /issued to other names than the one connected with/);
        assert.doesNotMatch(wrong.out, /not trusted/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }));
});
