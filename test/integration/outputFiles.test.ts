// One rule for every file a command writes: a file it did not create for this run is never replaced unless told. An
// existing --notebook is refused before anything connects (exit 2), naming --add-to (the experiment is added beside
// those in it, as rerun adds) and --force (replaced); export's --csv and --tsql folders keep the files in them unless
// --force, and a --csv that looks like a file name (exp.csv) is refused rather than made a folder; stacks --export is
// new unless --force. stacks --add-to --run counts runs from 1, as `spinlab run` prints them ("run 2/6").
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { mainCli } from '../helpers/cliInProcess';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { readExperiment, tmp } from '../helpers/common';
import { experiment } from '../helpers/builders';
import { writeNotebookFile } from '../../src/engine/notebook/export';
import { readNotebookFile } from '../../src/engine/notebook/read';

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const ids = (file: string) => readNotebookFile(file).record.experiments.map((e) => e.id);

describe('a command never replaces a file it did not write for this run, unless told', function () {
  this.timeout(120_000);
  let dir: string;
  let env: Record<string, string>;
  let base: string;
  let g1: string;
  const at = (f: string) => path.join(dir, f);
  const cli = (args: string[]) => mainCli(args, env);

  before(async () => {
    env = { SPINLAB_CONNECTION: `Server=127.0.0.1,${await closedPort()};User ID=sa;Encrypt=false`, SPINLAB_PASSWORD: 'x' };
  });
  beforeEach(() => {
    dir = tmp('outfiles');
    env.SPINLAB_STATE_DIR = at('.state');
    // The issue's notebook: an experiment and its re-run, two experiments a careless export would replace.
    base = at('base.ipynb');
    writeNotebookFile(base, [experiment('base', [1, 2]), { ...experiment('base-rerun', [1, 2]), title: 'Re-run: base' }]);
    g1 = at('g1');
    fs.mkdirSync(g1);
    fs.writeFileSync(path.join(g1, 'experiment.json'), JSON.stringify(experiment('g1', [1, 2])));
  });

  it('export --notebook onto a notebook: refused, naming --add-to and --force, and the notebook is untouched', async () => {
    const before = fs.readFileSync(base, 'utf8');
    const r = await cli(['export', g1, '--notebook', base]);
    assert.equal(r.code, 2, r.output);
    assert.match(
      r.stderr,
      /--notebook .*base\.ipynb already exists \(a Spinlock Lab notebook of 2 experiments\): add this experiment to it with --add-to, replace it with --force, or name a new file \(e\.g\. .*base-2\.ipynb\)/,
    );
    assert.equal(fs.readFileSync(base, 'utf8'), before);
  });

  it('export --add-to adds the experiment beside those in the notebook (either spelling); --force replaces it', async () => {
    let r = await cli(['export', g1, '--notebook', base, '--add-to']);
    assert.equal(r.code, 0, r.output);
    assert.match(r.stdout, /Added to .*base\.ipynb \(3 experiments\)/);
    assert.deepEqual(ids(base), ['base', 'base-rerun', 'g1']);
    const other = at('other.ipynb');
    writeNotebookFile(other, [experiment('other', [4])]);
    r = await cli(['export', '--add-to', other, g1]);
    assert.equal(r.code, 0, r.output);
    assert.deepEqual(ids(other), ['other', 'g1']);
    r = await cli(['export', g1, '--notebook', base, '--force']);
    assert.equal(r.code, 0, r.output);
    assert.deepEqual(ids(base), ['g1']);
  });

  it('export --add-to a notebook Spinlock Lab did not write, or with --force, or naming two notebooks: refused', async () => {
    const foreign = at('foreign.ipynb');
    fs.writeFileSync(foreign, JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [] }));
    const cases: [string[], RegExp][] = [
      [
        ['--add-to', foreign],
        /foreign\.ipynb is a notebook Spinlock Lab did not save: only a notebook of Spinlock Lab experiments takes another/,
      ],
      [['--notebook', base, '--add-to', '--force'], /--add-to adds to the notebook and --force replaces it: give one of them/],
      [['--notebook', base, '--add-to', foreign], /name two notebooks: give one/],
      [['--add-to'], /--add-to adds this experiment to a notebook: name it/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['export', g1, ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.output}`);
      assert.match(r.stderr, message);
    }
    assert.deepEqual(ids(base), ['base', 'base-rerun']);
  });

  for (const [name, args] of [
    ['run', ['run', '--scenario', 'disk-insert']],
    ['run --preset', ['run', '--preset', 'writelog']],
    ['tune', ['tune', '--scenario', 'disk-insert']],
    ['watch', ['watch', '--duration', '2s']],
  ] as const) {
    it(`${name} --notebook onto a notebook: refused before connecting (exit 2), the notebook untouched`, async () => {
      const before = fs.readFileSync(base, 'utf8');
      const r = await cli([...args, '--notebook', base]);
      assert.equal(r.code, 2, r.output);
      assert.match(r.stderr, /base\.ipynb already exists .*replace it with --force/);
      assert.doesNotMatch(r.output, /connecting to|ECONNREFUSED/);
      assert.equal(fs.readFileSync(base, 'utf8'), before);
      assert.deepEqual(fs.readdirSync(dir).sort(), ['base.ipynb', 'g1'], 'no output folder left');
    });
  }

  it('run --add-to an experiment folder (what stacks --add-to takes): refused, saying --add-to takes a notebook here', async () => {
    for (const target of [g1, path.join(g1, 'experiment.json')]) {
      const r = await cli(['run', '--scenario', 'disk-insert', '--add-to', target]);
      assert.equal(r.code, 2, r.output);
      assert.match(
        r.stderr,
        /here --add-to takes the notebook \(\.ipynb\) to add this experiment to; an experiment's folder is what spinlab stacks --add-to takes/,
      );
    }
  });

  it('watch --servers --out naming a file: refused before anything listens or connects', async () => {
    const servers = at('servers.yml');
    fs.writeFileSync(servers, '- name: a\n  server: 127.0.0.1\n  port: 1\n  user: sa\n  passwordEnv: SPINLAB_PASSWORD\n');
    fs.writeFileSync(at('afile'), 'x');
    const r = await cli(['watch', '--servers', servers, '--prometheus', '127.0.0.1:0', '--out', at('afile')]);
    assert.equal(r.code, 2, r.output);
    assert.match(r.stderr, /--out .*afile is a file, not a folder/);
    assert.doesNotMatch(r.output, /metrics on|connecting to/);
  });

  it('watch has no --add-to (a watch notebook holds one watch); its refusal names --force only', async () => {
    const r = await cli(['watch', '--notebook', base]);
    assert.equal(r.code, 2, r.output);
    assert.doesNotMatch(r.stderr, /--add-to/);
  });

  it('run --add-to and run --notebook --force are accepted: the run goes on to connect', async () => {
    for (const extra of [
      ['--add-to', base],
      ['--notebook', base, '--force'],
    ]) {
      const r = await cli(['run', '--scenario', 'disk-insert', '--threads', '1', '--duration', '2s', ...extra]);
      assert.equal(r.code, 3, r.output);
    }
    assert.deepEqual(ids(base), ['base', 'base-rerun'], 'a run that never ran writes nothing');
  });

  it('export --csv exp.csv: refused with the fix, and no folder named exp.csv is made', async () => {
    const r = await cli(['export', g1, '--csv', at('exp.csv')]);
    assert.equal(r.code, 2, r.output);
    assert.match(
      r.stderr,
      /--csv .*exp\.csv looks like a file name, but --csv takes a folder: it writes ticks\.csv and deltas\.csv into it\. Name a folder \(e\.g\. --csv .*exp\)/,
    );
    assert.equal(fs.existsSync(at('exp.csv')), false);
    // A folder of that name made on purpose is a folder.
    fs.mkdirSync(at('exp.csv'));
    assert.equal((await cli(['export', g1, '--csv', at('exp.csv')])).code, 0);
    assert.ok(fs.existsSync(path.join(at('exp.csv'), 'ticks.csv')));
  });

  it('export --csv and --tsql keep the files already in their folders unless --force', async () => {
    for (const [flag, file] of [
      ['--csv', 'ticks.csv'],
      ['--tsql', '01-deploy.sql'],
    ]) {
      const out = at(`again${flag}`);
      assert.equal((await cli(['export', g1, flag, out])).code, 0);
      fs.writeFileSync(path.join(out, file), 'mine');
      const r = await cli(['export', g1, flag, out]);
      assert.equal(r.code, 2, r.output);
      assert.match(
        r.stderr,
        new RegExp(`${flag} .* already holds ${file.replace('.', '\\.')}.*: replace them with --force, or name a new folder`),
      );
      assert.equal(fs.readFileSync(path.join(out, file), 'utf8'), 'mine');
      assert.equal((await cli(['export', g1, flag, out, '--force'])).code, 0);
      assert.notEqual(fs.readFileSync(path.join(out, file), 'utf8'), 'mine');
    }
  });

  it('export with one bad path writes nothing at all (no notebook written before --csv is refused)', async () => {
    const r = await cli(['export', g1, '--notebook', at('new.ipynb'), '--tsql', at('scripts.sql')]);
    assert.equal(r.code, 2, r.output);
    assert.match(r.stderr, /--tsql .*scripts\.sql looks like a file name/);
    assert.equal(fs.existsSync(at('new.ipynb')), false);
  });

  it('stacks --export onto an existing file: refused before connecting unless --force', async () => {
    const xml = at('stacks.xml');
    fs.writeFileSync(xml, 'mine');
    let r = await cli(['stacks', '--spinlock', 'XDESMGR', '--export', xml]);
    assert.equal(r.code, 2, r.output);
    assert.match(r.stderr, /--export .*stacks\.xml already exists: replace it with --force, or name a new file/);
    r = await cli(['stacks', '--spinlock', 'XDESMGR', '--export', xml, '--force']);
    assert.equal(r.code, 3, `accepted, then the connection fails: ${r.output}`);
    assert.equal(fs.readFileSync(xml, 'utf8'), 'mine');
  });

  it('stacks --add-to --run counts from 1 as spinlab run printed it; 0 and a run it does not have are refused', async () => {
    let r = await cli(['stacks', '--spinlock', 'XDESMGR', '--add-to', g1, '--run', '0']);
    assert.equal(r.code, 2, r.output);
    assert.match(r.stderr, /--run 0: runs are numbered from 1, as spinlab run printed them \("run 1\/6" is the first\): write --run 1/);
    r = await cli(['stacks', '--spinlock', 'XDESMGR', '--add-to', g1, '--run', '3']);
    assert.equal(r.code, 2, r.output);
    assert.match(r.stderr, /--run 3: .*has no run 3 \(its runs, numbered from 1 as spinlab run printed them: 1, 2\)/);
    r = await cli(['stacks', '--spinlock', 'XDESMGR', '--add-to', g1, '--run', '2']);
    assert.equal(r.code, 3, `run 2 of 2 is accepted, then the connection fails: ${r.output}`);
    r = await cli(['stacks', '--spinlock', 'XDESMGR', '--run', '2']);
    assert.equal(r.code, 2, r.output);
    assert.match(r.stderr, /--run goes with --add-to DIR/);
  });
});

describe('against the simulator: --add-to on a run, and --run N of stacks', function () {
  this.timeout(240_000);
  const SHORT = ['--scenario', 'disk-insert', '--threads', '1,2', '--duration', '2s', '--warmup', '0s', '--interval', '500ms'];

  it('run --notebook NB --add-to: the new experiment joins the two already in it; without, NB is refused and kept', () =>
    withSim({}, async (sim) => {
      const dir = tmp('addto');
      const env = {
        SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
        SPINLAB_PASSWORD: SIM_PASSWORD,
        SPINLAB_STATE_DIR: path.join(dir, '.state'),
      };
      const nb = path.join(dir, 'pw2.ipynb');
      writeNotebookFile(nb, [experiment('pw2', [1]), { ...experiment('pw2-rerun', [1]), title: 'Re-run: pw2' }]);
      const refused = await mainCli(['run', ...SHORT, '--notebook', nb], env);
      assert.equal(refused.code, 2, refused.output);
      assert.deepEqual(ids(nb), ['pw2', 'pw2-rerun']);
      const out = path.join(dir, 'res');
      const r = await mainCli(['run', ...SHORT, '--set', 'seed_rows=0', '--notebook', nb, '--add-to', '--out', out], env);
      assert.equal(r.code, 0, r.output);
      assert.match(r.stdout, /Added to .*pw2\.ipynb \(3 experiments\)/);
      assert.deepEqual(ids(nb).slice(0, 2), ['pw2', 'pw2-rerun']);
      assert.equal(ids(nb)[2], readExperiment(out).id);
    }));

  it('stacks --add-to DIR --run 2 attaches the capture to the run printed as "run 2/2"', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }] }, async (sim) => {
      const dir = tmp('stacksrun');
      const env = {
        SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
        SPINLAB_PASSWORD: SIM_PASSWORD,
        SPINLAB_STATE_DIR: path.join(dir, '.state'),
      };
      const out = path.join(dir, 'res');
      const run = await mainCli(['run', ...SHORT, '--set', 'seed_rows=0', '--out', out], env);
      assert.equal(run.code, 0, run.output);
      assert.match(run.output, /run 2\/2/);
      const r = await mainCli(['stacks', '--spinlock', 'LOGCACHE_ACCESS', '--duration', '1s', '--add-to', out, '--run', '2'], env);
      assert.equal(r.code, 0, r.output);
      assert.match(r.stdout, /Added to .*experiment\.json, run 2/);
      const e = readExperiment(out);
      assert.equal(e.runs.find((x) => x.index === 1)?.stacks?.length, 1, 'on the second run (index 1)');
      assert.equal(e.runs.find((x) => x.index === 0)?.stacks, undefined);
    }));
});
