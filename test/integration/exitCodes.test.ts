// Every CLI error exits with its category's code (src/cli/exitCodes.ts, the README's table): one error of each
// category, through main() as bin/spinlab.js runs it. Real failures against the simulator where there is one to
// cause; the two a test cannot cause honestly (a request cancelled under a command, a bug) come from a stubbed call.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { BIN } from '../helpers/cliChild';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { connect, SIM_PASSWORD } from '../helpers/simClient';
import { mainCli } from '../helpers/cliInProcess';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { DbError } from '../../src/db/dbError';
import * as commands from '../../src/cli/commands';
import * as scenarios from '../../src/engine/scenarios';

const READER = { name: 'reader', password: 'Reader-Pw1!', permissions: [] };
const root = path.resolve(__dirname, '..', '..', '..');
const fixture = path.join(root, 'test', 'fixtures', 'experiment-v1.json');

/** Replaces a module's export for one call of `fn` (main.js reads the export at each call). */
async function stubbed<T>(mod: object, name: string, value: unknown, fn: () => Promise<T>): Promise<T> {
  const m = mod as Record<string, unknown>;
  const saved = m[name];
  m[name] = value;
  try {
    return await fn();
  } finally {
    m[name] = saved;
  }
}

describe("spinlab exits with its error category's code", function () {
  this.timeout(120_000);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-exit-'));
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('user input: 2 (export with nothing asked)', async () => {
    const r = await mainCli(['export', fixture], {});
    assert.equal(r.code, 2, r.output);
    assert.match(r.output, /^spinlab: Say what to write/);
  });

  it('connection: 3 (nothing listening on the port)', async () => {
    const r = await mainCli(['topology', '-c', 'Server=127.0.0.1,1;User ID=sa;Password=x;Encrypt=false;Connect Timeout=10'], {});
    assert.equal(r.code, 3, r.output);
    assert.match(r.output, /could not be reached/);
  });

  it('connection: 3 (a server that takes the socket but never answers the login: a timeout)', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as net.AddressInfo;
      const r = await mainCli(['topology', '-c', `Server=127.0.0.1,${port};User ID=sa;Password=x;Encrypt=false;Connect Timeout=2`], {});
      assert.equal(r.code, 3, r.output);
      // It was reached: something accepted the connection, and never answered.
      assert.match(r.output, /accepted the TCP connection but did not answer/);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('user-input: 2 (export --csv into a path that is a file: refused before anything is written)', async () => {
    const file = path.join(work, 'a-file');
    fs.writeFileSync(file, '');
    const r = await mainCli(['export', fixture, '--csv', file], {});
    assert.equal(r.code, 2, r.output);
    assert.match(r.output, /--csv .*a-file is a file; --csv takes a folder/);
  });

  it('files: 5 (export --csv under /proc, where no folder can be made: it ends, it does not hang)', function () {
    if (!fs.existsSync('/proc/self')) this.skip(); // no /proc on this platform
    // A child process with a time limit: a hang here is a synchronous loop that no mocha timeout could interrupt.
    const r = spawnSync(process.execPath, [BIN, 'export', fixture, '--csv', '/proc/spinlab-no-such'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.signal, null, 'spinlab export did not end within 30 s');
    assert.equal(r.status, 5, r.stdout + r.stderr);
    assert.match(r.stderr + r.stdout, /Could not write \/proc\/spinlab-no-such/);
  });

  it('cancelled: 130 (a request cancelled under the command)', async () => {
    const cancelled = () => Promise.reject(new DbError('cancelled', undefined, 'ECANCEL', undefined, undefined, []));
    const r = await stubbed(commands, 'topologyCommand', cancelled, () =>
      mainCli(['topology', '-c', 'Server=127.0.0.1,1;User ID=sa;Password=x'], {}),
    );
    assert.equal(r.code, 130, r.output);
  });

  it('internal: 6, one line and no stack (an error no category explains)', async () => {
    const bug = () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    };
    const r = await stubbed(scenarios, 'listScenarios', bug, () => mainCli(['scenarios'], { SPINLAB_DEBUG: '' }));
    assert.equal(r.code, 6, r.output);
    assert.equal(
      r.output,
      "spinlab: internal error: Cannot read properties of undefined (reading 'id') (a bug in Spinlock Lab; SPINLAB_DEBUG=1 shows where)\n",
    );
  });

  describe('against the simulator', () => {
    let sim: Simulator;
    before(async () => {
      sim = await startSimulator({ password: SIM_PASSWORD, log: () => {}, logins: [READER] });
    });
    after(() => sim.close());
    const server = () => `Server=127.0.0.1,${sim.port};Encrypt=false`;

    it('connection: 3 (a wrong password: Login failed, 18456)', async () => {
      const r = await mainCli(['topology', '-c', `${server()};User ID=sa;Password=Not-The-Pw1!`], {});
      assert.equal(r.code, 3, r.output);
      assert.match(r.output, /Login failed/);
    });

    it('permission: 4 (a login without VIEW SERVER STATE runs an experiment)', async () => {
      const r = await mainCli(
        [
          'run',
          '--scenario',
          'disk-insert',
          '--threads',
          '1',
          '--duration',
          '1s',
          '--warmup',
          '0s',
          '--no-deploy',
          '--out',
          path.join(work, 'denied'),
        ],
        {
          SPINLAB_CONNECTION: `${server()};User ID=reader`,
          SPINLAB_PASSWORD: READER.password,
          SPINLAB_STATE_DIR: path.join(work, 'state'),
        },
      );
      assert.equal(r.code, 4, r.output);
      assert.match(r.output, /GRANT VIEW SERVER (PERFORMANCE )?STATE TO \[reader\]/);
    });

    it('server: 1 (deploy into a database Spinlock Lab did not create)', async () => {
      // A user's own database (a system one is refused before connecting, with 2).
      const pool = await connect(sim);
      await pool.request().batch('CREATE DATABASE Sales');
      await pool.close();
      const r = await mainCli(['deploy', '--scenario', 'disk-insert', '--lab-db', 'Sales'], {
        SPINLAB_CONNECTION: `${server()};User ID=sa`,
        SPINLAB_PASSWORD: SIM_PASSWORD,
      });
      assert.equal(r.code, 1, r.output);
      assert.match(r.output, /Spinlock Lab did not create it/);
    });
  });
});
