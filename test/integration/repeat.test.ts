// Repetitions from the command line against the simulator: a two-arm preset with --repeat 2 runs its arms in turns
// (A B, then B A), records the planned order and each run's repetition, moves the affinity before every run (each
// run's own ticks show the schedulers its arm left online), and puts everything back at the end. A plain scenario
// without --repeat runs each thread count once, recorded as repetition 1 of a design of 1.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import { buildProgram } from '../../src/cli/main';
import { connString, knobsNow } from '../helpers/simTarget';
import { listJournals } from '../../src/engine/journal';
import { validateExperiment } from '../../src/engine/migrate';
import type { Experiment } from '../../src/shared/experiment';

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-repeat-state-'));
process.env.SPINLAB_STATE_DIR = stateDir;

async function spinlab(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let code = 0;
  const program = buildProgram(
    (s) => (out += s),
    (s) => (err += s),
    (c) => (code = c),
  );
  await program.parseAsync(args, { from: 'user' });
  return { code, out, err };
}

function record(dir: string): Experiment {
  return JSON.parse(fs.readFileSync(path.join(dir, 'experiment.json'), 'utf8')) as Experiment;
}

it('--repeat 2 on a two-arm preset: A B then B A, each run its repetition, the affinity moved per run, all put back', () =>
  withSim({ topology: '1x4x2' }, async (sim) => {
    const knobsBefore = await knobsNow(sim);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-repeat-'));
    const r = await spinlab([
      'run',
      '--preset',
      'isolate-core0',
      '-c',
      connString(sim),
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
      '--repeat',
      '2',
      '--out',
      dir,
    ]);
    const e = record(dir);
    assert.equal(r.code, 0, r.out + r.err + JSON.stringify(e.events));
    assert.match(
      r.err,
      /This experiment: 4 runs \(2 arms x 1 thread count x 2 repetitions\): about 4 s \(1 s measured each, plus deploys\)/,
    );
    assert.equal(validateExperiment(e), null);
    assert.equal(e.schemaVersion, 6);
    const sequence = ['with-core0@2#1', 'without-core0@2#1', 'without-core0@2#2', 'with-core0@2#2'];
    // One deploy (both arms run disk-insert as deployed): the arms took turns, A B then B A, one block per repetition.
    assert.deepEqual(e.design, { repeat: 2, order: 'alternating', sequence, interleaved: [['with-core0', 'without-core0']] });
    assert.deepEqual(
      e.runs.map((x) => x.block),
      [1, 1, 2, 2],
    );
    assert.deepEqual(
      e.runs.map((x) => `${x.arm.id}@${x.threads}#${x.repetition}`),
      sequence,
      'the runs went in the recorded order',
    );
    assert.deepEqual(
      e.runs.map((x) => x.index),
      [0, 1, 2, 3],
    );
    // Each run's own samples show its arm's affinity: every scheduler online with core 0, two fewer without it.
    const online = e.runs.map((x) => [...new Set(x.timeline.map((t) => t.onlineSchedulers))]);
    assert.deepEqual(online, [[8], [6], [6], [8]], 'the affinity switched before every run that needed it');
    assert.deepEqual(
      e.runs.map((x) => x.arm.knobs.affinity?.spec),
      ['auto', 'exclude-core0', 'exclude-core0', 'auto'],
    );
    // (The lab database did not exist before the run: its delayed durability is read once it does.)
    assert.deepEqual(e.knobs.before?.affinity, knobsBefore.affinity);
    assert.deepEqual(await knobsNow(sim), e.knobs.before, 'the affinity and delayed durability are back as they were');
    assert.deepEqual(e.knobs.restored, e.knobs.before);
    assert.deepEqual(listJournals(stateDir), [], 'no journal left');
  }));

it('a scenario without --repeat: each thread count once, recorded as repetition 1 of a design of 1', () =>
  withSim({ topology: '1x4x2' }, async (sim) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-repeat-1-'));
    const r = await spinlab([
      'run',
      '--scenario',
      'disk-insert',
      '-c',
      connString(sim),
      '--threads',
      '1,2',
      '--duration',
      '1s',
      '--warmup',
      '0s',
      '--interval',
      '250ms',
      '--set',
      'seed_rows=0',
      '--out',
      dir,
    ]);
    const e = record(dir);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.err, /This experiment: 2 runs \(2 thread counts x 1 repetition\)/);
    assert.deepEqual(e.design, { repeat: 1, order: 'alternating', sequence: ['main@1#1', 'main@2#1'], interleaved: [['main']] });
    assert.deepEqual(
      e.runs.map((x) => [x.index, x.threads, x.repetition]),
      [
        [0, 1, 1],
        [1, 2, 1],
      ],
    );
    // The run's fields in the order they were always written, with repetition beside its threads.
    assert.deepEqual(Object.keys(e.runs[0]).slice(0, 5), ['index', 'threads', 'repetition', 'arm', 'status']);
  }));
