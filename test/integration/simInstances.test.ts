// `spinlab sim --instances N`: N simulated instances from one process, each on its own port with its own model and
// server name, so a fleet watch sees N distinct servers; a bad N, or a port in the range already taken, is refused
// with what to do, and nothing is left listening.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import * as sql from 'mssql';
import { SIM_PASSWORD } from '../helpers/simClient';
import { runSimCommand } from '../../tools/sim/simulator';

async function serverName(port: number): Promise<{ name: string; spid: number }> {
  const pool = await new sql.ConnectionPool({
    server: '127.0.0.1',
    port,
    user: 'sa',
    password: SIM_PASSWORD,
    options: { encrypt: false, trustServerCertificate: true },
  }).connect();
  try {
    const r = await pool.request().query('SELECT @@SERVERNAME AS name, @@SPID AS spid');
    return r.recordset[0] as { name: string; spid: number };
  } finally {
    await pool.close();
  }
}

/** Runs `spinlab sim` in this process until its banner is out; returns the banner and a stop that gives its exit code. */
async function startSim(args: string[]): Promise<{ out: () => string; stop: () => Promise<number> }> {
  let out = '';
  const done = runSimCommand(['--password', SIM_PASSWORD, ...args], (t) => {
    out += t;
  });
  while (!out.includes('Ctrl+C')) await new Promise((r) => setTimeout(r, 20));
  return {
    out: () => out,
    stop: async () => {
      process.emit('SIGTERM');
      return done;
    },
  };
}

const freePort = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

describe('spinlab sim --instances', () => {
  it('serves 3 instances on 3 ports, each with its own server name and its own sessions', async () => {
    const sim = await startSim(['--port', '0', '--instances', '3']);
    try {
      const lines = [...sim.out().matchAll(/(\S+) listening on 127\.0\.0\.1:(\d+)/g)];
      assert.equal(lines.length, 3, sim.out());
      const ports = lines.map((m) => Number(m[2]));
      assert.equal(new Set(ports).size, 3, `three ports, not ${ports.join(', ')}`);
      const seen = [];
      for (const p of ports) seen.push(await serverName(p));
      assert.deepEqual(
        seen.map((s) => s.name),
        ['SPINLAB-SIM-1', 'SPINLAB-SIM-2', 'SPINLAB-SIM-3'],
      );
      assert.deepEqual(
        lines.map((m) => m[1]),
        ['SPINLAB-SIM-1', 'SPINLAB-SIM-2', 'SPINLAB-SIM-3'],
        'each port printed beside the name its server answers',
      );
      // Each instance its own model: the same first user session id on each, not one shared count.
      assert.equal(new Set(seen.map((s) => s.spid)).size, 1, `spids ${seen.map((s) => s.spid).join(', ')}`);
    } finally {
      assert.equal(await sim.stop(), 0);
    }
    assert.match(sim.out(), /stopped \(3 instances\)/);
  });

  it('one instance (the default) keeps its plain name and banner', async () => {
    const sim = await startSim(['--port', '0']);
    try {
      const m = /Listening on 127\.0\.0\.1:(\d+) \(loopback only\)/.exec(sim.out());
      assert.ok(m, sim.out());
      assert.equal((await serverName(Number(m[1]))).name, 'SPINLAB-SIM');
    } finally {
      assert.equal(await sim.stop(), 0);
    }
  });

  it('a bad count, or a range past port 65535, is refused with exit code 2 and what to do', async () => {
    for (const [args, re] of [
      [['--instances', '0'], /--instances must be a whole number from 1 to 200, not 0/],
      [['--instances', '201'], /from 1 to 200, not 201/],
      [['--instances', 'x'], /not an integer/],
      [['--instances', '3', '--port', '65534'], /--instances 3 from --port 65534 runs past port 65535: give a lower --port, or --port 0/],
    ] as const) {
      let out = '';
      assert.equal(await runSimCommand(['--password', SIM_PASSWORD, ...args], (t) => (out += t)), 2, out);
      assert.match(out, re);
    }
  });

  it('a port in the range already taken: exit 5 naming it, and the instances already started are closed', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    try {
      let out = '';
      const code = await runSimCommand(['--password', SIM_PASSWORD, '--port', String(taken - 1), '--instances', '2'], (t) => (out += t));
      assert.equal(code, 5, out);
      assert.match(out, new RegExp(`port ${taken} on 127\\.0\\.0\\.1 is in use`));
      assert.ok(await freePort(taken - 1), `port ${taken - 1} (the first instance) is listened on no more`);
    } finally {
      holder.close();
    }
  });
});
