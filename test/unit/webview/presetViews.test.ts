// The Presets form checked as typed (every setting and load field, blanks meaning the preset's own), the plan shown
// only when made with the form's settings, and the analysis views' data for a two-arm experiment.
import assert from 'node:assert/strict';
import { presetSummaries } from '../../../src/host/presetPlans';
import { checkPresetForm, planOf, presetForm, presetPayload } from '../../../src/webview/model/presetForm';
import { abViews, armScaling, mathRows, showsWritelog, writelogRows, type ShownExperiment } from '../../../src/webview/model/armViews';
import type { PresetPlanView } from '../../../src/shared/protocol';
import * as b from '../../helpers/builders';

const presets = presetSummaries();

it("preset settings and load are checked as typed; blanks are the preset's own", () => {
  const f = presetForm('writelog');
  let c = checkPresetForm(f, presets);
  assert.equal(c.valid, true);
  assert.deepEqual(c.values, { batch_size: 2, affinity: 'exclude-core0', seed_rows: 100000 });
  f.settings = { batch_size: '0', affinity: 'somewhere' };
  f.load = { ...f.load, threads: 'x', duration: '1s', rows: '1M', interval: '100ms' };
  c = checkPresetForm(f, presets);
  assert.equal(c.valid, false);
  assert.match(c.errors.batch_size, /0 is too small/);
  assert.match(c.errors.affinity, /not one of the choices/);
  assert.ok(c.loadErrors.threads);
  assert.match(c.loadErrors.length!, /not both/);
  assert.match(c.loadErrors.interval!, /under 250ms/);
  assert.equal(checkPresetForm(presetForm('nope'), presets).preset, null);
});

it("the plan shown is current only when the host made it with the form's settings", () => {
  const f = presetForm('writelog');
  const plan = (settings: PresetPlanView['settings'], threads = ''): PresetPlanView => ({
    presetId: 'writelog',
    settings,
    load: { mode: 'server-loop', threads, duration: '', rows: '', warmup: '', interval: '' },
    arms: [],
    comparisons: [],
    notes: [],
    problems: [],
  });
  assert.equal(planOf([plan({})], f).current, true);
  f.settings.batch_size = '4';
  assert.equal(planOf([plan({})], f).current, false);
  assert.equal(planOf([plan({ batch_size: '4' })], f).current, true);
  assert.deepEqual(presetPayload(f).settings, { batch_size: '4' });
  assert.equal(planOf([], f).plan, null);
});

function twoArms(): ShownExperiment {
  const e = b.experiment('x', [2, 4, 2, 4], { ticks: 6 });
  const arms = [
    { id: 'a', label: 'arm a' },
    { id: 'b', label: 'arm b' },
  ];
  return {
    key: 'x',
    title: 't',
    majorVersion: 16,
    threadsPerCore: 2,
    preset: {
      id: 'writelog',
      name: 'w',
      post: 'writelog-at-scale',
      question: 'q',
      notes: [],
      views: ['ab', 'writelog'],
      watch: ['LOGFLUSHQ'],
      arms,
      comparisons: [{ a: 'a', b: 'b', label: 'A vs B' }],
    },
    runs: e.runs.map((r, i) => ({
      index: i,
      threads: r.threads,
      status: 'completed',
      arm: arms[i < 2 ? 0 : 1],
      totals: r.totals,
      timeline: r.timeline,
      derived: { ...r.derived, clockHz: 2e9, clock: { cpuTicksDelta: 12e9, msTicksDelta: 6000 } },
    })),
  };
}

it('analysis data: A/B per thread count, arms overlaid, the math with its inputs, the WRITELOG diagnosis', () => {
  const e = twoArms();
  const ab = abViews(e);
  assert.equal(ab.length, 1);
  assert.deepEqual(
    ab[0].at.map((x) => x.threads),
    [2, 4],
  );
  assert.equal(ab[0].timelines?.threads, 4);
  assert.ok(ab[0].at[1].summary.length >= 1);
  const ov = armScaling(e)!;
  assert.deepEqual(
    ov.arms.map((a) => a.id),
    ['a', 'b'],
  );
  assert.deepEqual(ov.threads, [2, 4]);
  assert.ok(ov.arms.every((a) => a.waitMsPerRow[4] > 0));
  const m = mathRows(e);
  assert.equal(m.length, 4);
  assert.match(m[0].math.formula, / x 16 logical CPUs \(16 threads; 16 online schedulers\) x 2\.00 GHz = /);
  assert.match(m[0].cores!.formula, / x 8 physical cores x 2\.00 GHz/);
  assert.deepEqual(
    m[0].spinlocks.slice(0, 3).map((s) => s.name),
    ['LOGCACHE_ACCESS', 'XDESMGR', 'LOGFLUSHQ'],
  );
  assert.equal(showsWritelog(e), true);
  assert.equal(writelogRows(e).length, 4);
  // Without a preset, one arm: no A/B and no overlay; WRITELOG still shows when runs waited on it.
  const single: ShownExperiment = { ...e, preset: null, runs: e.runs.map((r) => ({ ...r, arm: { id: 'main', label: 'disk-insert' } })) };
  assert.deepEqual(abViews(single), []);
  assert.equal(armScaling(single), null);
  assert.equal(showsWritelog(single), true);
});
