// The terminal reports of repeated runs: every figure as `gmean [low, high]` from shared/repeats (the same text the
// panel and the notebook print), the A/B verdict first with its interval, "no difference detectable" for equal arms,
// the noise warnings naming runs; and a record of one run each printing as before, plus the no-interval line.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { presetReport } from '../../src/engine/presetReport';
import { presetViews } from '../../src/engine/presetViews';
import { resultsReport } from '../../src/engine/report';
import { customReport } from '../../src/engine/custom/report';
import { getPreset } from '../../src/engine/presets';
import { migrateExperiment } from '../../src/engine/migrate';
import type { Experiment, RunRecord } from '../../src/shared/experiment';
import { cellEstimate, cellsOf, compareArmCells, estimateText, namedFigure } from '../../src/shared/repeats';
import { experiment } from '../helpers/builders';
import { repeatedPresetExperiment, repeatedScenarioExperiment, singlePresetExperiment } from '../helpers/repeatedExperiment';

const preset = getPreset('numa-logwriter');
const tp = { value: (f: { rowsPerSec: number }) => f.rowsPerSec };
const view = (e: Experiment, kind: string) => presetViews(e).find((v) => v.kind === kind)!;

/** Run `n` (0-based) dips to a tenth of its throughput at one tick in the middle: a step the noise view must name. */
function withDip(e: Experiment, n: number): Experiment {
  const runs = e.runs.map((r, i) =>
    i !== n ? r : { ...r, timeline: r.timeline.map((t, j) => (j === 2 ? { ...t, rowsPerSec: t.rowsPerSec / 10 } : t)) },
  );
  return { ...e, runs };
}

describe('terminal reports of repeated runs', () => {
  it("a preset's report: each arm and thread count over its repetitions, as gmean [low, high] from shared/repeats", () => {
    const e = repeatedPresetExperiment({ ratio: 1.3, cv: 0.03 });
    const out = presetReport(e, preset);
    assert.match(out, /Over repetitions: each arm and thread count, geometric mean \[95% interval\]/);
    for (const c of cellsOf(e.runs)) {
      const text = estimateText(cellEstimate(c, tp));
      assert.match(text, /^[\d,]+ \[[\d,]+, [\d,]+\]$/);
      assert.ok(out.includes(text), `${c.armLabel} at ${c.threads} threads: ${text}`);
      const spins = estimateText(cellEstimate(c, namedFigure('spinsPerRow', 'LOGCACHE_ACCESS')));
      assert.ok(out.includes(`${spins} spins/row`), `the watched spinlock with its interval: ${spins}`);
    }
    assert.match(out, /\nRuns\narm +threads +repetition +rows\/s/, 'the runs table has a repetition column');
  });

  it('the A/B view: A, B and B/A with their intervals, and the verdict first with its interval', () => {
    const e = repeatedPresetExperiment({ ratio: 1.3, cv: 0.03 });
    const ab = view(e, 'ab');
    assert.deepEqual(ab.headers, ['figure', 'A [95% interval]', 'B [95% interval]', 'B/A [interval]']);
    const last = compareArmCells(e.runs, 'arm-a', 'arm-b').pop()!;
    assert.equal(ab.title, 'A/B: A side (A) against B side (B), at 8 threads');
    assert.match(ab.lines[0], /^B is faster by \d+% \(95% interval \d+(\.\d)?% to \d+(\.\d)?%\)\.$/);
    assert.equal(ab.lines[0], last.verdict.text);
    const r = last.figures[0].ratio;
    assert.match(ab.rows[0][3], /^1\.\d+ \[1\.\d+, 1\.\d+\]$/, `B/A: ${ab.rows[0][3]}`);
    assert.ok(r.interval!.low > 1);
    assert.match(presetReport(e, preset), /A\/B: A side \(A\) against B side \(B\), at 8 threads\n[\s\S]*\n {2}B is faster by/);
  });

  it('equal arms: "no difference detectable", with the interval and the repetitions a 5% change needs', () => {
    const e = repeatedPresetExperiment({ ratio: 1, cv: 0.08, seed: 11 });
    const ab = view(e, 'ab');
    assert.match(
      ab.lines[0],
      /^No difference in throughput detectable at this noise \(B against A, 95% interval -[\d.]+% to \+[\d.]+%\), nor shown to be within ±5%: detecting a 5% change would take about \d+ to \d+ repetitions of each arm \(\d+ at the measured spread\); showing equivalence within ±5%, were there no change, about \d+ to \d+ repetitions \(\d+ at the measured spread\)\.$/,
    );
  });

  it('the scaling view: each arm by thread count with intervals, and its gain from the fewest threads as a ratio with an interval', () => {
    const e = repeatedPresetExperiment({ ratio: 1.3, cv: 0.03 });
    const s = view(e, 'scaling');
    assert.match(s.title, /geometric mean \[95% interval\]$/);
    const a2 = cellsOf(e.runs).find((c) => c.armId === 'arm-a' && c.threads === 2)!;
    assert.equal(s.rows[0][1], estimateText(cellEstimate(a2, tp)));
    assert.match(
      s.lines[0],
      /^arm-a = A side: throughput peaks at 8 threads \([\d,]+ \[[\d,]+, [\d,]+\] rows\/s\); 2 → 8 threads gives [\d.]+x the rows\/s \(95% interval [\d.]+x to [\d.]+x\)/,
    );
  });

  it("the noise view: each cell's spread, and a run that stepped, named with its arm, threads and repetition", () => {
    const e = withDip(repeatedPresetExperiment({ ratio: 1.3, cv: 0.03 }), 4);
    const n = view(e, 'noise');
    assert.deepEqual(n.headers.slice(0, 4), ['arm', 'threads', 'n', 'spread of throughput (cv)']);
    assert.equal(n.rows.length, 4);
    assert.match(n.rows[0][3], /^\d+\.\d%$/);
    assert.ok(
      n.lines.some((l) => /^run 5 \(B side, 2 threads, repetition 2\) stepped: throughput dipped to \d+% of its median/.test(l)),
      n.lines.join('\n'),
    );
  });

  it("a scenario's report: per thread count over repetitions, throughput, latency and the top spinlocks with intervals, and the noise", () => {
    const e = withDip(repeatedScenarioExperiment({ latency: true, cv: 0.03 }), 3);
    const out = resultsReport(e);
    assert.match(
      out,
      /Over repetitions: each thread count, geometric mean \[95% interval\]\nthreads +n +runs +rows\/s +p50 µs +p99 µs +LOGCACHE_ACCESS spins\/row/,
    );
    for (const c of cellsOf(e.runs)) {
      assert.ok(out.includes(estimateText(cellEstimate(c, tp))));
      assert.ok(out.includes(estimateText(cellEstimate(c, namedFigure('spinsPerRow', 'LOGCACHE_ACCESS')))));
      assert.ok(out.includes(estimateText(cellEstimate(c, { value: (f) => f.p99Us }))));
    }
    assert.match(out, /\nthreads +repetition +rows\/s +rows +elapsed s/, 'the per-run table stays, with a repetition column');
    assert.match(out, /\nNoise\n( {2}.*\n)* {2}run 4 \(8 threads, repetition 2\) stepped: throughput dipped/);
  });

  it("a custom workload's report: calls/s and latency in ms over repetitions", () => {
    const base = repeatedScenarioExperiment({ latency: true, cv: 0.03 });
    const runs: RunRecord[] = base.runs.map((r) => ({
      ...r,
      custom: {
        calls: r.rows,
        failedCalls: 0,
        errors: [],
        perCall: { clientSec: 0.001, serverCpuSec: 0.0004, logicalReads: 12 },
        stoppedOnError: null,
      },
    }));
    const e: Experiment = {
      ...base,
      custom: {
        statements: [{ source: 'q.sql', text: 'SELECT 1' }],
        database: 'App',
        params: null,
        iterations: null,
        thinkTimeMs: 0,
        queryTimeoutMs: null,
        stopOnError: false,
        writes: null,
      },
      runs,
    };
    const out = customReport(e);
    assert.match(
      out,
      /Calls over repetitions: each thread count, geometric mean \[95% interval\]\nthreads +n +runs +calls\/s +p50 ms +p99 ms/,
    );
    const c = cellsOf(e.runs).find((x) => x.threads === 8)!;
    assert.ok(out.includes(estimateText(cellEstimate(c, tp))), 'calls/s is the cell rows/s estimate');
    assert.match(out, /\n8 +3 +2, 4, 6 +[\d,]+ \[[\d,]+, [\d,]+\] +2\.000 \[2\.000, 2\.000\] +7\.200 \[7\.200, 7\.200\]/, 'latency in ms');
    assert.match(out, /\nthreads +repetition +calls +calls\/s/);
  });

  it('one run per arm and thread count (every record before repetitions) prints as before, plus "no interval"', () => {
    const out = presetReport(singlePresetExperiment(), preset);
    assert.match(out, /1 run per arm and thread count: no interval \(run with --repeat 3 or more for intervals\)\./);
    assert.doesNotMatch(out, /95% interval|repetition|Over repetitions|Noise/);
    assert.match(out, /\nfigure +A +B +change\n/);
    const plain = resultsReport(experiment('x', [2, 8]));
    assert.match(plain, /\n {2}1 run per thread count: no interval/);
    assert.doesNotMatch(plain, /95% interval|repetition/);
  });

  it('an old record (schema 1, migrated) shows "1 run: no interval"', () => {
    const raw = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../test/fixtures/experiment-v1.json'), 'utf8'));
    const e = migrateExperiment(raw, 'fixture');
    assert.match(resultsReport(e), /1 run per thread count: no interval/);
  });
});
