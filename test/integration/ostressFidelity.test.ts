// A pasted ostress line does what ostress does (issue #45): each of -n sessions runs the whole -i file, every batch in
// order, -r times (3 batches x 10 iterations x 2 sessions = 60 batches, not 20 calls taking the batches in turn), and
// the plan printed before running says so. The T-SQL bundle exported from that run gives an ostress line that
// reproduces it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { programCli } from '../helpers/cliInProcess';
import { observedCalls } from '../../tools/sim/model/custom';
import { tmp, readExperiment } from '../helpers/common';

const BATCHES = ['SELECT 1 AS first_batch', 'SELECT 2 AS second_batch', 'SELECT 3 AS third_batch'];

describe('spinlab ostress runs what ostress runs', function () {
  this.timeout(120_000);

  it('-i three.sql -n2 -r10: 60 batches, each session running the file in order 10 times; the plan says so first', () =>
    withSim({}, async (sim) => {
      const work = tmp('ostress');
      const file = path.join(work, 'three.sql');
      fs.writeFileSync(file, BATCHES.join('\nGO\n') + '\nGO\n');
      const dir = path.join(work, 'out');
      const r = await programCli([
        'ostress',
        `-S127.0.0.1,${sim.port}`,
        '-Usa',
        `-P${SIM_PASSWORD}`,
        `-i${file}`,
        '-n2',
        '-r10',
        '-q',
        `-o${dir}`,
      ]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /Equivalent: spinlab run .* --threads 2 --iterations 10 .*--per-iteration all/);
      assert.match(r.err, /2 sessions x 10 iterations x 3 batches = 60 batches/);
      const e = readExperiment(dir);
      assert.equal(e.runs[0].custom?.calls, 60);
      const mine = observedCalls(sim.model).filter((c) => BATCHES.includes(c.text));
      assert.equal(mine.length, 60);
      const bySession = new Map<number, string[]>();
      for (const c of mine) bySession.set(c.spid, [...(bySession.get(c.spid) ?? []), c.text]);
      assert.equal(bySession.size, 2);
      for (const texts of bySession.values()) assert.deepEqual(texts, Array.from({ length: 10 }, () => BATCHES).flat());

      // The bundle exported from this run reproduces it: the same -n, -r and file, and the spinlab line's own flag.
      const out = path.join(work, 'tsql');
      const x = await programCli(['export', dir, '--tsql', out]);
      assert.equal(x.code, 0, x.err);
      const lines = fs.readFileSync(path.join(out, 'load-commands.txt'), 'utf8');
      assert.match(lines, /ostress\.exe .* -n2 -r10 -q -i"03-workload\.sql"/);
      assert.match(lines, /--iterations 10 .*--per-iteration all|--per-iteration all .*--iterations 10/);
      const workload = fs.readFileSync(path.join(out, '03-workload.sql'), 'utf8');
      // ostress runs every batch of its file each iteration: the file holds the workload's batches and no others.
      const batches = workload.split(/^GO$/m).filter((b) => b.replace(/--.*$/gm, '').trim());
      assert.equal(batches.length, 3, workload);
    }));
});
