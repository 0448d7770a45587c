// Repetitions in the panel: the field on the run, preset and custom forms checked as typed (1..100; blank is the
// preset's own), the messages refusing anything else, how long the experiment will take, and the views of repeated
// runs: the A/B verdict with its interval, the scaling band, each cell with its interval, spread and run count ("1 run:
// no interval" for a single run), noise warnings naming runs, and runs labelled with their arm and repetition.
import assert from 'node:assert/strict';
import { ToHost, type PresetPlanView } from '../../../src/shared/protocol';
import { CUSTOM_FORM_DEFAULTS } from '../../../src/shared/customForm';
import { scalingCurve } from '../../../src/shared/analysis';
import type { Tick } from '../../../src/shared/experiment';
import { figureText } from '../../../src/shared/numberText';
import { SINGLE_RUN, type CellRun } from '../../../src/shared/repeats';
import { presetSummaries } from '../../../src/host/presetPlans';
import { buildRunRequest } from '../../../src/host/runRequest';
import { checkRepeat } from '../../../src/webview/model/validation';
import { checkForm, formFromSelection } from '../../../src/webview/model/form';
import { checkPresetForm, presetForm, presetRunPayload, presetTime } from '../../../src/webview/model/presetForm';
import { checkDraft, draftOf } from '../../../src/webview/model/customDraft';
import { abViews, runLabel, type ShownExperiment } from '../../../src/webview/model/armViews';
import { bandedCurve } from '../../../src/webview/model/scalingBands';
import { cellResultsOf, cellText, spreadText } from '../../../src/webview/model/cellResults';
import { experimentRows, resultColumns } from '../../../src/webview/model/results';
import { LiveRuns, liveRunName } from '../../../src/webview/model/liveRuns';
import { lognormalFactors, repeatedRuns, type TrueArm } from '../../helpers/repeatedRuns';
import { facts } from '../host/fixtures';
import * as b from '../../helpers/builders';

const presets = presetSummaries();
const scenarios = b.scenarios();

describe('repetitions in the panel', () => {
  it('the field: a whole number from 1 to 100, anything else said under it', () => {
    assert.deepEqual(checkRepeat('3'), { value: 3, error: null });
    assert.deepEqual(checkRepeat(' 100 '), { value: 100, error: null });
    for (const bad of ['0', '101', '2.5', 'x', '', '-1'])
      assert.match(checkRepeat(bad).error ?? '', /^Repetitions: .*whole number from 1 to 100/, bad);
  });

  it('the run form: repetitions multiply the runs, and the time is said before the run starts', () => {
    const state = b.connectedState();
    const form = {
      ...formFromSelection(state.selection),
      run: { ...state.selection.run, threads: '1,2', duration: '10s', rows: '', warmup: '2s' },
    };
    assert.equal(form.repeat, '1', 'a scenario runs once unless told');
    const c = checkForm({ ...form, repeat: '3' }, scenarios, state.server!.topology);
    assert.equal(c.valid, true);
    assert.equal(c.repeat, 3);
    assert.equal(c.time!.runs, 6);
    assert.equal(c.time!.seconds, 72);
    assert.match(c.time!.text, /^6 runs \(2 thread counts x 3 repetitions\): about 72 s \(10 s measured \+ 2 s warm-up each/);
    const bad = checkForm({ ...form, repeat: '0' }, scenarios, state.server!.topology);
    assert.equal(bad.valid, false);
    assert.match(bad.repeatError!, /whole number/);
    assert.equal(bad.time, null);
  });

  it("the preset form: blank is the preset's own (3), typed repetitions go in the run message, the time counts every arm", () => {
    const p = presets.find((x) => x.id === 'writelog')!;
    assert.equal(p.repeat, 3, 'the preset list carries each preset its default repetitions');
    const f = presetForm('writelog');
    let c = checkPresetForm(f, presets);
    assert.equal(c.repeat, 3);
    assert.deepEqual(presetRunPayload(f, c).repeat, 3);
    const plan = { arms: [{ threads: [2, 4] }, { threads: [2, 4] }] } as unknown as PresetPlanView;
    const t = presetTime({ ...f, load: { ...f.load, duration: '10s', warmup: '0s' } }, c, plan)!;
    assert.equal(t.runs, 12);
    assert.equal(t.seconds, 120);
    f.repeat = '5';
    c = checkPresetForm(f, presets);
    assert.equal(presetRunPayload(f, c).repeat, 5);
    assert.equal(presetTime(f, c, plan)!.runs, 20);
    f.repeat = '101';
    c = checkPresetForm(f, presets);
    assert.equal(c.valid, false);
    assert.match(c.loadErrors.repeat!, /whole number from 1 to 100/);
    assert.equal(presetTime(f, c, plan), null);
  });

  it('the custom form: 1 unless typed; a wrong count blocks Run', () => {
    const d = draftOf({});
    d.form = { ...CUSTOM_FORM_DEFAULTS, sql: 'SELECT 1', database: 'Shop' };
    assert.deepEqual(checkDraft(d), { errors: {}, repeat: 1, valid: true });
    d.repeat = '4';
    assert.equal(checkDraft(d).repeat, 4);
    d.repeat = '2.5';
    assert.equal(checkDraft(d).valid, false);
    assert.match(checkDraft(d).errors.repeat, /whole number/);
  });

  it('the messages carry repeat as a whole number from 1 to 100 and refuse 0, 101, 2.5 or a string', () => {
    const run = {
      scenarioId: 'disk-insert',
      parameters: {},
      run: { mode: 'server-loop', threads: '1', duration: '1s', rows: '', warmup: '0s', interval: '1s' },
      knobs: { delayedDurability: 'unchanged', affinity: '' },
    };
    const preset = { presetId: 'writelog', settings: {}, load: { ...run.run, threads: '' } };
    const custom = { form: { ...CUSTOM_FORM_DEFAULTS, sql: 'SELECT 1', database: 'Shop' } };
    for (const [name, schema, payload] of [
      ['experimentRun', ToHost.experimentRun.schema, run],
      ['presetRun', ToHost.presetRun.schema, preset],
      ['customRun', ToHost.customRun.schema, custom],
    ] as const) {
      const parse = (repeat: unknown) => (schema as { safeParse(v: unknown): { success: boolean } }).safeParse({ ...payload, repeat });
      assert.ok(parse(1).success && parse(3).success && parse(100).success, name);
      assert.ok((schema as { safeParse(v: unknown): { success: boolean } }).safeParse(payload).success, `${name} without repeat`);
      for (const bad of [0, 101, 2.5, '3', -1, null]) assert.equal(parse(bad).success, false, `${name} repeat ${String(bad)}`);
    }
  });

  it('the host: the run request carries the repetitions (1 when the message has none)', () => {
    const form = {
      scenarioId: 'disk-insert',
      parameters: {},
      run: { mode: 'server-loop' as const, threads: '1,2', duration: '1s', rows: '', warmup: '0s', interval: '1s' },
      knobs: { delayedDurability: 'unchanged' as const, affinity: '' },
    };
    assert.equal(buildRunRequest(form, facts()).repeat, 1);
    assert.equal(buildRunRequest({ ...form, repeat: 4 }, facts()).repeat, 4);
  });
});

const ARMS: TrueArm[] = [
  { id: 'a', rowsPerSec: 10_000, spinsPerRow: 5 },
  { id: 'b', rowsPerSec: 13_000, spinsPerRow: 2 },
];

/** Runs as the panel shows them (a flat timeline: no drift, no dip). */
function shown(runs: CellRun[]): ShownExperiment {
  return {
    key: 'x',
    title: 't',
    preset: null,
    majorVersion: 16,
    threadsPerCore: 1,
    runs: runs.map((r) => ({
      index: r.index!,
      threads: r.threads,
      status: r.status,
      arm: r.arm,
      totals: 'totals' in r ? r.totals : b.runRecord(0, 1).totals,
      timeline: [],
      derived: null,
      rows: r.rows,
      ...(r.repetition !== undefined ? { repetition: r.repetition } : {}),
    })),
  };
}

describe('views of repeated runs', () => {
  it('A/B: the verdict with its interval first, each figure over the repetitions', () => {
    const e = shown(repeatedRuns(lognormalFactors(7, 0.05), ARMS, 5));
    const [ab] = abViews(e);
    const at = ab.at[0];
    assert.equal(at.comparison.figures[0].a.n, 5);
    assert.equal(at.comparison.verdict.kind, 'higher');
    assert.match(at.summary[0], /^B is faster by \d+% \(95% interval \d+% to \d+%\)\.$/);
    assert.ok(at.comparison.figures[0].ratio.interval!.low > 1);
    // One run each: the verdict says there is no interval; the point sentences follow it.
    const single = shown(repeatedRuns(lognormalFactors(7, 0.05), ARMS, 1));
    const s = abViews(single)[0].at[0];
    assert.match(s.summary[0], /1 run each: no interval/);
    assert.ok(s.summary.length > 1);
  });

  it('the scaling curve: one point per thread count over its repetitions, with the interval as a band', () => {
    const f = lognormalFactors(11, 0.08);
    const runs = [...repeatedRuns(f, [ARMS[0]], 4, 2), ...repeatedRuns(f, [ARMS[0]], 4, 8)].map((r, i) => ({ ...r, index: i }));
    const c = bandedCurve(scalingCurve({ id: 'x', title: 't', runs }), runs);
    assert.deepEqual(
      c.points.map((p) => p.threads),
      [2, 8],
    );
    assert.equal(c.band!.length, 2);
    for (const [i, p] of c.points.entries()) assert.ok(c.band![i].low < p.rowsPerSec && p.rowsPerSec < c.band![i].high);
    const once = runs.filter((r) => r.repetition === 1);
    assert.equal(bandedCurve(scalingCurve({ id: 'x', title: 't', runs: once }), once).band, undefined, 'one run has no band');
  });

  it('results: each cell with its interval, spread and run count; "1 run: no interval" for a single run; noise named', () => {
    const e = shown(repeatedRuns(lognormalFactors(3, 0.05), ARMS, 3));
    const c = cellResultsOf(e);
    assert.equal(c.rows.length, 2);
    assert.equal(c.arms, true);
    assert.equal(c.rows[0].n, 3);
    assert.match(cellText(c.rows[0].rowsPerSec), /^[\d,]+ \[[\d,]+, [\d,]+\]$/);
    assert.match(spreadText(c.rows[0].rowsPerSec), /^\d+\.\d%$/);
    assert.deepEqual(c.spinlocks, ['LOGCACHE_ACCESS']);
    const old = b.experiment('old', [2, 4], { ticks: 6 });
    const oc = cellResultsOf(shown(old.runs));
    assert.equal(spreadText(oc.rows[0].rowsPerSec), SINGLE_RUN);
    assert.equal(cellText(oc.rows[0].rowsPerSec), figureText(oc.rows[0].rowsPerSec.value));
    // A run whose throughput halves halfway through is named in a warning.
    const dipped = shown(repeatedRuns(lognormalFactors(3, 0.05), ARMS, 2));
    dipped.runs[1].timeline = Array.from({ length: 10 }, (_, i) => ({
      t: (i + 1) * 1000,
      rowsPerSec: i === 5 ? 1000 : 10_000,
    })) as unknown as Tick[];
    assert.ok(cellResultsOf(dipped).warnings.some((w) => w.startsWith('run 2 (arm b, 8 threads, repetition 1) stepped')));
  });

  it('the outlier rule: the A/B and the cell results leave out the same run as the CLI, and say why', () => {
    const runs = repeatedRuns(lognormalFactors(9, 0.02), ARMS, 6);
    const e = shown(runs);
    const ticks = (rate: number, step = false) =>
      Array.from({ length: 20 }, (_, i) => ({
        t: (i + 1) * 1000,
        rowsPerSec: rate * (step ? (i < 10 ? 1.25 : 0.75) : 1) * (1 + (((i * 7) % 5) - 2) / 100),
      })) as unknown as Tick[];
    for (const r of e.runs) r.timeline = ticks(r.totals.rows / 10);
    // Arm b's fourth repetition ran 40% slow and stepped down halfway: beyond the far fence, and its ticks say why.
    const k = e.runs.findIndex((r) => r.arm.id === 'b' && r.repetition === 4);
    const slow = Math.round(e.runs[k].totals.rows * 0.6);
    e.runs[k] = { ...e.runs[k], totals: { ...e.runs[k].totals, rows: slow }, rows: slow, timeline: ticks(slow / 10, true) };
    const c = cellResultsOf(e);
    const reason = c.warnings.find((w) => w.includes("is left out of its cell's estimate"));
    assert.match(reason ?? '', new RegExp(`^run ${k + 1} \\(arm b, 8 threads, repetition 4\\) is left out`));
    assert.equal(c.rows.find((x) => x.armId === 'b')!.n, 5);
    const at = abViews(e)[0].at[0];
    assert.equal(at.comparison.figures[0].b.n, 5, 'the A/B is over the same five runs');
    // Paired by repetition: A's fourth has no partner left, so the pairs are the other five.
    assert.equal(at.comparison.layout.design, 'paired');
    assert.equal(at.comparison.figures[0].a.n, 5);
  });

  it("the A/B reads the runs' recorded blocks: arms that shared blocks pair, arms that never did are separate sessions", () => {
    const runs = repeatedRuns(lognormalFactors(13, 0.05), ARMS, 4);
    const e = shown(runs);
    // As planOrder records them: A B, B A, ... one block per repetition.
    e.runs.forEach((r) => (r.block = r.repetition));
    assert.equal(abViews(e)[0].at[0].comparison.layout.design, 'paired');
    // As for two deploys that replace each other: each arm's runs in blocks of their own.
    e.runs.forEach((r) => (r.block = (r.arm.id === 'a' ? 0 : 10) + r.repetition!));
    assert.equal(abViews(e)[0].at[0].comparison.layout.design, 'separate');
  });

  it('runs are labelled with their arm and repetition: results, analysis and the live view', () => {
    const runs = repeatedRuns(lognormalFactors(5, 0.05), ARMS, 2);
    const rows = experimentRows({
      runs: runs.map((r) => ({ ...b.runRecord(r.index!, 8), arm: { ...b.runRecord(0, 8).arm, ...r.arm }, repetition: r.repetition })),
    });
    const cols = resultColumns(rows).map((c) => c.key);
    assert.deepEqual(cols.slice(0, 4), ['run', 'arm', 'repetition', 'threads']);
    assert.deepEqual(
      resultColumns(experimentRows(b.experiment('o', [2, 4])))
        .map((c) => c.key)
        .slice(0, 2),
      ['run', 'threads'],
      'an old record: no arm or repetition column',
    );
    const e = shown(runs);
    assert.equal(runLabel(e.runs[3], e), 'arm a, 8 threads, repetition 2');
    const live = new LiveRuns();
    live.runStart('e1', 0, 8, { id: 'a', label: 'arm a' }, 1);
    live.runStart('e1', 1, 8, { id: 'b', label: 'arm b' }, 1);
    live.runStart('e1', 2, 8, { id: 'b', label: 'arm b' }, 2);
    const all = live.ordered();
    assert.equal(all[2].repetition, 2);
    assert.equal(liveRunName(all[2], all), 'arm b, 8 threads, repetition 2');
  });
});
