// A full disk under a running experiment (/dev/full answers every write with ENOSPC): the run fails saying which file
// and why, the knobs are put back, the locks are released and the connection closed (the process ends; before, the
// clean-up stopped at the failed write and the experiment's connection kept the process alive), and a half-written
// record never replaces the last good one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { runExperiment, type ExperimentOptions } from '../../src/engine/experiment';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { deployCommand } from '../../src/cli/commands';
import { listJournals } from '../../src/engine/journal';
import type { Experiment } from '../../src/shared/experiment';
import { runWatch } from '../../src/engine/watch/run';
import { readExperiment, tmp } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';

const LAB = 'SpinlockLab';
const FULL = '/dev/full';

function options(sim: Simulator, outDir: string, stateDir: string): ExperimentOptions {
  return {
    target: targetFor(sim),
    scenarioId: 'disk-insert',
    parameters: { ...defaultParameters(getScenario('disk-insert')), seed_rows: 0 },
    labDatabase: LAB,
    load: { mode: 'server-loop', threads: [2, 4], durationMs: 1500, rows: null, warmupMs: 0, intervalMs: 250 },
    knobs: { delayedDurability: 'FORCED' },
    outDir,
    stateDir,
    deploy: false,
  };
}

/** Resolves with the promise's outcome, or fails the test if it has not settled in `ms` (a hang). */
function settles<T>(p: Promise<T>, ms: number): Promise<{ value?: T; error?: Error }> {
  return Promise.race([
    p.then(
      (value) => ({ value }),
      (error: Error) => ({ error }),
    ),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the experiment had not ended after ${ms} ms`)), ms).unref()),
  ]);
}

describe('a full disk during an experiment', () => {
  it('samples.jsonl on a full disk: the run fails naming the file, later runs do not start, knobs and locks are released', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const outDir = tmp('full-samples');
      const stateDir = tmp('full-state');
      fs.symlinkSync(FULL, path.join(outDir, 'samples.jsonl'));
      const r = await settles(runExperiment(options(sim, outDir, stateDir), new AbortController().signal), 60_000);
      assert.equal(r.error, undefined, r.error?.message);
      const e = r.value!.experiment;
      assert.equal(e.status, 'failed');
      assert.equal(e.runs.length, 1, 'the experiment stops at the run that could not save its ticks');
      assert.equal(e.runs[0].status, 'failed');
      assert.match(e.runs[0].events.map((x) => x.message).join('\n'), /Could not write .*samples\.jsonl: the disk is full \(ENOSPC\)/);
      assert.ok(e.runs[0].timeline.length > 0, 'the ticks stay in the record');
      assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'DISABLED', 'delayed durability put back');
      assert.deepEqual(listJournals(stateDir), [], 'no journal left');
      const saved = JSON.parse(fs.readFileSync(path.join(outDir, 'experiment.json'), 'utf8')) as Experiment;
      assert.equal(saved.status, 'failed');
      // The locks went with the experiment: the next one runs.
      const next = await runExperiment(
        { ...options(sim, tmp('full-next'), stateDir), load: { ...options(sim, '', '').load, threads: [1], durationMs: 500 } },
        new AbortController().signal,
      );
      assert.equal(next.experiment.status, 'completed');
    }));

  it('experiment.json on a full disk: the experiment stops with that error after putting the knobs back, and leaves no temporary file', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const outDir = tmp('full-record');
      const stateDir = tmp('full-state');
      // Every whole-record write goes through a temporary file beside experiment.json: that one is on the full disk.
      const tmpFile = path.join(outDir, `experiment.json.tmp-${process.pid}`);
      fs.symlinkSync(FULL, tmpFile);
      const r = await settles(runExperiment(options(sim, outDir, stateDir), new AbortController().signal), 60_000);
      assert.ok(r.error, 'the experiment reports the failure');
      assert.match(
        r.error!.message,
        /Could not write .*experiment\.json: the disk is full \(ENOSPC\)\. The experiment stopped there\. Its record was written when it ended, marked failed with this reason\.\n {2}How to fix: free some space, or give another folder with --out\./,
      );
      // The first write failed, the disk had room again by the end: the record says failed, and why.
      assert.equal(readExperiment(outDir).status, 'failed');
      assert.match(
        readExperiment(outDir)
          .events.map((x) => x.message)
          .join('\n'),
        /the disk is full/,
      );
      assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'DISABLED', 'delayed durability put back');
      assert.deepEqual(listJournals(stateDir), []);
      assert.deepEqual(
        fs.readdirSync(outDir).filter((f) => f.includes('.tmp')),
        [],
        'no temporary file left behind',
      );
      const next = await runExperiment(
        { ...options(sim, tmp('full-next'), stateDir), load: { ...options(sim, '', '').load, threads: [1], durationMs: 500 } },
        new AbortController().signal,
      );
      assert.equal(next.experiment.status, 'completed', 'the locks were released');
    }));

  it('a watch whose samples.jsonl is on a full disk ends at once, failed, naming the file (it would go on recording nothing)', () =>
    withSim({}, async (sim) => {
      const outDir = tmp('full-watch');
      fs.symlinkSync(FULL, path.join(outDir, 'samples.jsonl'));
      const r = await settles(
        runWatch(
          {
            target: targetFor(sim),
            outDir,
            stateDir: tmp('full-state'),
            settings: { intervalMs: 250, durationMs: 60_000, topRequests: 10, textChars: 80 },
          },
          new AbortController().signal,
        ),
        30_000,
      );
      // Either the record says so, or (no tick saved at all) the error does.
      const text = r.error ? r.error.message : r.value!.record.events.map((e) => `${e.level}: ${e.message}`).join('\n');
      if (!r.error) assert.equal(r.value!.record.status, 'failed');
      assert.match(text, /Could not write .*samples\.jsonl: the disk is full \(ENOSPC\)/);
    }));
});
