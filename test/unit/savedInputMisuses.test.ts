// Misuses of the commands that read saved files (history, rerun, a --baseline) and of tune's options: each refused
// before any work with what is wrong and what to give instead, and the usage exit code when the mistake is typed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXIT } from '../../src/cli/exitCodes';
import { programCli } from '../helpers/cliInProcess';
import { repeatedPresetExperiment } from '../helpers/repeatedExperiment';
import { experiment } from '../helpers/builders';

describe('saved-file and tune misuses', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-misuse-'));
    fs.mkdirSync(path.join(dir, 'e1'));
    fs.writeFileSync(path.join(dir, 'e1', 'experiment.json'), JSON.stringify(repeatedPresetExperiment()));
    fs.mkdirSync(path.join(dir, 'plain'));
    fs.writeFileSync(path.join(dir, 'plain', 'experiment.json'), JSON.stringify(experiment('2025-03-01T10-00-00-000Z-disk', [2, 4])));
    fs.mkdirSync(path.join(dir, 'nb'));
    fs.writeFileSync(path.join(dir, 'nb', 'experiment.ipynb'), '{}');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('history of paths that do not exist is a usage error', async () => {
    const r = await programCli(['history', path.join(dir, 'nowhere')]);
    assert.equal(r.code, EXIT.usage, r.err);
    assert.match(r.err, /No experiment could be read from/);
  });

  it('rerun of a missing notebook says so without the errno text', async () => {
    const r = await programCli(['rerun', path.join(dir, 'missing.ipynb'), '--dry-run']);
    assert.equal(r.code, EXIT.usage, r.err);
    assert.match(r.err, /missing\.ipynb does not exist: give a notebook \(\.ipynb\) Spinlock Lab saved \(spinlab export DIR --notebook/);
    assert.doesNotMatch(r.err, /ENOENT/);
  });

  it('rerun of a folder names the notebook inside it, or says it has none', async () => {
    const withOne = await programCli(['rerun', path.join(dir, 'nb'), '--dry-run']);
    assert.equal(withOne.code, EXIT.usage, withOne.err);
    assert.match(withOne.err, /nb is a folder; give its notebook: \S*nb\/experiment\.ipynb\./);
    const without = await programCli(['rerun', path.join(dir, 'e1'), '--dry-run']);
    assert.match(without.err, /e1 is a folder and holds no notebook/);
    assert.doesNotMatch(without.err, /EISDIR/);
  });

  it('a gate against a baseline at a thread count it never ran is refused before connecting', async () => {
    const base = path.join(dir, 'plain');
    const run = (threads: string[]) =>
      programCli([
        'run',
        '--scenario',
        'disk-insert',
        ...threads,
        '--duration',
        '2s',
        '--baseline',
        base,
        '--assert',
        'rows_per_sec >= baseline - 5%',
        '-c',
        'Server=127.0.0.1,1;User ID=sa;Password=x',
      ]);
    const r = await run(['--threads', '2,8']);
    assert.equal(r.code, EXIT.usage, r.err);
    assert.match(r.err, /the baseline has no completed run at 8 threads \(it has 2, 4 threads\); run --threads 2,4 to gate against it/);
    // Left out, --threads is 1,2,4: 1 is what the baseline lacks.
    assert.match((await run([])).err, /no completed run at 1 thread \(it has 2, 4 threads\)/);
    // Matching threads pass the check and go on to connect (nothing listens on port 1: the connection exit code).
    assert.equal((await run(['--threads', '4'])).code, EXIT.connection);
  });

  it('tune refuses what its options alone rule out before it prints a plan or connects', async () => {
    const tune = (args: string[]) => programCli(['tune', ...args, '-c', 'Server=127.0.0.1,1;User ID=sa;Password=x']);
    const cases: [string[], RegExp][] = [
      [
        ['--scenario', 'ring-buffer', '--batch-size', '2'],
        /The ring-buffer scenario has no rows-per-transaction parameter \(batch_size\): leave --batch-size out\./,
      ],
      [['--scenario', 'disk-insert', '--batch-size', '5000'], /Rows per transaction must be whole numbers from 1 to 1000; got 5000\./],
      [['--scenario', 'disk-insert', '--objective', 'p99'], /A p99 latency objective needs latency per call/],
    ];
    for (const [args, message] of cases) {
      const r = await tune(args);
      assert.equal(r.code, EXIT.usage, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, message);
      assert.doesNotMatch(r.err, /This tune:|custom workload/, args.join(' '));
    }
  });
});
