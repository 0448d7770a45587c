// Notebooks end to end through the CLI against the simulator: `spinlab run --notebook`, `spinlab export`, and
// `spinlab rerun` (the round trip: save, open, re-run, the re-run added with a comparison). The written notebooks are
// checked by tools no one here wrote: nbformat's validator and `jupyter nbconvert --to html` (charts as images).
// A known password is used throughout and must appear in no file written and nothing printed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import { mainCli } from '../helpers/cliInProcess';
import { parseNotebook } from '../../src/engine/notebook/read';
import { tmp } from '../helpers/common';

const PASSWORD = 'Nb-Secret-Pw-7f3k!';

const cli = mainCli;

function python(code: string, ...args: string[]): { status: number | null; out: string } {
  const r = spawnSync('python3', ['-c', code, ...args], { encoding: 'utf8' });
  if (r.error) throw new Error(`python3 is needed for this test (pip install nbformat nbconvert): ${r.error.message}`);
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function validateWithNbformat(file: string): void {
  const r = python(
    'import sys, nbformat\nnb = nbformat.read(sys.argv[1], as_version=4)\nnbformat.validate(nb)\nprint("valid", len(nb.cells))',
    file,
  );
  assert.equal(r.status, 0, `nbformat rejects ${file}:\n${r.out}`);
  assert.match(r.out, /valid \d+/);
}

function renderWithNbconvert(file: string, outDir: string): string {
  const r = spawnSync('jupyter', ['nbconvert', '--to', 'html', '--output-dir', outDir, file], { encoding: 'utf8' });
  if (r.error) throw new Error(`jupyter nbconvert is needed for this test (pip install nbconvert): ${r.error.message}`);
  assert.equal(r.status, 0, `nbconvert failed:\n${r.stderr}`);
  return fs.readFileSync(path.join(outDir, path.basename(file).replace(/\.ipynb$/, '.html')), 'utf8');
}

function allFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

it('run --notebook, export, rerun: valid notebooks that render with charts, a re-run compared beside the original, no secret anywhere', () =>
  withSim(
    { logins: [{ name: 'labuser', password: PASSWORD, permissions: ['VIEW SERVER STATE', 'ALTER SETTINGS', 'CREATE ANY DATABASE'] }] },
    async (sim) => {
      const work = tmp('work');
      const state = tmp('state');
      const env = {
        SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=labuser;Encrypt=false`,
        SPINLAB_PASSWORD: PASSWORD,
        SPINLAB_STATE_DIR: state,
      };
      const nbFile = path.join(work, 'experiment.ipynb');
      const run = await cli(
        [
          'run',
          '--scenario',
          'disk-insert',
          '--threads',
          '1,2',
          '--duration',
          '1s',
          '--warmup',
          '0s',
          '--interval',
          '250ms',
          '--set',
          'seed_rows=1000',
          '--set',
          'batch_size=2',
          '--delayed-durability',
          'forced',
          '--affinity',
          'exclude-core0',
          '--title',
          'Batching and core 0',
          '--question',
          'Does freeing core 0 cut LOGCACHE_ACCESS spins?',
          '--out',
          path.join(work, 'run1'),
          '--notebook',
          nbFile,
        ],
        env,
      );
      assert.equal(run.code, 0, run.output);
      validateWithNbformat(nbFile);

      const exported = await cli(
        [
          'export',
          path.join(work, 'run1'),
          '--csv',
          path.join(work, 'csv'),
          '--tsql',
          path.join(work, 'tsql'),
          '--notebook',
          path.join(work, 'exported.ipynb'),
        ],
        env,
      );
      assert.equal(exported.code, 0, exported.output);
      assert.ok(fs.readFileSync(path.join(work, 'csv', 'ticks.csv'), 'utf8').split('\r\n').length > 4);
      assert.match(fs.readFileSync(path.join(work, 'tsql', 'load-commands.txt'), 'utf8'), /ostress\.exe .* -n2 /);
      validateWithNbformat(path.join(work, 'exported.ipynb'));

      const html = renderWithNbconvert(nbFile, path.join(work, 'html'));
      const images = html.match(/<img[^>]*src="data:image\/svg\+xml;base64,/g) ?? [];
      assert.ok(images.length >= 5, `nbconvert's HTML shows the charts as images (found ${images.length})`);
      assert.match(html, /<table>/);

      // The round trip: open the saved notebook, run it again, and find both experiments compared.
      const rerun = await cli(['rerun', nbFile, '--yes', '--out', path.join(work, 'run2')], env);
      assert.equal(rerun.code, 0, rerun.output);
      assert.match(rerun.output, /Added to .* \(2 experiments\)/);
      validateWithNbformat(nbFile);
      const { record, notebook } = parseNotebook(fs.readFileSync(nbFile, 'utf8'));
      assert.equal(record.experiments.length, 2);
      assert.match(record.experiments[1].title, /^Re-run: Batching and core 0/);
      assert.deepEqual(record.experiments[1].knobs.applied.affinity?.spec, 'exclude-core0');
      const summary = notebook.cells.find((c) => c.source.join('').startsWith('## Summary'))!.source.join('');
      assert.match(summary, /original \(A\) against the re-run/);
      const afterRerun = renderWithNbconvert(nbFile, path.join(work, 'html2'));
      assert.ok(
        (afterRerun.match(/<img[^>]*src="data:image\/svg\+xml;base64,/g) ?? []).length > images.length,
        'the re-run adds its charts',
      );

      // A tampered notebook: a clear error, exit 2, nothing run.
      const tampered = JSON.parse(fs.readFileSync(nbFile, 'utf8'));
      tampered.metadata.spinlab.experiments[0].load.threads = ['1; DROP DATABASE master'];
      fs.writeFileSync(path.join(work, 'tampered.ipynb'), JSON.stringify(tampered));
      const bad = await cli(['rerun', path.join(work, 'tampered.ipynb')], env);
      assert.equal(bad.code, 2);
      assert.match(bad.output, /not valid .*edited by hand or damaged/);

      // No secret in any file written (results, notebooks, exports, HTML, the journal folder) or anything printed.
      const written = [...allFiles(work), ...allFiles(state)];
      assert.ok(written.length > 15);
      for (const f of written) {
        const text = fs.readFileSync(f, 'latin1');
        assert.ok(!text.includes(PASSWORD), `the password is in ${f}`);
        assert.ok(!text.includes(Buffer.from(PASSWORD).toString('base64')), `the password (base64) is in ${f}`);
      }
      for (const out of [run.output, exported.output, rerun.output, bad.output]) assert.ok(!out.includes(PASSWORD));
      fs.rmSync(work, { recursive: true, force: true });
      fs.rmSync(state, { recursive: true, force: true });
    },
  )).timeout(180_000);

it("a preset's notebook: its plan, arms and analysis views; re-run on a one-node server it is planned again and says how it adapted", async () => {
  const work = tmp('preset');
  const state = tmp('preset-state');
  const nbFile = path.join(work, 'numa.ipynb');
  await withSim({ topology: '2x4x2', logins: [{ name: 'labuser', password: PASSWORD, permissions: 'all' }] }, async (sim) => {
    const env = {
      SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=labuser;Encrypt=false`,
      SPINLAB_PASSWORD: PASSWORD,
      SPINLAB_STATE_DIR: state,
    };
    const run = await cli(
      [
        'run',
        '--preset',
        'numa-logwriter',
        '--threads',
        '2',
        '--duration',
        '1s',
        '--warmup',
        '0s',
        '--interval',
        '250ms',
        '--set',
        'seed_rows=0',
        '--set',
        'in_memory=false',
        '--repeat',
        '1',
        '--out',
        path.join(work, 'run1'),
        '--notebook',
        nbFile,
      ],
      env,
    );
    assert.equal(run.code, 0, run.output);
  });
  validateWithNbformat(nbFile);
  const html = renderWithNbconvert(nbFile, path.join(work, 'html'));
  assert.match(html, /Preset <code>numa-logwriter<\/code>/);
  assert.match(
    html,
    /Chris Adkin, <em>NUMA, The LOGCACHE_ACCESS Spinlock and The Best Machine for OLTP Workloads<\/em>/,
    'the post is cited by author and title',
  );
  assert.doesNotMatch(html, /000_6b368195e47da490|seed 00\d/, 'never our file name');
  const text = fs.readFileSync(nbFile, 'utf8');
  const { notebook, record } = parseNotebook(text);
  const cells = notebook.cells.map((c) => c.source.join(''));
  assert.ok(
    cells.some((c) => c.startsWith('### A/B: ')),
    'an A/B view',
  );
  assert.ok(
    cells.some((c) => c.startsWith('### Doing the math')),
    'the math view',
  );
  const summary = cells.find((c) => c.startsWith('## Summary'))!;
  assert.match(summary, /\(A\) against .*\(B\), 2 threads: /, 'the summary compares the arms');
  assert.deepEqual([...new Set(record.experiments[0].runs.map((r) => r.arm.label))].length, 2);

  // The colleague's server has one NUMA node: the re-run plans again there and says what it could not do.
  await withSim({ topology: '1x4x2', logins: [{ name: 'labuser', password: PASSWORD, permissions: 'all' }] }, async (sim) => {
    const env = {
      SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=labuser;Encrypt=false`,
      SPINLAB_PASSWORD: PASSWORD,
      SPINLAB_STATE_DIR: state,
    };
    const rerun = await cli(['rerun', nbFile, '--yes', '--out', path.join(work, 'run2')], env);
    assert.equal(rerun.code, 0, rerun.output);
    assert.match(rerun.output, /one NUMA node/i);
  });
  validateWithNbformat(nbFile);
  const after = parseNotebook(fs.readFileSync(nbFile, 'utf8')).record;
  assert.equal(after.experiments.length, 2);
  assert.equal(after.experiments[1].preset?.id, 'numa-logwriter');
  assert.ok(
    after.experiments[1].preset!.notes.some((n) => /NUMA node/i.test(n)),
    JSON.stringify(after.experiments[1].preset!.notes),
  );
  for (const f of allFiles(work)) assert.ok(!fs.readFileSync(f, 'latin1').includes(PASSWORD), `the password is in ${f}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(state, { recursive: true, force: true });
}).timeout(240_000);
