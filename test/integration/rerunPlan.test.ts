// `spinlab rerun` runs only what it has shown: the plan comes from the notebook's record (statements classified again,
// threads, knobs, server), a notebook whose cells disagree with its record says where, nothing runs without a yes
// (--yes, or y on a terminal), and a custom workload's CSV parameters travel with the notebook.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import { programCli } from '../helpers/cliInProcess';
import type { Ask } from '../../src/cli/rerunPlan';
import { observedCalls } from '../../tools/sim/model/custom';
import { parseNotebook } from '../../src/engine/notebook/read';
import { tmp } from '../helpers/common';
import { connString } from '../helpers/simTarget';

/** The CLI in-process; `ask` stands for the terminal (null: there is none, as in CI). */
const cli = (args: string[], ask: Ask | null = null) => programCli(args, { ask });

/** Edits the notebook's metadata record the way a hand (or a merge) would, leaving every cell as it was. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the record as a hand edits it, untyped
function editRecord(file: string, edit: (e: Record<string, any>) => void): void {
  const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(nb.metadata.spinlab.experiments[0]);
  fs.writeFileSync(file, JSON.stringify(nb, null, 1));
}

const experimentsIn = (file: string) => parseNotebook(fs.readFileSync(file, 'utf8')).record.experiments.length;
const SELECT = 'SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC';
const UPDATE = 'UPDATE dbo.important SET x = 0';

describe('spinlab rerun: the plan first, and nothing run without a yes', function () {
  this.timeout(120_000);

  it('an edited statement is shown in full and classified as a write; refused without a terminal or --yes, declined at n, run with --yes', () =>
    withSim({}, async (sim) => {
      const dir = tmp('rerun-plan');
      const nb = path.join(dir, 'reads.ipynb');
      const made = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        SELECT,
        '--threads',
        '2',
        '--iterations',
        '3',
        '--warmup',
        '0s',
        '--out',
        path.join(dir, 'r1'),
        '--notebook',
        nb,
      ]);
      assert.equal(made.code, 0, made.err);
      editRecord(nb, (e) => {
        e.custom.statements[0].text = UPDATE;
      });
      const updates = () => observedCalls(sim.model).filter((c) => c.text === UPDATE).length;

      const refused = await cli(['rerun', nb, '-c', connString(sim), '--out', path.join(dir, 'r2')]);
      assert.equal(refused.code, 2, refused.err);
      assert.match(refused.out, /1\. WRITE: UPDATE may write/);
      assert.ok(refused.out.includes(`       ${UPDATE}\n`), 'the statement is shown in full');
      assert.match(refused.out, /^WARNING: this notebook does not show what it will run/);
      assert.match(
        refused.out,
        /the T-SQL cell of statement 1: line 1 shows "SELECT TOP 5 .*" where the record says "UPDATE dbo\.important SET x = 0"/,
      );
      assert.match(
        refused.out,
        /The record labels this workload "reads only", but checked now statement 1 is a write \(UPDATE may write\)/,
      );
      assert.match(refused.err, /not run: read the plan above, then pass --yes/);
      assert.equal(updates(), 0, 'nothing was sent');
      assert.equal(experimentsIn(nb), 1);

      const questions: string[] = [];
      const declined = await cli(['rerun', nb, '-c', connString(sim), '--out', path.join(dir, 'r3')], async (q) => {
        questions.push(q);
        return false;
      });
      assert.equal(declined.code, 2);
      assert.match(questions.join(''), /does not show what it will run .*Run this plan\? \[y\/N\]/);
      assert.equal(updates(), 0, 'declined at the terminal: nothing was sent');

      const dry = await cli(['rerun', nb, '-c', connString(sim), '--dry-run']);
      assert.equal(dry.code, 0);
      assert.equal(updates(), 0, '--dry-run sends nothing');

      const ran = await cli(['rerun', nb, '--yes', '-c', connString(sim), '--out', path.join(dir, 'r4')]);
      assert.match(ran.out, /Added to .* \(2 experiments\)/, ran.err);
      assert.ok(updates() > 0, "with --yes the plan (the record's statement) runs");

      // One experiment per output folder, for a re-run as for a run: a used --out is refused before the plan is shown.
      const reused = await cli(['rerun', nb, '--yes', '-c', connString(sim), '--out', path.join(dir, 'r4')]);
      assert.equal(reused.code, 2, reused.err);
      assert.match(reused.err, /--out .*r4.* (already holds|is not empty)/);
      assert.equal(experimentsIn(nb), 2, 'the refused re-run added nothing');
    }));

  it("an edited thread list: the plan shows the record's threads and names the cells that still say 2", () =>
    withSim({}, async (sim) => {
      const dir = tmp('rerun-plan');
      const nb = path.join(dir, 'two.ipynb');
      const made = await cli([
        'run',
        '-c',
        connString(sim),
        '--scenario',
        'disk-insert',
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
        '--title',
        'Disk insert: 2 threads',
        '--out',
        path.join(dir, 'r1'),
        '--notebook',
        nb,
      ]);
      assert.equal(made.code, 0, made.err);
      const clean = await cli(['rerun', nb, '-c', connString(sim), '--dry-run']);
      assert.equal(clean.code, 0);
      assert.doesNotMatch(clean.out, /WARNING/, 'a notebook as saved agrees with itself');
      assert.match(clean.out, /Threads: +2 \(one run per count\)/);
      assert.match(clean.out, /Changes: +drops and recreates the scenario's tables in the lab database \[SpinlockLab\]/);

      editRecord(nb, (e) => {
        e.load.threads = [64];
      });
      const r = await cli(['rerun', nb, '-c', connString(sim), '--out', path.join(dir, 'r2')]);
      assert.equal(r.code, 2, r.err);
      assert.match(r.out, /Threads: +64 \(one run per count\)/);
      assert.match(r.out, /the Knobs cell: line 3 shows ".*threads 2, .*" where the record says ".*threads 64, /);
      assert.match(r.out, /The title says 2 threads; the record runs 64\./);
      assert.match(r.out, /The recorded results ran 2 threads; the record's load runs 64\./);
      assert.equal(experimentsIn(nb), 1, 'nothing ran');
    }));

  it('CSV parameters travel inside the notebook: the re-run works after the original CSV is deleted', () =>
    withSim({}, async (sim) => {
      const dir = tmp('rerun-plan');
      const csv = path.join(tmp('rerun-plan'), 'ids.csv');
      fs.writeFileSync(csv, 'id\n11\n22\n33\n');
      const text = 'SELECT name FROM sys.dm_os_spinlock_stats WHERE spins > @id';
      const nb = path.join(dir, 'params.ipynb');
      const made = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        text,
        '--params-csv',
        csv,
        '--threads',
        '1',
        '--iterations',
        '3',
        '--warmup',
        '0s',
        '--out',
        path.join(dir, 'r1'),
        '--notebook',
        nb,
      ]);
      assert.equal(made.code, 0, made.err);
      fs.rmSync(csv);
      const before = observedCalls(sim.model).length;
      const r = await cli(['rerun', nb, '--yes', '-c', connString(sim), '--out', path.join(dir, 'r2')]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /Params: +3 rows \(@id\) from ids\.csv, saved inside the notebook/);
      const sent = observedCalls(sim.model)
        .slice(before)
        .filter((c) => c.text === text);
      assert.deepEqual(new Set(sent.map((c) => c.params['@id'])), new Set([11, 22, 33]));
    }));

  it('a CSV too large to embed is found beside the notebook (its path relative to it) after both moved', () =>
    withSim({}, async (sim) => {
      const root = tmp('rerun-plan');
      const a = path.join(root, 'author');
      fs.mkdirSync(path.join(a, 'data'), { recursive: true });
      const ids = Array.from({ length: 60_000 }, (_, i) => 100_000 + i);
      fs.writeFileSync(path.join(a, 'data', 'big.csv'), `id\n${ids.join('\n')}\n`);
      const text = 'SELECT name FROM sys.dm_os_spinlock_stats WHERE spins > @id';
      const made = await cli([
        'run',
        '-c',
        connString(sim),
        '--sql',
        text,
        '--params-csv',
        path.join(a, 'data', 'big.csv'),
        '--threads',
        '1',
        '--iterations',
        '2',
        '--warmup',
        '0s',
        '--params-order',
        'round-robin',
        '--out',
        path.join(root, 'r1'),
        '--notebook',
        path.join(a, 'big.ipynb'),
      ]);
      assert.equal(made.code, 0, made.err);
      assert.ok(fs.statSync(path.join(a, 'big.ipynb')).size < 200_000, 'the large file is not copied into the notebook');
      const b = path.join(root, 'colleague');
      fs.renameSync(a, b);
      const r = await cli(['rerun', path.join(b, 'big.ipynb'), '--yes', '-c', connString(sim), '--out', path.join(root, 'r2')]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /Params: +60000 rows \(@id\) read from data\/big\.csv relative to the notebook \(over 256 KB, so not embedded\)/);
      assert.match(r.out, /Added to .* \(2 experiments\)/);
    }));
});
