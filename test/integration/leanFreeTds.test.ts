// A client the project did not write sends the same call as the lean path: FreeTDS db-lib (bench/native/dblib_loop.c,
// the bench's native client) calls disk-insert's client-loop procedure through a recording proxy to the simulator, and
// its RPC request, decoded, names the same procedure and parameters with the same TDS types (INTN), widths and values as the lean
// path's prebuilt request (src/db/lean/rpcRequest.ts). Installs nothing: scripts/integration-setup.sh does (freetds-dev).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { targetFor } from '../helpers/simTarget';
import { withAdmin } from '../../src/cli/commands';
import { deployScenario } from '../../src/engine/lab';
import { defaultParameters, getScenario, workloadProcedure } from '../../src/engine/scenarios';
import { LeanRpcRequest } from '../../src/db/lean/rpcRequest';

const LAB = 'SpinlockLab';
const SOURCE = path.resolve(__dirname, '..', '..', '..', 'bench', 'native', 'dblib_loop.c');

interface DecodedRpc {
  procedure: string;
  params: { name: string; type: number; width: number; value: bigint }[];
}

/** An RPC message's payload (after the packet header): ALL_HEADERS, the procedure name, and integer parameters. */
function decodeRpc(b: Buffer): DecodedRpc {
  let o = b.readUInt32LE(0); // ALL_HEADERS: its total length (TDS 7.2 and later)
  const n = b.readUInt16LE(o);
  const procedure = b.toString('utf16le', o + 2, o + 2 + n * 2);
  o += 2 + n * 2 + 2; // and OptionFlags
  const params: DecodedRpc['params'] = [];
  while (o < b.length) {
    const nameLen = b[o];
    const name = b.toString('utf16le', o + 1, o + 1 + nameLen * 2);
    o += 1 + nameLen * 2 + 1; // and StatusFlags
    const type = b[o++];
    // INTN carries its maximal and actual length; the fixed INT4/INT8 types carry neither.
    const fixed: Record<number, number> = { 0x38: 4, 0x7f: 8 };
    let width: number;
    if (type === 0x26) {
      width = b[o];
      assert.equal(b[o + 1], width, `${name}: a value of its full width`);
      o += 2;
    } else if (type in fixed) width = fixed[type];
    else throw new Error(`${name}: TDS type 0x${type.toString(16)} is not an integer type`);
    const value = width === 8 ? b.readBigInt64LE(o) : BigInt(b.readIntLE(o, width));
    o += width;
    params.push({ name, type, width, value });
  }
  return { procedure, params };
}

/**
 * The first one-packet RPC message in what a client sent. The stream is searched, not walked packet by packet: FreeTDS
 * encrypts its login (TLS records straight on the socket, outside TDS packets) before the session goes plaintext.
 * An RPC packet is recognised by its header (type 3, EOM) and the ALL_HEADERS it starts with (22 bytes, one header
 * of 18 bytes, of type 2: the transaction descriptor).
 */
function firstRpc(sent: Buffer): Buffer {
  for (let i = 0; i + 26 <= sent.length; i++) {
    const rpc =
      sent[i] === 0x03 &&
      (sent[i + 1] & 0x01) === 1 &&
      sent.readUInt32LE(i + 8) === 22 &&
      sent.readUInt32LE(i + 12) === 18 &&
      sent.readUInt16LE(i + 16) === 2;
    if (rpc) return sent.subarray(i + 8, i + sent.readUInt16BE(i + 2));
  }
  throw new Error('no RPC request among what the client sent');
}

/** A TCP proxy to `port` that keeps every byte the client sent. */
async function recordingProxy(port: number): Promise<{ port: number; sent: Buffer[]; close: () => Promise<void> }> {
  const sent: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const up = net.connect(port, '127.0.0.1');
    sockets.add(client).add(up);
    client.on('data', (d: Buffer) => {
      sent.push(Buffer.from(d));
      up.write(d);
    });
    up.on('data', (d) => client.write(d));
    client.on('close', () => up.destroy());
    up.on('close', () => client.destroy());
    client.on('error', () => undefined);
    up.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    sent,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

it('FreeTDS db-lib sends the client-loop call as the lean path does: same procedure, parameters, integer types and widths', function () {
  this.timeout(120_000);
  assert.ok(
    fs.existsSync('/usr/include/sybdb.h'),
    'FreeTDS db-lib headers are missing: run scripts/integration-setup.sh (apt-get install freetds-dev)',
  );
  const binary = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-dblib-')), 'dblib_loop');
  const cc = spawnSync('cc', ['-O2', '-o', binary, SOURCE, '-lsybdb'], { encoding: 'utf8' });
  assert.equal(cc.status, 0, `cc failed: ${cc.stderr}`);
  return withSim({}, async (sim) => {
    const scenario = getScenario('disk-insert');
    const params = { ...defaultParameters(scenario), seed_rows: 0, batch_size: 1 };
    await withAdmin(targetFor(sim, { database: 'master' }), (admin, identity) =>
      deployScenario(targetFor(sim, { database: 'master' }), admin, identity, LAB, scenario, params, () => undefined),
    );
    const proc = workloadProcedure(scenario, 'client-loop', params);
    const proxy = await recordingProxy(sim.port);
    try {
      const args = ['127.0.0.1', String(proxy.port), 'sa', SIM_PASSWORD, LAB, proc.name, '1', '50', '50'];
      await new Promise<void>((resolve, reject) => {
        const p = spawn(binary, args, { env: { ...process.env, TDSVER: '7.4' } });
        let out = '';
        let started = false;
        // Its exit code and output say how it ended; a write to a pipe it already closed would only hide that.
        p.stdin.on('error', () => undefined);
        p.stdout.on('data', (d) => {
          out += d;
          if (!started && /^READY$/m.test(out)) {
            started = true;
            p.stdin.write('go\n');
          }
        });
        p.on('error', reject);
        p.on('close', (code) =>
          code === 0 && /RESULT calls=[1-9]/.test(out) ? resolve() : reject(new Error(`dblib_loop exited ${code}: ${out}`)),
        );
      });
    } finally {
      await proxy.close();
    }
    const theirs = decodeRpc(firstRpc(Buffer.concat(proxy.sent)));
    const lean = LeanRpcRequest.build(proc.name, [
      { name: 'key_base', type: 'bigint', value: Number(theirs.params[0].value) },
      { name: 'offset', type: 'bigint', value: Number(theirs.params[1].value) },
      { name: 'batch_size', type: 'int', value: Number(theirs.params[2].value) },
    ]);
    const ours = decodeRpc(lean.bytes.subarray(8));
    assert.equal(ours.procedure, theirs.procedure);
    const shape = (d: DecodedRpc) => d.params.map(({ name, type, width, value }) => ({ name, type, width, value }));
    assert.deepEqual(shape(ours), shape(theirs));
    assert.deepEqual(
      shape(ours).map((p) => p.name),
      proc.args.map((a) => `@${a}`),
    );
  });
});
