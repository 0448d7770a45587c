// `spinlab rerun` of a tune's notebook: a confirmation A/B of the winner (B) against the current settings (A), each at
// its own session count, with the winner's knobs, 3 repetitions interleaved; the plan shown first and nothing run
// without a yes; the confirmation added to the notebook beside the tune with its verdict; the knobs put back.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import { programCli } from '../helpers/cliInProcess';
import { parseNotebook } from '../../src/engine/notebook/read';
import { writeNotebookFile } from '../../src/engine/notebook/export';
import { tmp } from '../helpers/common';
import { connString, knobsNow } from '../helpers/simTarget';
import { tuneExperiment } from '../helpers/tuneExperiment';

describe('spinlab rerun of a tune: a confirmation A/B of the winner against the current settings', function () {
  this.timeout(180_000);

  it('shows the plan (two arms, their knobs and session counts, 3 repetitions), runs only on yes, and adds the verdict', () =>
    withSim({}, async (sim) => {
      const dir = tmp('tune-rerun');
      const file = path.join(dir, 'tune.ipynb');
      const e = tuneExperiment();
      e.scenario = { id: 'disk-insert', parameters: { batch_size: 1, seed_rows: 0 } };
      e.load = { ...e.load, intervalMs: 250 };
      e.tune = {
        ...e.tune!,
        trialMs: 1000,
        warmupMs: 0,
        result: { ...e.tune!.result!, winner: { config: 'c1', threads: 4 }, current: { config: 'c0', threads: 2 } },
      };
      writeNotebookFile(file, [e]);
      const before = await knobsNow(sim);

      const dry = await programCli(['rerun', file, '-c', connString(sim), '--dry-run']);
      assert.equal(dry.code, 0, dry.err);
      assert.match(
        dry.out,
        /Re-run plan for "Confirm the tune's winner: log writer's node \(numa:0\) at 4 sessions against the current settings at 2 sessions"/,
      );
      assert.match(
        dry.out,
        /arm current \(A\), current settings \(2 sessions\): disk-insert with batch_size=1, .*; 2 sessions; affinity unchanged, delayed durability unchanged/,
      );
      assert.match(
        dry.out,
        /arm winner \(B\), winner: log writer's node \(numa:0\) \(4 sessions\): disk-insert .*; 4 sessions; process affinity numa:0, delayed durability unchanged/,
      );
      assert.match(dry.out, /Threads: {3}2, 4 \(each count 3 times/);
      assert.match(dry.out, /Each run: {2}1 s per run, warm-up 0 s/);
      assert.match(dry.out, /for arm winner: process affinity set to numa:0, server-wide \(put back afterwards\)/);
      assert.doesNotMatch(dry.out, /WARNING/);

      const refused = await programCli(['rerun', file, '-c', connString(sim), '--out', path.join(dir, 'r0')]);
      assert.equal(refused.code, 2, refused.err);
      assert.equal(parseNotebook(fs.readFileSync(file, 'utf8')).record.experiments.length, 1, 'nothing ran without a yes');

      const ran = await programCli(['rerun', file, '--yes', '-c', connString(sim), '--out', path.join(dir, 'r1')]);
      assert.equal(ran.code, 0, ran.err);
      assert.match(
        ran.out,
        /Confirmation: the winner \(B, 4 sessions, 3 runs\) against the current settings \(A, 2 sessions, 3 runs\): The winner is /,
      );
      assert.match(ran.out, /Added to .* \(2 experiments\)/);

      const [tune, confirm] = parseNotebook(fs.readFileSync(file, 'utf8')).record.experiments;
      assert.equal(tune.kind, 'tune');
      assert.notEqual(confirm.kind, 'tune');
      assert.match(confirm.title, /^Confirm the tune's winner: /);
      assert.equal(confirm.design!.repeat, 3);
      // Interleaved: each pass runs both arms once before the next pass begins.
      const seq = confirm.design!.sequence;
      assert.equal(seq.length, 6);
      for (let rep = 1; rep <= 3; rep++)
        assert.deepEqual(seq.slice(2 * rep - 2, 2 * rep).sort(), [`current@2#${rep}`, `winner@4#${rep}`], seq.join(' '));
      assert.equal(confirm.runs.filter((r) => r.status === 'completed').length, 6);
      for (const r of confirm.runs) {
        assert.equal(r.threads, r.arm.id === 'winner' ? 4 : 2);
        assert.equal(r.arm.knobs.affinity?.spec, r.arm.id === 'winner' ? 'numa:0' : undefined);
      }
      const nb = fs.readFileSync(file, 'utf8');
      assert.match(nb, /Confirmation: the winner \(B, 4 sessions, 3 runs\)/, "the notebook's summary gives the verdict");
      assert.deepEqual((await knobsNow(sim)).affinity, before.affinity, 'the affinity is back as it was');
    }));

  it('a tune without a result has nothing to confirm: the plan says so and nothing runs', () =>
    withSim({}, async (sim) => {
      const dir = tmp('tune-rerun');
      const file = path.join(dir, 'cancelled.ipynb');
      const e = tuneExperiment();
      e.tune = { ...e.tune!, result: null, stopReason: 'cancelled' };
      writeNotebookFile(file, [e]);
      const r = await programCli(['rerun', file, '--yes', '-c', connString(sim), '--out', path.join(dir, 'r')]);
      assert.notEqual(r.code, 0);
      assert.match(r.err, /The tune found no winner to confirm \(it stopped: cancelled\)/);
    }));
});
