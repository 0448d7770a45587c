// A watch as a Jupyter notebook (nbformat 4.5, renders on GitHub and in Jupyter like the experiments' notebooks): the
// server, what stands out, the marks with the windows around each compared, charts of the whole watch (downsampled
// while samples.jsonl is streamed, so an 8-hour watch fits), the totals, and the tick's T-SQL to run by hand.
import * as path from 'node:path';
import { formatNumber } from '../../shared/analysis';
import { isBenignWait } from '../../shared/benign';
import { describeMonitorCost } from '../../shared/monitorCost';
import { describeCoverage, describeGap } from '../../shared/watchGaps';
import type { WatchGap, WatchRecord, WatchTick } from '../../shared/watch';
import { compareWindows, windowFigures, windowsAroundMark } from '../../shared/watchCompare';
import { displayData, NotebookBuilder, type Notebook } from '../notebook/nbformat';
import { svgLineChart, type SvgSeries } from '../notebook/svgChart';
import { mdEscape } from '../notebook/markdown';
import { tableOutput } from '../notebook/tables';
import { step } from '../notebook/replay';
import { WatchHistory, type WatchPoint } from './history';
import { forEachTick, readWatchRecord } from './read';
import { NOTEBOOK_WRITE_HINT, makeDirs, writeWhole } from '../outFiles';
import { plural } from '../../shared/plural';

const CHART_POINTS = 600;
const MARK_WINDOW_MS = 60_000;

function chart(
  title: string,
  yLabel: string,
  points: readonly WatchPoint[],
  series: [string, (p: WatchPoint) => number][],
  gaps: readonly WatchGap[],
) {
  const s: SvgSeries[] = series.map(([name, v]) => ({ name, points: points.map((p) => [p.t / 1000, v(p)] as [number, number]) }));
  const svg = svgLineChart(s, {
    title,
    xLabel: 'seconds',
    yLabel,
    maxPoints: CHART_POINTS,
    gaps: gaps.map((g) => [g.fromT / 1000, g.toT / 1000] as const),
  });
  return displayData({ 'image/svg+xml': svg, 'text/plain': `${title} (chart)` });
}

function namesOf(points: readonly WatchPoint[], key: 'spinlocks' | 'waits'): string[] {
  const sum = new Map<string, number>();
  for (const p of points) for (const [k, v] of Object.entries(p[key])) sum.set(k, (sum.get(k) ?? 0) + v * p.intervalMs);
  return [...sum]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k]) => k);
}

export async function buildWatchNotebook(dir: string): Promise<Notebook> {
  const { record, dir: folder } = readWatchRecord(dir);
  // Streamed once: the downsampled history for the charts, and the ticks near each mark for its comparison.
  const history = new WatchHistory(1, CHART_POINTS);
  const near: WatchTick[] = [];
  await forEachTick(folder, record, (t) => {
    history.add(t);
    if (record.marks.some((m) => Math.abs(t.t - m.t) <= MARK_WINDOW_MS)) near.push(t);
  });
  const points = history.history();
  const nb = new NotebookBuilder();
  const r: WatchRecord = record;
  const gaps = r.gaps ?? [];
  const lw = r.topology.logWriters.map((w) => `scheduler ${w.schedulerId} (node ${w.nodeId ?? '?'})`).join('; ') || 'not seen';
  nb.markdown(
    [
      `# ${mdEscape(r.title)}`,
      '',
      r.simulated
        ? '> **SIMULATED.** This watch ran against the Spinlock Lab simulator: its numbers are synthetic, not measurements.\n'
        : '',
      `A read-only watch by Spinlock Lab ${r.tool.version} of **${mdEscape(r.server.serverName)}** (${mdEscape(r.server.versionBanner)}), ` +
        `${plural(r.ticks, 'tick')} every ${r.settings.intervalMs} ms from ${r.startedAt}${r.endedAt ? ` to ${r.endedAt}` : ''}; status ${r.status}.`,
      '',
      `Topology: ${plural(r.topology.socketCount, 'socket')}, ${plural(r.topology.numaNodeCount, 'NUMA node')}, ${plural(r.topology.cpuCount, 'logical CPU')}; log writer on ${lw}.`,
      r.roundTripMs ? `\nOne round trip per tick: median ${r.roundTripMs.p50} ms, max ${r.roundTripMs.max} ms.` : '',
      r.coverage ? `\n${mdEscape(describeCoverage(r.coverage, gaps).replace(/^w/, 'W'))}.` : '',
    ].join('\n'),
  );
  if (gaps.length) {
    nb.markdown(
      [
        '## Gaps',
        '',
        'No tick and no delta across a gap: the first sample after it is a new baseline, and its time is not in the totals (shaded in the charts).',
        '',
        ...gaps.map(
          (g) => `- ${(g.fromT / 1000).toFixed(1)}-${(g.toT / 1000).toFixed(1)} s: ${mdEscape(describeGap(g))} (${mdEscape(g.detail)})`,
        ),
      ].join('\n'),
    );
  }
  if (r.cost) {
    nb.markdown(
      [
        '## What the watch cost the server',
        '',
        `${mdEscape(describeMonitorCost(r.cost, r.simulated))} Read from the watch's own row of sys.dm_exec_sessions and the SQL Statistics counters every tick.`,
      ].join('\n'),
    );
  }

  nb.markdown(
    [
      '## What stands out',
      '',
      ...(r.diagnosis.length ? r.diagnosis.map((d) => `- ${mdEscape(d)}`) : ['- Nothing crossed a threshold.']),
    ].join('\n'),
  );

  if (r.marks.length) {
    nb.markdown(
      `## Marks\n\nEach mark compared: up to ${MARK_WINDOW_MS / 1000} s before it against up to ${MARK_WINDOW_MS / 1000} s after it (the tick it fell in belongs to neither).`,
    );
    for (const m of r.marks) {
      const [before, after] = windowsAroundMark(near, r.marks, m, MARK_WINDOW_MS);
      if (!before.length || !after.length) {
        nb.markdown(`### "${mdEscape(m.name)}" at ${(m.t / 1000).toFixed(1)} s\n\nNo ticks on one side of it to compare.`);
        continue;
      }
      const c = compareWindows(windowFigures('before the mark', before), windowFigures('after the mark', after));
      nb.markdown(
        [`### "${mdEscape(m.name)}" at ${(m.t / 1000).toFixed(1)} s`, '', ...c.summary.map((s) => `- ${mdEscape(s)}`)].join('\n'),
      );
      const cell = (v: number | null) => (v === null ? '-' : formatNumber(v));
      nb.sql(
        `-- Mark "${m.name.replace(/[\r\n]/g, ' ')}": before against after. This cell only carries outputs.`,
        [
          tableOutput(
            ['figure', 'unit', 'before', 'after', 'change'],
            c.figures.map((f) => [
              f.label,
              f.unit,
              cell(f.a),
              cell(f.b),
              f.changePct === null ? '-' : `${f.changePct > 0 ? '+' : ''}${f.changePct.toFixed(0)}%`,
            ]),
          ),
        ],
        { spinlab: { role: 'watch-mark', mark: m.id } },
      );
    }
  }

  nb.markdown(
    `## Charts\n\nThe whole watch, ${history.ticksPerPoint === 1 ? 'every tick' : `each point the mean of ${plural(history.ticksPerPoint, 'tick')}`}.`,
  );
  const spinNames = namesOf(points, 'spinlocks');
  const waitNames = namesOf(points, 'waits').filter((n) => !isBenignWait(n));
  const charts = [
    chart(
      'Batch requests and transactions per second',
      'per second',
      points,
      [
        ['batch requests/s', (p) => p.batchRequestsPerSec],
        ['transactions/s', (p) => p.transactionsPerSec],
      ],
      gaps,
    ),
    chart(
      'Top spinlocks: spins per second',
      'spins/s',
      points,
      spinNames.map((n) => [n, (p: WatchPoint) => p.spinlocks[n] ?? 0]),
      gaps,
    ),
    chart('Spinlock backoffs per second (all)', 'backoffs/s', points, [['backoffs/s', (p) => p.backoffsPerSec]], gaps),
    chart(
      'Top waits, benign excluded: ms per second',
      'wait ms/s',
      points,
      waitNames.map((n) => [n, (p: WatchPoint) => p.waits[n] ?? 0]),
      gaps,
    ),
    chart('Latch waits: ms per second (all)', 'latch ms/s', points, [['latch ms/s', (p) => p.latchMsPerSec]], gaps),
    chart('Log bytes flushed per second', 'bytes/s', points, [['log bytes/s', (p) => p.logBytesPerSec]], gaps),
    chart(
      'CPU busy (mean of NUMA nodes) and runnable tasks',
      '% / tasks',
      points,
      [
        ['CPU %', (p) => p.cpuPct],
        ['runnable tasks', (p) => p.runnableTasks],
      ],
      gaps,
    ),
  ];
  for (const c of charts) nb.sql('-- Chart. This cell only carries outputs.', [c], { spinlab: { role: 'chart' } });

  const sec = r.totals.elapsedMs / 1000 || 1;
  const spins = Object.entries(r.totals.spinlocks)
    .sort((a, b) => b[1].spins - a[1].spins)
    .slice(0, 15);
  const waits = Object.entries(r.totals.waits)
    .filter(([k]) => !isBenignWait(k))
    .sort((a, b) => b[1].waitMs - a[1].waitMs)
    .slice(0, 15);
  const latches = Object.entries(r.totals.latches)
    .sort((a, b) => b[1].waitMs - a[1].waitMs)
    .slice(0, 15);
  nb.markdown('## Totals over the watch');
  nb.sql(
    '-- Top spinlocks over the watch. This cell only carries outputs.',
    [
      tableOutput(
        ['spinlock', 'spins/s', 'backoffs/s', 'spins per collision'],
        spins.map(([k, s]) => [
          k,
          formatNumber(s.spins / sec),
          formatNumber(s.backoffs / sec),
          s.collisions ? formatNumber(s.spins / s.collisions) : '-',
        ]),
      ),
    ],
    { spinlab: { role: 'results' } },
  );
  nb.sql(
    '-- Top waits over the watch (benign excluded). This cell only carries outputs.',
    [
      tableOutput(
        ['wait', 'ms/s', 'waits/s', 'ms per wait'],
        waits.map(([k, w]) => [
          k,
          formatNumber(w.waitMs / sec),
          formatNumber(w.count / sec),
          w.count ? formatNumber(w.waitMs / w.count) : '-',
        ]),
      ),
    ],
    { spinlab: { role: 'results' } },
  );
  nb.sql(
    '-- Top latches over the watch. This cell only carries outputs.',
    [
      tableOutput(
        ['latch class', 'ms/s', 'waits/s'],
        latches.map(([k, l]) => [k, formatNumber(l.waitMs / sec), formatNumber(l.count / sec)]),
      ),
    ],
    { spinlab: { role: 'results' } },
  );

  const tick = step('The watch tick', 'watch/tick', { top_requests: r.settings.topRequests, text_chars: r.settings.textChars }, 'master');
  nb.markdown(
    `## The tick, to run by hand\n\nWhat Spinlock Lab reads every tick, in full (needs ${mdEscape(tick.permission)}): the watch itself sends only the rows that moved, comparing with the previous tick kept in #temp tables on its own connection. Run this twice and subtract; it creates and changes nothing.`,
  );
  nb.sql(tick.sql, [], { spinlab: { role: 'replay' } });
  // The record travels in the metadata under its own key: the experiments' notebook reader does not mistake it.
  return nb.build({ spinlab_watch: record });
}

export async function writeWatchNotebookFile(dir: string, file: string): Promise<string> {
  const nb = await buildWatchNotebook(dir);
  makeDirs(path.dirname(path.resolve(file)));
  writeWhole(file, JSON.stringify(nb, null, 1) + '\n', NOTEBOOK_WRITE_HINT);
  return file;
}
