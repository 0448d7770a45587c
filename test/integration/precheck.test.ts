// Checked before connecting: `spinlab run`, `watch` and `stacks` as a user runs them (a child process), pointed at a
// port where nothing listens, refuse each bad input with its own message and exit 2: the message is the check's, not
// a connection error, no stack trace is printed, and the working folder is left as it was. An --out folder that holds
// a finished experiment is refused rather than mixed with a second one. An experiment whose record cannot be written
// still releases its locks and closes its connection (it used to keep the process alive).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { BIN } from '../helpers/cliChild';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { runExperiment, type ExperimentOptions } from '../../src/engine/experiment';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { tmp } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';

/** A loopback port nothing listens on: a connection attempt there fails at once with ECONNREFUSED. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function spinlab(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, SPINLAB_STATE_DIR: path.join(cwd, '.state'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
    });
    proc.stderr.on('data', (d) => {
      out += d;
    });
    proc.on('exit', (code) => resolve({ code, out }));
  });
}

/** Every path under `dir`, folders marked with a trailing slash. */
function tree(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .map(
      (d) => path.relative(dir, path.join(d.parentPath ?? (d as unknown as { path: string }).path, d.name)) + (d.isDirectory() ? '/' : ''),
    )
    .sort();
}

describe('spinlab refuses bad input before connecting', function () {
  this.timeout(120_000);
  let cwd: string;
  let conn: string;
  before(async () => {
    conn = `Server=127.0.0.1,${await closedPort()};User ID=sa;Password=x;Encrypt=false`;
  });
  beforeEach(() => {
    cwd = tmp('precheck');
    fs.writeFileSync(path.join(cwd, 'afile'), 'x');
    fs.mkdirSync(path.join(cwd, 'folder'));
    fs.mkdirSync(path.join(cwd, 'used'));
    fs.writeFileSync(path.join(cwd, 'used', 'samples.jsonl'), '{"run":0}\n');
  });

  const cases: [string, string[], RegExp][] = [
    [
      'a misspelt spinlock in a gate',
      ['run', '--scenario', 'disk-insert', '--assert', 'LOGCACHE_ACESS.spins_per_row<50'],
      /LOGCACHE_ACESS is not a spinlock Spinlock Lab knows; did you mean LOGCACHE_ACCESS\?/,
    ],
    [
      'a misspelt wait in a gate',
      ['run', '--scenario', 'disk-insert', '--assert', 'WRITELGO.wait_ms_per_row<1'],
      /did you mean WRITELOG\?/,
    ],
    ['p99 in server-loop', ['run', '--scenario', 'disk-insert', '--assert', 'p99<5ms'], /server-loop run has no per-call latency/],
    [
      'calls_per_sec on a preset',
      ['run', '--preset', 'writelog', '--assert', 'calls_per_sec>1'],
      /calls_per_sec counts the calls of a custom workload/,
    ],
    ['--iterations with a scenario', ['run', '--scenario', 'disk-insert', '--iterations', '5'], /--iterations goes with a custom workload/],
    ['--think-time with a preset', ['run', '--preset', 'writelog', '--think-time', '1ms'], /--think-time goes with a custom workload/],
    [
      '--client-workers in server-loop',
      ['run', '--scenario', 'disk-insert', '--client-workers', '2'],
      /--client-workers sets the client threads of --mode client-loop/,
    ],
    [
      '--client-path in server-loop',
      ['run', '--scenario', 'disk-insert', '--client-path', 'driver'],
      /--client-path chooses how the client loop sends its calls/,
    ],
    ['an empty --threads', ['run', '--scenario', 'disk-insert', '--threads', ''], /--threads was given empty/],
    ['a --threads of ","', ['run', '--scenario', 'disk-insert', '--threads', ','], /--threads: thread list ",": "" is not a number/],
    [
      '--stacks-duration without --stacks',
      ['run', '--scenario', 'disk-insert', '--stacks-duration', '5s'],
      /--stacks-duration goes with --stacks/,
    ],
    ['--stacks on a misspelt spinlock', ['run', '--scenario', 'disk-insert', '--stacks', 'XDESMRG'], /did you mean XDESMGR\?/],
    [
      '--stacks-duration longer than the run',
      ['run', '--scenario', 'disk-insert', '--stacks', 'XDESMGR', '--duration', '5s', '--stacks-duration', '10s'],
      /does not fit in --duration 5s/,
    ],
    [
      '--rows with --duration',
      ['run', '--scenario', 'disk-insert', '--rows', '1000', '--duration', '5s'],
      /Give --duration or --rows, not both/,
    ],
    ['--set with a custom workload', ['run', '--sql', 'SELECT 1', '--set', 'x=1'], /a custom workload has none/],
    [
      '--repeat 0 on a preset',
      ['run', '--preset', 'writelog', '--repeat', '0'],
      /--repeat 0: write a whole number of runs .* from 1 to 100/,
    ],
    ['--repeat 2.5 on a custom workload', ['run', '--sql', 'SELECT 1', '--repeat', '2.5'], /--repeat 2\.5: write a whole number/],
    ['--out that is a file', ['run', '--scenario', 'disk-insert', '--out', 'afile'], /--out afile is a file, not a folder/],
    ['--out under a file', ['run', '--scenario', 'disk-insert', '--out', 'afile/res'], /is a file, so no folder can be made under it/],
    ['--out under /dev/null', ['run', '--scenario', 'disk-insert', '--out', '/dev/null/res'], /\/dev\/null is a file/],
    [
      '--out that holds another experiment',
      ['run', '--scenario', 'disk-insert', '--out', 'used'],
      /--out used already holds files \(samples\.jsonl\).*used-2/,
    ],
    ['--notebook that is a folder', ['run', '--scenario', 'disk-insert', '--notebook', 'folder'], /--notebook folder is a folder/],
    [
      '--notebook in a folder that does not exist',
      ['run', '--scenario', 'disk-insert', '--notebook', 'nowhere/e.ipynb'],
      /the folder .*nowhere does not exist/,
    ],
    ['--notebook without .ipynb', ['run', '--scenario', 'disk-insert', '--notebook', 'e.json'], /ends in \.ipynb \(e\.g\. e\.ipynb\)/],
    ['watch --out that is a file', ['watch', '--out', 'afile'], /--out afile is a file/],
    ['watch --mark without --compare', ['watch', '--mark', 'x'], /--mark goes with --compare/],
    ['stacks on a misspelt spinlock', ['stacks', '--spinlock', 'LOGCACHE_ACESS'], /did you mean LOGCACHE_ACCESS\?/],
    ['stacks --export to a folder', ['stacks', '--spinlock', 'XDESMGR', '--export', 'folder'], /--export folder is a folder/],
    [
      'stacks --add-to a folder without a record',
      ['stacks', '--spinlock', 'XDESMGR', '--add-to', 'folder'],
      /experiment\.json does not exist/,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: exit 2 with what to do, no connection, nothing left behind`, async () => {
      const before = tree(cwd);
      const r = await spinlab(cwd, [...args, '-c', conn]);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, message);
      assert.doesNotMatch(r.out, /connecting to|Failed to connect|ECONNREFUSED/);
      assert.doesNotMatch(r.out, /^\s+at /m, 'no stack trace');
      assert.deepEqual(tree(cwd), before);
    });
  }

  it('a run that fails to connect leaves no output folder behind (the default one or --out)', async () => {
    const before = tree(cwd);
    for (const extra of [[], ['--out', 'res/deeper']]) {
      const r = await spinlab(cwd, ['run', '--scenario', 'disk-insert', '--threads', '1', '--duration', '2s', '-c', conn, ...extra]);
      assert.equal(r.code, 3, `a connection error: ${r.out}`);
      assert.match(r.out, /ECONNREFUSED/);
    }
    assert.deepEqual(tree(cwd), before);
  });

  it('--any-name lets a gate name a spinlock the catalogue lacks (then the run goes on to connect)', async () => {
    const r = await spinlab(cwd, [
      'run',
      '--scenario',
      'disk-insert',
      '--assert',
      'NEW_IN_VNEXT.spins_per_row<1',
      '--any-name',
      '-c',
      conn,
    ]);
    assert.equal(r.code, 3, `a connection error: ${r.out}`);
    assert.match(r.out, /ECONNREFUSED/);
  });
});

describe('one experiment per output folder', function () {
  this.timeout(180_000);
  it("a second run into a finished experiment's --out is refused, and the first experiment's files are untouched", () =>
    withSim({}, async (sim) => {
      const cwd = tmp('reuse');
      const env = { SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`, SPINLAB_PASSWORD: SIM_PASSWORD };
      const args = [
        'run',
        '--scenario',
        'disk-insert',
        '--threads',
        '1',
        '--duration',
        '1s',
        '--warmup',
        '0s',
        '--interval',
        '250ms',
        '--set',
        'seed_rows=0',
        '--out',
        'res',
      ];
      const first = await spinlab(cwd, args, env);
      assert.equal(first.code, 0, first.out);
      const files = ['experiment.json', 'samples.jsonl'].map((f) => fs.readFileSync(path.join(cwd, 'res', f), 'utf8'));
      const second = await spinlab(cwd, args, env);
      assert.equal(second.code, 2, second.out);
      assert.match(second.out, /--out res already holds files \(experiment\.json, samples\.jsonl\): one experiment per folder.*res-2/);
      assert.deepEqual(
        ['experiment.json', 'samples.jsonl'].map((f) => fs.readFileSync(path.join(cwd, 'res', f), 'utf8')),
        files,
      );
    }));

  it('an experiment whose record cannot be written fails and releases its locks and connection', () =>
    withSim({}, async (sim) => {
      const target = targetFor(sim);
      const scenario = getScenario('disk-insert');
      const o = (outDir: string): ExperimentOptions => ({
        target,
        scenarioId: scenario.id,
        parameters: { ...defaultParameters(scenario), seed_rows: 0 },
        labDatabase: 'SpinlockLab',
        load: { mode: 'server-loop', threads: [1], durationMs: 1000, rows: null, warmupMs: 0, intervalMs: 250 },
        knobs: {},
        outDir,
        stateDir: tmp('state'),
      });
      const blocked = tmp('blocked');
      fs.mkdirSync(path.join(blocked, 'experiment.json')); // a folder where the record goes: every write of it fails
      await assert.rejects(runExperiment(o(blocked), new AbortController().signal), /EISDIR/);
      // The lab's lock went with the closed session: the next experiment on the same lab runs.
      const { experiment } = await runExperiment(o(tmp('next')), new AbortController().signal);
      assert.equal(experiment.status, 'completed');
    }));
});
