// Experiment records written before presets (schemaVersion 1) are upgraded to version 2 and validate: every run gets
// the experiment's one scenario, parameters, knobs and mode as its arm, and there is no preset. The fixture is a real
// record written by runExperiment against the simulator before the bump.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXPERIMENT_MIGRATIONS, migrateExperiment, NotebookError, upgradeExperiment, validateExperiment } from '../../src/engine/migrate';
import { readExperimentFile } from '../../src/engine/notebook/export';
import { readExperiment } from '../../src/host/history';
import { EXPERIMENT_SCHEMA_VERSION, type Experiment } from '../../src/shared/experiment';
import { getPost } from '../../src/shared/posts';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/experiment-v1.json');
/** The parts of the version 1 fixture these tests read; the rest passes through untouched. */
interface V1Record {
  schemaVersion: number;
  scenario: { id: string; parameters: Record<string, unknown> };
  knobs: { applied: unknown };
  load?: { mode: string };
  runs: Record<string, unknown>[];
  [key: string]: unknown;
}
const v1 = () => JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as V1Record;

it('the fixture is a version 1 record, which the current schema no longer accepts as it is', () => {
  const raw = v1();
  assert.equal(raw.schemaVersion, 1);
  assert.ok(raw.runs.length >= 2 && raw.runs.every((r: Record<string, unknown>) => !('arm' in r)));
  assert.notEqual(validateExperiment(raw), null);
});

it('version 1 -> 2: each run gets the experiment-level arm, preset is null, and the result validates', () => {
  const raw = v1();
  const e = migrateExperiment(raw, 'fixture');
  assert.equal(e.schemaVersion, EXPERIMENT_SCHEMA_VERSION);
  assert.equal(e.preset, null);
  for (const r of e.runs) {
    assert.deepEqual(r.arm, {
      id: 'main',
      label: raw.scenario.id,
      scenarioId: raw.scenario.id,
      parameters: raw.scenario.parameters,
      knobs: raw.knobs.applied,
      mode: raw.load?.mode,
    });
  }
  assert.equal(e.runs[0].arm.knobs.delayedDurability, 'FORCED');
  assert.equal(e.runs[0].arm.knobs.affinity?.spec, 'exclude-core0');
  assert.equal(e.runs[0].arm.parameters.batch_size, 2);
  // Everything else is untouched.
  assert.deepEqual(
    e.runs.map((r) => r.totals),
    raw.runs.map((r) => r.totals),
  );
  assert.equal(validateExperiment(e), null);
  // Arms are copies: changing one run's arm leaves the others and the experiment-level knobs alone.
  e.runs[0].arm.parameters.batch_size = 99;
  assert.equal(e.runs[1].arm.parameters.batch_size, 2);
  assert.equal(e.scenario.parameters.batch_size, 2);
});

/** A version 2 record of a preset run, as version 2 wrote it: the preset's post under `seed`, as our file name. */
function v2Preset(seed: unknown): Record<string, unknown> {
  const e = EXPERIMENT_MIGRATIONS[1](v1()) as Record<string, unknown>;
  e.preset = { id: 'writelog', seed, question: 'Does FORCED take WRITELOG away?', notes: [] };
  return e;
}

it("version 2 -> 3: the preset's file name becomes the post it names, cited by title from the catalogue", () => {
  const e = migrateExperiment(v2Preset('003_91849d3d42cb46a9.txt'), 'v2');
  assert.equal(e.schemaVersion, EXPERIMENT_SCHEMA_VERSION);
  assert.equal(e.preset?.post, 'writelog-at-scale');
  assert.equal('seed' in (e.preset ?? {}), false, 'the file name is gone');
  assert.equal(getPost(e.preset!.post).title, 'WRITELOG At Scale: Going Beyond "You need faster disks"');
  assert.equal(migrateExperiment(v2Preset('000_6b368195e47da490.txt'), 'v2').preset?.post, 'numa-logcache-access');
  assert.equal(migrateExperiment(v2Preset('004_52311609d1338284.txt'), 'v2').preset?.post, 'ring-buffer');
  // A v2 record without a preset only changes its version.
  assert.equal(migrateExperiment(EXPERIMENT_MIGRATIONS[1](v1()), 'v2').preset, null);
  // A name that is no post is refused with the reason, not mapped to a made-up one.
  assert.throws(
    () => migrateExperiment(v2Preset('notes.txt'), 'odd'),
    (err: Error) => err instanceof NotebookError && /post/.test(err.message),
  );
});

it('the registry has a step for every older version; a newer record or one without a version is refused', () => {
  for (let v = 1; v < EXPERIMENT_SCHEMA_VERSION; v++) assert.equal(typeof EXPERIMENT_MIGRATIONS[v], 'function');
  assert.throws(
    () => upgradeExperiment({ ...v1(), schemaVersion: EXPERIMENT_SCHEMA_VERSION + 1 }, 'x'),
    (e: Error) => e instanceof NotebookError && /newer than this Spinlock Lab/.test(e.message),
  );
  assert.throws(() => upgradeExperiment({ id: 'x' }, 'x'), /no schemaVersion/);
});

it('a damaged version 1 record is reported, not crashed on', () => {
  const raw = v1();
  delete raw.load;
  (raw as { runs: unknown }).runs = [null, 5];
  assert.throws(
    () => migrateExperiment(raw, 'damaged'),
    (e: Error) => e instanceof NotebookError && /damaged: the experiment record is not valid/.test(e.message),
  );
});

it('every reader of experiment.json upgrades: spinlab export and the panel history', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-migrate-'));
  const id = 'old-experiment';
  fs.mkdirSync(path.join(dir, id));
  fs.copyFileSync(FIXTURE, path.join(dir, id, 'experiment.json'));
  assert.equal(readExperimentFile(path.join(dir, id)).runs[0].arm.id, 'main');
  assert.equal(readExperiment(dir, id).runs[1].arm.scenarioId, 'disk-insert');
});

it('version 5 -> 6: nothing is added (no design, no repetition: each cell ran once), and repetitions validate', () => {
  const v5 = { ...EXPERIMENT_MIGRATIONS[4](EXPERIMENT_MIGRATIONS[3](EXPERIMENT_MIGRATIONS[2](EXPERIMENT_MIGRATIONS[1](v1())))) };
  assert.equal(v5.schemaVersion, 5);
  const up = EXPERIMENT_MIGRATIONS[5](v5);
  assert.equal(up.schemaVersion, 6);
  assert.deepEqual({ ...up, schemaVersion: 5 }, v5, 'only the version changes');
  const e = migrateExperiment(v5, 'v5');
  assert.equal(e.design, undefined);
  assert.ok(e.runs.every((r) => r.repetition === undefined));
  assert.equal(validateExperiment(e), null);
  // A version 6 record with its design and each run's repetition.
  e.design = { repeat: 2, order: 'alternating', sequence: e.runs.map((r) => `main@${r.threads}#1`) };
  e.runs.forEach((r) => (r.repetition = 1));
  assert.equal(validateExperiment(e), null);
  e.design = null;
  assert.equal(validateExperiment(e), null, 'a null design is one run per cell');
  e.runs[0].repetition = 0;
  assert.match(validateExperiment(e) ?? '', /repetition must be >= 1/);
  e.runs[0].repetition = 1;
  e.design = { repeat: 2, order: 'alternating', sequence: ['main'] };
  assert.match(validateExperiment(e) ?? '', /sequence\/0 must match pattern/);
  e.design = { repeat: 0, order: 'random', sequence: [] } as unknown as Experiment['design'];
  assert.notEqual(validateExperiment(e), null);
});

it('steady state and blocks: an older record loads unchanged without them; a record with them validates, a bad one not', () => {
  const e = migrateExperiment(v1(), 'fixture');
  assert.ok(e.runs.every((r) => r.steady === undefined && r.block === undefined));
  assert.equal(e.design?.interleaved, undefined);
  // Its figures are as written: over every tick after the fixed warm-up.
  const raw = v1();
  assert.deepEqual(
    e.runs.map((r) => r.derived.rowsPerSec),
    raw.runs.map((r) => (r.derived as { rowsPerSec: number }).rowsPerSec),
  );
  const steady = {
    rule: 'mser',
    warmupMs: 5000,
    fromTick: 3,
    droppedTicks: 3,
    droppedMs: 3000,
    droppedRows: 1200,
    p: 0.002,
    capped: false,
  } as const;
  e.runs.forEach((r, i) => Object.assign(r, { steady, block: i + 1 }));
  e.design = { repeat: 1, order: 'alternating', sequence: e.runs.map((r) => `main@${r.threads}#1`), interleaved: [['main']] };
  assert.equal(validateExperiment(e), null);
  e.runs[0].steady = { ...steady, rule: 'guess' } as unknown as typeof steady;
  assert.match(validateExperiment(e) ?? '', /rule must be equal to one of the allowed values/);
  e.runs[0].steady = { ...steady, p: null };
  e.runs[0].block = 0;
  assert.match(validateExperiment(e) ?? '', /block must be >= 1/);
});
