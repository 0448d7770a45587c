// Benchmark of the TDS wire layer (not a test): a TdsServer with a trivial handler runs in one child process, small
// RPC calls come from many tedious connections in another, for ~10 s. Prints calls/s and the server process's CPU
// per call. Usage: node out/bench/tdsServer.js [--seconds 10] [--connections 32] [--tls]

import { fork, ChildProcess } from 'node:child_process';
import { Connection, Request, TYPES } from 'tedious';
import type { SimHandler } from '../tools/sim/tds/contract';
import { TdsServer } from '../tools/sim/tds/server';

type Msg =
  | { kind: 'listening'; port: number }
  | { kind: 'cpu'; user: number; system: number }
  | { kind: 'result'; calls: number; errors: number; ms: number; p50: number; p99: number };

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const pingHandler: SimHandler = {
  login: () => ({ ok: true, database: 'master' }),
  sqlBatch: async () => [],
  rpc: async (_s, _name, params) => [
    { kind: 'resultSet', columns: [{ name: 'id', sqlType: { type: 'int' } }], rows: [[params[0]?.value ?? 0]] },
    { kind: 'returnStatus', value: 0 },
  ],
};

async function serverRole(): Promise<void> {
  const server = new TdsServer({ handler: pingHandler });
  const { port } = await server.listen();
  process.on('message', (m: { kind: string }) => {
    if (m.kind === 'cpu') {
      const u = process.cpuUsage();
      process.send!({ kind: 'cpu', user: u.user, system: u.system });
    } else if (m.kind === 'stop') {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }
  });
  process.send!({ kind: 'listening', port });
}

function connect(port: number, tls: boolean): Promise<Connection> {
  const c = new Connection({
    server: '127.0.0.1',
    authentication: { type: 'default', options: { userName: 'sa', password: 'x' } },
    options: { port, encrypt: tls, trustServerCertificate: true },
  });
  return new Promise((resolve, reject) => c.connect((err) => (err ? reject(err) : resolve(c))));
}

function call(c: Connection, id: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const r = new Request('dbo.ping', (err) => (err ? reject(err) : resolve()));
    r.addParameter('id', TYPES.Int, id);
    c.callProcedure(r);
  });
}

async function clientRole(): Promise<void> {
  const port = arg('port', 0);
  const seconds = arg('seconds', 10);
  const n = arg('connections', 32);
  const tls = process.argv.includes('--tls');
  const conns = await Promise.all(Array.from({ length: n }, () => connect(port, tls)));
  // Warm up, then tell the parent to sample the server's CPU and run the measured window.
  await Promise.all(
    conns.map(async (c, i) => {
      for (let k = 0; k < 50; k++) await call(c, i);
    }),
  );
  process.send!({ kind: 'ready' });
  await new Promise<void>((r) => process.once('message', () => r()));
  const lat: number[] = [];
  let calls = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    conns.map(async (c, i) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await call(c, i);
          calls++;
          if ((calls & 15) === 0) lat.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const ms = performance.now() - start;
  lat.sort((a, b) => a - b);
  process.send!({ kind: 'result', calls, errors, ms, p50: lat[lat.length >> 1] ?? 0, p99: lat[Math.floor(lat.length * 0.99)] ?? 0 });
  for (const c of conns) c.close();
  setTimeout(() => process.exit(0), 100);
}

function next<T extends Msg['kind']>(child: ChildProcess, kind: T | 'ready'): Promise<Extract<Msg, { kind: T }>> {
  return new Promise((resolve) => {
    const on = (m: Msg | { kind: 'ready' }) => {
      if (m.kind !== kind) return;
      child.off('message', on);
      resolve(m as Extract<Msg, { kind: T }>);
    };
    child.on('message', on);
  });
}

async function main(): Promise<void> {
  const extra = process.argv.slice(2);
  const server = fork(__filename, ['server']);
  let client: ChildProcess | undefined;
  try {
    const { port } = await next(server, 'listening');
    client = fork(__filename, ['client', '--port', String(port), ...extra]);
    await next(client, 'ready');
    server.send({ kind: 'cpu' });
    const cpu0 = await next(server, 'cpu');
    client.send({ kind: 'go' });
    const res = await next(client, 'result');
    server.send({ kind: 'cpu' });
    const cpu1 = await next(server, 'cpu');
    const serverCpuMs = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1000;
    const perCall = serverCpuMs / res.calls;
    console.log(`connections:              ${arg('connections', 32)}${extra.includes('--tls') ? ' (TLS)' : ''}`);
    console.log(`calls:                    ${res.calls} in ${(res.ms / 1000).toFixed(1)} s (${res.errors} errors)`);
    console.log(
      `throughput:               ${Math.round((res.calls * 1000) / res.ms)} calls/s (client-bound: both processes share the machine)`,
    );
    console.log(`latency p50 / p99:        ${res.p50.toFixed(2)} / ${res.p99.toFixed(2)} ms`);
    console.log(`server CPU:               ${serverCpuMs.toFixed(0)} ms = ${(perCall * 1000).toFixed(1)} us per call`);
    console.log(`calls per server CPU-s:   ${Math.round(1000 / perCall)}`);
  } finally {
    server.send({ kind: 'stop' });
    client?.kill();
  }
}

const role = process.argv[2];
(role === 'server' ? serverRole() : role === 'client' ? clientRole() : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
