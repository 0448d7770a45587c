// A full disk under a running experiment (/dev/full answers every write with ENOSPC): the run fails saying which file
// and why, the knobs are put back, the locks are released and the connection closed (the process ends; before, the
// clean-up stopped at the failed write and the experiment's connection kept the process alive), and a half-written
// record never replaces the last good one. A disk that fills as the finished record is written leaves a smaller record
// marked failed, never the copy from during the run that says "running"; `spinlab run` prints its results first, then
// says what was saved and what was not.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { mainCli } from '../helpers/cliInProcess';
import { readNotebookFile } from '../../src/engine/notebook/read';
import type { Simulator } from '../../tools/sim/simulator';
import { runExperiment, type ExperimentOptions, type ExperimentProgress } from '../../src/engine/experiment';
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

  it('the disk fills as the finished experiment is saved: the record is not left "running", and the error keeps the experiment', () =>
    withSim({}, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
      const outDir = tmp('full-end');
      const stateDir = tmp('full-state');
      const tmpFile = path.join(outDir, `experiment.json.tmp-${process.pid}`);
      // The last run's record was written; the disk fills before the finished one is.
      const fill = (p: ExperimentProgress) => {
        if (p.kind === 'run-end' && p.record.index === 1) fs.symlinkSync(FULL, tmpFile);
      };
      const r = await settles(runExperiment(options(sim, outDir, stateDir), new AbortController().signal, fill), 60_000);
      assert.ok(r.error, 'the experiment reports the failure');
      const kept = (r.error as { experiment?: Experiment }).experiment;
      assert.equal(kept?.runs.length, 2, 'the error carries the whole experiment, for the results to be printed');
      assert.equal(kept?.status, 'completed');
      assert.equal(kept?.runs[1].timeline.length ? 'ticks' : 'none', 'ticks');
      assert.match(
        r.error!.message,
        /Could not write .*experiment\.json: the disk is full \(ENOSPC\)\. The record on disk is a smaller copy, marked failed/,
      );
      const saved = JSON.parse(fs.readFileSync(path.join(outDir, 'experiment.json'), 'utf8')) as Experiment;
      assert.notEqual(saved.status, 'running', 'a record on disk never says "running" for an experiment that has ended');
      assert.equal(saved.status, 'failed');
      assert.equal(saved.runs.length, 2, "both runs' totals are in it");
      assert.deepEqual(saved.runs[1].totals, kept!.runs[1].totals);
      assert.match(saved.events.at(-1)!.message, /could not be written whole \(the disk is full \(ENOSPC\)\)/);
      assert.equal(sim.model.databases.get(LAB.toLowerCase())?.delayedDurability, 'DISABLED', 'delayed durability put back');
      assert.deepEqual(listJournals(stateDir), []);
      assert.deepEqual(
        fs.readdirSync(outDir).filter((f) => f.includes('.tmp')),
        [],
      );
    }));

  it('spinlab run --out on a disk that fills at the end: the results are printed, then what was saved and what was not', () =>
    withSim({}, async (sim) => {
      const dir = tmp('full-cli');
      const out = path.join(dir, 'res');
      const nb = path.join(tmp('full-cli-nb'), 'run.ipynb');
      const env = {
        SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
        SPINLAB_PASSWORD: SIM_PASSWORD,
        SPINLAB_STATE_DIR: path.join(dir, '.state'),
      };
      const args = ['run', '--scenario', 'disk-insert', '--threads', '1,2', '--duration', '1s', '--warmup', '0s', '--interval', '250ms'];
      // The disk fills once the last run's record is written: the progress line of "run 2/2" comes right after it.
      const tmpFile = path.join(out, `experiment.json.tmp-${process.pid}`);
      const running = mainCli([...args, '--set', 'seed_rows=0', '--out', out, '--notebook', nb], env);
      // mainCli has put its own capture in place (it puts the real one back when it ends): this one goes in front of it.
      const capture = process.stderr.write;
      process.stderr.write = function (this: NodeJS.WriteStream, s: string | Uint8Array, ...rest: unknown[]) {
        if (/run 2\/2: /.test(String(s)) && !fs.existsSync(tmpFile)) fs.symlinkSync(FULL, tmpFile);
        return (capture as (...a: unknown[]) => boolean).call(this, s, ...rest);
      } as typeof process.stderr.write;
      const r = await running;
      assert.equal(r.code, 5, r.output);
      assert.match(r.stdout, /rows\/s/, 'the results table is printed');
      assert.doesNotMatch(r.stdout, /Saved .*experiment\.json/);
      assert.match(r.stdout, /Saved .*run\.ipynb/, 'the notebook (another disk) is saved from the whole record');
      assert.match(r.stderr, /Not everything was saved: .*experiment\.json could not be written \(the disk is full \(ENOSPC\)\)\./);
      assert.match(
        r.stderr,
        /Saved: the results printed above; .*samples\.jsonl \(all \d+ ticks\); .*experiment\.json, a smaller copy marked failed .*; .*run\.ipynb \(the notebook, with the whole record\)\./,
      );
      assert.match(r.stderr, /Not saved: the whole experiment\.json \(its runs' per-tick timelines\)\./);
      assert.equal(readExperiment(out).status, 'failed');
      assert.equal(readNotebookFile(nb).record.experiments[0].runs[1].timeline.length > 0, true);
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

  it('a watch whose record cannot be written as it ends: the error names the file, and the record does not say "running"', () =>
    withSim({}, async (sim) => {
      const outDir = tmp('full-watch-end');
      const tmpFile = path.join(outDir, `experiment.json.tmp-${process.pid}`);
      const r = await settles(
        runWatch(
          {
            target: targetFor(sim),
            outDir,
            stateDir: tmp('full-state'),
            settings: { intervalMs: 250, durationMs: 1000, topRequests: 10, textChars: 80 },
          },
          new AbortController().signal,
          (p) => {
            if (p.kind === 'tick' && !fs.existsSync(tmpFile)) fs.symlinkSync(FULL, tmpFile);
          },
        ),
        30_000,
      );
      assert.match(r.error?.message ?? '', /Could not write .*experiment\.json: the disk is full \(ENOSPC\)/);
      const saved = readExperiment(outDir) as unknown as { status: string; events: { message: string }[] };
      assert.equal(saved.status, 'failed');
      assert.match(saved.events.at(-1)!.message, /could not be written as the watch ended: the disk is full/);
    }));
});
