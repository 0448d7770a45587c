// The notebook's charts: the series each chart draws (throughput over time, the last run's top spinlocks, waits,
// latches, log flushes and CPU by NUMA node, and scaling curves across thread counts), and a chart as an output (the
// series for the extension's renderer, an SVG and a text line for other viewers). Apart from write.ts, which orders
// the cells, because choosing and shaping the series is a purpose of its own.
import type { Experiment, RunRecord } from '../../shared/experiment';
import { topNames } from '../../shared/analysis';
import { isBenignWait } from '../../shared/benign';
import { SERIES_MIME, type SeriesPayload } from '../../shared/seriesPayload';
import { displayData, type DisplayDataOutput } from './nbformat';
import { svgLineChart, type SvgSeries } from './svgChart';
import { scalingCharts } from './scalingCharts';

/** An experiment's name among several (its server and start time), or '' when the notebook holds one. */
export function experimentLabel(e: Experiment, many: boolean): string {
  return many ? `${e.server.serverName} ${e.createdAt.slice(0, 16).replace('T', ' ')}` : '';
}

function runName(r: RunRecord, prefix: string): string {
  const arm = r.arm && r.arm.id !== 'main' ? `${r.arm.label}, ` : '';
  return `${prefix ? prefix + ' ' : ''}run ${r.index + 1} (${arm}${r.threads} thread${r.threads === 1 ? '' : 's'})`;
}

export function chartOutput(p: SeriesPayload): DisplayDataOutput {
  const svg = svgLineChart(
    p.series.map((s): SvgSeries => ({ ...s, markers: p.kind === 'scaling' })),
    { title: p.title, xLabel: p.xLabel, yLabel: p.yLabel },
  );
  const banded = p.series.some((s) => s.band?.length);
  const alt = `${p.title}: ${p.series.map((s) => s.name).join(', ')} (chart${banded ? '; shaded: 95% interval over repetitions' : ''})`;
  return displayData({ [SERIES_MIME]: p, 'image/svg+xml': svg, 'text/plain': alt });
}

function timeSeries(
  runs: { r: RunRecord; prefix: string }[],
  title: string,
  yLabel: string,
  value: (t: RunRecord['timeline'][number]) => number,
): SeriesPayload {
  return {
    title,
    xLabel: 'seconds into the run',
    yLabel,
    kind: 'time',
    series: runs.map(({ r, prefix }) => ({
      name: runName(r, prefix),
      points: r.timeline.map((t) => [t.t / 1000, value(t)] as [number, number]),
    })),
  };
}

/** Per-name series over one run's timeline (the top names by total). */
function namedSeries(
  r: RunRecord,
  title: string,
  yLabel: string,
  names: string[],
  value: (t: RunRecord['timeline'][number], name: string) => number,
): SeriesPayload {
  return {
    title,
    xLabel: 'seconds into the run',
    yLabel,
    kind: 'time',
    series: names.map((name) => ({ name, points: r.timeline.map((t) => [t.t / 1000, value(t, name)] as [number, number]) })),
  };
}

/**
 * The charts, in order: throughput over time for every run; for each experiment's last run with a timeline, its top
 * spinlocks, waits (benign excluded), latches, log flushes and CPU by NUMA node; then scaling across thread counts
 * (by arm when a preset's arms were swept).
 */
export function chartSeries(experiments: readonly Experiment[]): SeriesPayload[] {
  const many = experiments.length > 1;
  const allRuns = experiments.flatMap((e) => e.runs.filter((r) => r.timeline.length).map((r) => ({ r, prefix: experimentLabel(e, many) })));
  const charts: SeriesPayload[] = [timeSeries(allRuns, 'Throughput', 'rows per second', (t) => t.rowsPerSec)];
  for (const e of experiments) {
    const last = [...e.runs].reverse().find((r) => r.timeline.length);
    if (!last) continue;
    const suffix = ` (${runName(last, experimentLabel(e, many))})`;
    const spins = topNames([Object.fromEntries(Object.entries(last.totals.spinlocks).map(([k, v]) => [k, v.spins]))], 5);
    if (spins.length)
      charts.push(
        namedSeries(
          last,
          `Top spinlocks: spins per second${suffix}`,
          'spins/s',
          spins,
          (t, n) => ((t.spinlocks[n]?.spins ?? 0) * 1000) / t.intervalMs,
        ),
      );
    const waits = topNames(
      [
        Object.fromEntries(
          Object.entries(last.totals.waits)
            .filter(([k]) => !isBenignWait(k))
            .map(([k, v]) => [k, v.waitMs]),
        ),
      ],
      5,
    );
    if (waits.length)
      charts.push(
        namedSeries(
          last,
          `Top waits, benign excluded: ms per second${suffix}`,
          'wait ms/s',
          waits,
          (t, n) => ((t.waits[n]?.waitMs ?? 0) * 1000) / t.intervalMs,
        ),
      );
    const latches = topNames([Object.fromEntries(Object.entries(last.totals.latches).map(([k, v]) => [k, v.waitMs]))], 5);
    if (latches.length)
      charts.push(
        namedSeries(
          last,
          `Top latches: wait ms per second${suffix}`,
          'latch ms/s',
          latches,
          (t, n) => ((t.latches[n]?.waitMs ?? 0) * 1000) / t.intervalMs,
        ),
      );
    charts.push(namedSeries(last, `Log flushes per second${suffix}`, 'flushes/s', ['log flushes/s'], (t) => t.log.flushesPerSec));
    const nodes = Object.keys(last.timeline[0]?.cpuByNode ?? {});
    if (nodes.length)
      charts.push({
        ...namedSeries(last, `CPU busy by NUMA node${suffix}`, '% busy', nodes, (t, n) => t.cpuByNode[n] ?? 0),
        series: nodes.map((n) => ({
          name: `node ${n}`,
          points: last.timeline.map((t) => [t.t / 1000, t.cpuByNode[n] ?? 0] as [number, number]),
        })),
      });
  }
  charts.push(...scalingCharts(experiments, (e) => experimentLabel(e, many)));
  return charts;
}
