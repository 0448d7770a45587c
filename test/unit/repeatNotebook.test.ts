// Notebooks of repeated runs carry what the terminal prints: the views with `gmean [low, high]`, the A/B verdict with
// its interval (in the view and in the summary), the noise naming runs, and a scaling chart whose SVG shades each
// arm's 95% interval around its throughput line; a record of one run each draws and reads as before, plus the
// no-interval line.
import assert from 'node:assert/strict';
import { buildNotebook, SERIES_MIME } from '../../src/engine/notebook/write';
import { svgLineChart } from '../../src/engine/notebook/svgChart';
import type { Notebook } from '../../src/engine/notebook/nbformat';
import { checkSeriesPayload, type SeriesPayload } from '../../src/shared/seriesPayload';
import type { Experiment } from '../../src/shared/experiment';
import { armCells, cellEstimate, cellsOf, compareArmCells, estimateText } from '../../src/shared/repeats';
import { repeatedPresetExperiment, repeatedScenarioExperiment, singlePresetExperiment } from '../helpers/repeatedExperiment';

const sources = (nb: Notebook) => nb.cells.map((c) => c.source.join(''));
const outputs = (nb: Notebook) =>
  nb.cells.flatMap((c) => ('outputs' in c ? (c.outputs as { data?: Record<string, unknown> }[]) : [])).map((o) => o.data ?? {});
const chart = (nb: Notebook, title: RegExp) =>
  outputs(nb).find((d) => d[SERIES_MIME] && title.test((d[SERIES_MIME] as SeriesPayload).title))!;
const summary = (nb: Notebook) => sources(nb).find((s) => s.startsWith('## Summary'))!;
const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

describe('notebooks of repeated runs', () => {
  it('the A/B view and the summary quote the verdict with its interval; the table shows A, B and B/A with intervals', () => {
    const e = repeatedPresetExperiment({ ratio: 1.3, cv: 0.03 });
    const nb = buildNotebook([e]);
    const verdict = compareArmCells(e.runs, 'arm-a', 'arm-b').pop()!.verdict.text;
    assert.match(verdict, /^B is faster by \d+% \(95% interval /);
    const ab = sources(nb).find((s) => s.startsWith('### A/B: '))!;
    assert.equal(unescape(ab.split('\n')[2]), `- ${verdict}`, 'the verdict is the first line under the A/B heading');
    assert.ok(unescape(summary(nb)).includes(`- A side (A) against B side (B), 8 threads: ${verdict}`), summary(nb));
    const html = outputs(nb)
      .map((d) => String(d['text/html'] ?? ''))
      .find((h) => h.includes('B/A [interval]'))!;
    assert.ok(html, 'the A/B table is an HTML output');
    const a8 = cellsOf(e.runs).find((c) => c.armId === 'arm-a' && c.threads === 8)!;
    assert.ok(html.includes(`<td>${estimateText(cellEstimate(a8, { value: (f) => f.rowsPerSec }))}</td>`));
  });

  it('the views over repetitions and the noise are there, naming runs', () => {
    const e = repeatedPresetExperiment({ ratio: 1.3, cv: 0.03 });
    e.runs[4] = { ...e.runs[4], timeline: e.runs[4].timeline.map((t, j) => (j === 2 ? { ...t, rowsPerSec: t.rowsPerSec / 10 } : t)) };
    const text = sources(buildNotebook([e])).map(unescape);
    assert.ok(text.some((s) => s.startsWith('### Over repetitions: each arm and thread count, geometric mean [95% interval]')));
    const noise = text.find((s) => s.startsWith('### Noise'))!;
    assert.match(noise, /- run 5 \(B side, 2 threads, repetition 2\) stepped: throughput dipped/);
    assert.match(
      text.find((s) => s.startsWith('## Summary'))!,
      /- Noise: run 5 \(B side, 2 threads, repetition 2\) stepped/,
    );
  });

  it('equal arms: the summary says no difference is detectable, and how many repetitions would detect 5%', () => {
    const nb = buildNotebook([repeatedPresetExperiment({ ratio: 1, cv: 0.08, seed: 11 })]);
    assert.match(
      unescape(summary(nb)),
      /8 threads: No difference in throughput detectable at this noise \(B against A, 95% interval -[\d.]+% to \+[\d.]+%\), nor shown to be within ±5%: detecting a 5% change would take about \d+ to \d+ repetitions of each arm \(\d+ at the measured spread\)/,
    );
  });

  it("the scaling chart: each arm's geometric means, and its 95% interval as a shaded band in the SVG and the series", () => {
    const e = repeatedPresetExperiment({ ratio: 1.3, cv: 0.05 });
    const d = chart(buildNotebook([e]), /^Scaling by arm: throughput/);
    const p = checkSeriesPayload(d[SERIES_MIME]);
    const arms = armCells(e.runs);
    assert.deepEqual(
      p.series.map((s) => s.points),
      arms.map((a) => a.points.map((x) => [x.threads, x.rowsPerSec.value])),
      'one point per thread count: the geometric mean',
    );
    assert.deepEqual(
      p.series.map((s) => s.band),
      arms.map((a) => a.points.map((x) => [x.threads, x.rowsPerSec.interval!.low, x.rowsPerSec.interval!.high])),
    );
    const svg = String(d['image/svg+xml']);
    assert.equal((svg.match(/<polygon /g) ?? []).length, 2, 'a band per arm');
    assert.match(svg, /shaded: 95% interval over repetitions/);
    assert.match(String(d['text/plain']), /shaded: 95% interval over repetitions/);
  });

  it("a scenario's repeated sweep: the over-repetitions table in the results, a banded throughput line", () => {
    const e = repeatedScenarioExperiment({ cv: 0.05 });
    const nb = buildNotebook([e]);
    assert.ok(sources(nb).some((s) => unescape(s).startsWith('### Over repetitions')));
    const svg = String(chart(nb, /^Scaling: throughput/)['image/svg+xml']);
    assert.equal((svg.match(/<polygon /g) ?? []).length, 1);
    assert.match(unescape(summary(nb)), /- 2 threads: [\d,]+ \[[\d,]+, [\d,]+\] rows\/s \(geometric mean of 3 runs \[95% interval\]\)/);
  });

  it('one run per arm and thread count: no band, the summary as before plus "no interval"', () => {
    const e: Experiment = singlePresetExperiment();
    const nb = buildNotebook([e]);
    const svg = String(chart(nb, /^Scaling by arm: throughput/)['image/svg+xml']);
    assert.doesNotMatch(svg, /<polygon|shaded/);
    const s = unescape(summary(nb));
    assert.match(s, /- A side \(A\) against B side \(B\), 8 threads: Throughput \d+% higher in run B/);
    assert.match(s, /- 1 run per arm and thread count: no interval \(run with --repeat 3 or more for intervals\)\./);
    assert.ok(!sources(nb).some((x) => /Over repetitions|### Noise/.test(x)));
  });

  it('the SVG band spans low to high and the y axis reaches its top', () => {
    const svg = svgLineChart(
      [
        {
          name: 'A',
          points: [
            [1, 100],
            [2, 200],
          ],
          band: [
            [1, 90, 110],
            [2, 150, 400],
          ],
        },
      ],
      { title: 't', xLabel: 'x', yLabel: 'y', width: 400, height: 300 },
    );
    const poly = /<polygon points="([^"]+)"/
      .exec(svg)![1]
      .split(' ')
      .map((p) => p.split(',').map(Number));
    assert.equal(poly.length, 4, 'the high edge out and the low edge back');
    const ys = [...svg.matchAll(/text-anchor="end" fill="#444444">([\d.k]+)</g)].map((m) => m[1]);
    assert.ok(ys.includes('400'), `the axis reaches the band's top: ${ys.join(', ')}`);
    assert.ok(poly[1][1] < poly[2][1], "the band's high edge is above its low edge");
  });
});
