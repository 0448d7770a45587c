// An experiment (and any re-runs of it) as a Jupyter notebook that reads well where Spinlock Lab is not installed and
// can be re-run where it is. Reading order: title and question; server and topology; knobs; the T-SQL to replay it by
// hand; results tables; charts; a summary generated from the numbers. The full records travel in metadata.spinlab
// (versioned); the series also travel as SERIES_MIME outputs that the extension's notebook renderer draws
// interactively. Nothing secret is in an Experiment record, and nothing else goes in.
import type { Experiment, RunRecord } from '../../shared/experiment';
import { compareRuns, runFigures, scalingCurve, summarizeScaling, topNames, formatNumber } from '../../shared/analysis';
import { figureText } from '../../shared/numberText';
import { describeSpread } from '../../shared/sessionSpread';
import { isBenignWait } from '../../shared/benign';
import { citePost } from '../../shared/posts';
import { getScenario } from '../scenarios';
import { presetViews } from '../presetViews';
import { armsInOrder, compareArms, overlayScaling } from '../../shared/armAnalysis';
import { resultsReport, table } from '../report';
import { NotebookBuilder, displayData, type DisplayDataOutput, type Notebook } from './nbformat';
import { buildReplay, loadCommandLines, type ReplayStep } from './replay';
import { escapeXml, svgLineChart, type SvgSeries } from './svgChart';
import { addStacksSection } from './stacks';
import type { SeriesPayload } from '../../shared/seriesPayload';
import * as path from 'node:path';
import { writeReason } from '../custom/batch';

/** Version of metadata.spinlab. Bump it with a migration in read.ts when its shape changes. */
export const NOTEBOOK_RECORD_VERSION = 1;
/** Output type carrying chart series for the extension's renderer (src/renderer); other viewers show the SVG beside it. */
export { SERIES_MIME } from '../../shared/seriesPayload';
import { SERIES_MIME } from '../../shared/seriesPayload';

export interface SpinlabNotebookRecord {
  version: typeof NOTEBOOK_RECORD_VERSION;
  /** The first is the original experiment; later ones are re-runs added beside it. */
  experiments: Experiment[];
}

function label(e: Experiment, many: boolean): string {
  return many ? `${e.server.serverName} ${e.createdAt.slice(0, 16).replace('T', ' ')}` : '';
}

function runName(r: RunRecord, prefix: string): string {
  const arm = r.arm && r.arm.id !== 'main' ? `${r.arm.label}, ` : '';
  return `${prefix ? prefix + ' ' : ''}run ${r.index + 1} (${arm}${r.threads} thread${r.threads === 1 ? '' : 's'})`;
}

function chartOutput(p: SeriesPayload): DisplayDataOutput {
  const svg = svgLineChart(
    p.series.map((s): SvgSeries => ({ ...s, markers: p.kind === 'scaling' })),
    { title: p.title, xLabel: p.xLabel, yLabel: p.yLabel },
  );
  const alt = `${p.title}: ${p.series.map((s) => s.name).join(', ')} (chart)`;
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

function presetSection(e: Experiment): string {
  const p = e.preset!;
  const arms = armsInOrder(e.runs).map((a) => {
    const r = e.runs.find((x) => x.arm.id === a.id)!;
    const k = r.arm.knobs;
    const knobs =
      [k.delayedDurability ? `delayed durability ${k.delayedDurability}` : '', k.affinity ? `affinity ${k.affinity.spec}` : '']
        .filter(Boolean)
        .join(', ') || 'server as it was';
    const params = Object.entries(r.arm.parameters)
      .map(([n, v]) => `${n}=${String(v)}`)
      .join(', ');
    const threads = [...new Set(e.runs.filter((x) => x.arm.id === a.id).map((x) => x.threads))].join(', ');
    return `| ${mdEscape(a.label)} | ${r.arm.scenarioId} | ${mdEscape(params)} | ${mdEscape(knobs)} | ${threads} |`;
  });
  return [
    `## Preset \`${p.id}\``,
    '',
    `Reproduces the experiment of ${citePost(p.post, 'markdown')}. ${mdEscape(p.question)}`,
    '',
    ...(p.notes.length ? ['How it adapted to this server:', '', ...p.notes.map((n) => `- ${mdEscape(n)}`), ''] : []),
    '| Arm | Scenario | Parameters | Knobs | Threads |',
    '| --- | --- | --- | --- | --- |',
    ...arms,
  ].join('\n');
}

function htmlTable(headers: string[], rows: string[][]): string {
  const th = headers.map((h) => `<th>${escapeXml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeXml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

export function tableOutput(headers: string[], rows: string[][]): DisplayDataOutput {
  return displayData({ 'text/html': htmlTable(headers, rows), 'text/plain': table(headers, rows) });
}

export const mdEscape = (s: string) => s.replace(/([\\`*_{}[\]<>|#])/g, '\\$1');

function serverSection(e: Experiment): string {
  const t = e.topology;
  const online = t.schedulers.filter((s) => s.isOnline).length;
  const lw =
    t.logWriters.map((w) => `scheduler ${w.schedulerId} (CPU ${w.cpuId ?? '?'}, node ${w.nodeId ?? '?'})`).join('; ') || 'not seen';
  const flags =
    t.traceFlags === null
      ? 'could not be read'
      : t.traceFlags
          .filter((f) => f.global)
          .map((f) => f.flag)
          .join(', ') || 'none';
  const rows: [string, string][] = [
    ['Server', `${e.server.serverName} (${e.server.machineName})`],
    ['Version', `${e.server.productVersion}, ${e.server.edition}`],
    ['Sockets / cores per socket / logical CPUs', `${t.socketCount} / ${t.coresPerSocket} / ${t.cpuCount}`],
    [
      'NUMA nodes',
      `${t.numaNodeCount}${t.softNuma ? ` (soft-NUMA ${t.softNuma})` : ''}: ${t.nodes.map((n) => `node ${n.nodeId} ${n.onlineSchedulerCount}/${n.cpuCount} online`).join(', ')}`,
    ],
    ['Schedulers online', `${online} of ${t.schedulers.length} (affinity ${t.affinityType})`],
    ['Log writer', lw],
    [
      'Memory model',
      `${t.memoryModel ?? 'unknown'}${t.largePageAllocationsKb ? `, large pages ${formatNumber(t.largePageAllocationsKb)} KB` : ''}`,
    ],
    ['Global trace flags', flags],
  ];
  return ['| | |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${mdEscape(v)} |`)].join('\n');
}

function knobsSection(e: Experiment): string {
  const a = e.knobs.applied;
  const before = e.knobs.before;
  const restored = e.knobs.restored;
  const aff = (x: { type: string; cpus: number[] } | undefined | null) =>
    x ? (x.type === 'AUTO' ? 'AUTO' : `CPUs ${x.cpus.join(',')}`) : 'n/a';
  const rows = [
    [
      'Delayed durability (lab database)',
      before?.delayedDurability ?? 'n/a',
      a.delayedDurability ?? 'unchanged',
      restored?.delayedDurability ?? (a.delayedDurability ? 'not recorded' : 'n/a'),
    ],
    [
      'Process affinity',
      aff(before?.affinity),
      a.affinity ? `${a.affinity.spec}${a.affinity.cpus === 'AUTO' ? '' : ` (CPUs ${a.affinity.cpus.join(',')})`}` : 'unchanged',
      restored ? aff(restored.affinity) : a.affinity ? 'not recorded' : 'n/a',
    ],
  ];
  const params =
    Object.entries(e.scenario.parameters)
      .map(([k, v]) => `\`${k}\` = ${String(v)}`)
      .join(', ') || 'none';
  const load = e.load;
  return [
    `Scenario **${e.scenario.id}** with ${params}; ${load.mode}, threads ${load.threads.join(', ')}, ` +
      `${load.rows !== null ? `${formatNumber(load.rows)} rows per run` : `${(load.durationMs ?? 0) / 1000} s per run`}, ` +
      `warm-up ${load.warmupMs / 1000} s, sampled every ${load.intervalMs} ms; lab database \`${e.labDatabase}\`.`,
    '',
    '| Setting | Before | During the runs | After (restored) |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.map(mdEscape).join(' | ')} |`),
  ].join('\n');
}

function resultsRows(e: Experiment): { headers: string[]; rows: string[][] } {
  const figs = e.runs.map(runFigures);
  const spin = topNames(
    figs.map((f) => f.spins),
    3,
  );
  const wait = topNames(
    figs.map((f) => f.waitMs),
    2,
  );
  const unit = getScenarioUnit(e);
  const armed = e.runs.some((r) => r.arm && r.arm.id !== 'main');
  const headers = [
    'run',
    ...(armed ? ['arm'] : []),
    'threads',
    'status',
    'elapsed s',
    unit,
    `${unit}/s`,
    'CPU ms/row',
    ...spin.map((n) => `${n} spins/row`),
    ...wait.map((n) => `${n} ms/row`),
    'p99 µs',
  ];
  const rows = e.runs.map((r, i) => {
    const f = figs[i];
    return [
      String(r.index + 1),
      ...(armed ? [r.arm.label] : []),
      String(r.threads),
      r.status,
      f.elapsedSec.toFixed(1),
      figureText(f.rows),
      figureText(f.rowsPerSec),
      f.cpuMsPerRow === null ? '-' : formatNumber(f.cpuMsPerRow),
      ...spin.map((n) => formatNumber(f.spinsPerRow[n] ?? 0)),
      ...wait.map((n) => formatNumber(f.waitMsPerRow[n] ?? 0)),
      f.p99Us === null ? '-' : formatNumber(f.p99Us),
    ];
  });
  return { headers, rows };
}

function getScenarioUnit(e: Experiment): string {
  try {
    return getScenario(e.scenario.id).unit ?? 'rows';
  } catch {
    return 'rows';
  }
}

function replayCells(nb: NotebookBuilder, steps: ReplayStep[]): void {
  for (const s of steps) nb.sql(`-- ${s.title}\n-- ${s.purpose}\n-- Needs: ${s.permission}\n${s.sql}`, [], { spinlab: { role: 'replay' } });
}

/** The summary: what changed between runs (and between the original and each re-run), from the numbers. */
export function summaryLines(experiments: readonly Experiment[]): string[] {
  const out: string[] = [];
  const [first, ...reruns] = experiments;
  if (!first) return out;
  if (experiments.some((e) => e.simulated))
    out.push('These numbers come from the Spinlock Lab simulator: they show the direction of an effect, not a measurement.');
  const done = (e: Experiment) => e.runs.filter((r) => r.status === 'completed' && r.rows > 0);
  const runs = done(first);
  for (const e of experiments) {
    for (const c of e.preset?.comparisons ?? []) {
      const at = compareArms(e.runs, c.a, c.b);
      const last = at[at.length - 1];
      if (last)
        out.push(
          ...last.summary
            .slice(0, 3)
            .map((x) => `${c.label}, ${last.threads} threads${experiments.length > 1 ? ` (${e.server.serverName})` : ''}: ${x}`),
        );
    }
  }
  if (first.preset) {
    // A preset's runs are arms, not a sweep of one setting: its comparisons above say what changed.
  } else if (runs.length >= 2) {
    const curve = scalingCurve(first);
    out.push(summarizeScaling(curve));
    const c = compareRuns(runFigures(runs[0]), runFigures(runs[runs.length - 1]), 3);
    out.push(...c.summary.map((s) => `Run ${runs[0].index + 1} (A) against run ${runs[runs.length - 1].index + 1} (B): ${s}`));
  } else if (runs.length === 1) {
    out.push(`One completed run: ${formatNumber(runFigures(runs[0]).rowsPerSec)} rows/s at ${runs[0].threads} threads.`);
  } else {
    out.push('No run completed with rows, so there is nothing to compare.');
  }
  for (const e of reruns) {
    for (const r of done(e)) {
      const original = runs.find((o) => o.threads === r.threads && o.arm?.id === r.arm?.id);
      if (!original) continue;
      const c = compareRuns(runFigures(original), runFigures(r), 3);
      const where = r.arm && r.arm.id !== 'main' ? `${r.arm.label}, ` : '';
      out.push(
        ...c.summary
          .slice(0, 3)
          .map((s) => `${where}${r.threads} threads, original (A) against the re-run on ${e.server.serverName} (B): ${s}`),
      );
    }
  }
  for (const e of experiments) {
    for (const r of e.runs)
      if (r.sessionSpread)
        out.push(
          `Run ${r.index + 1} (${r.threads} threads): ${describeSpread(r.sessionSpread, runFigures(r).rowsPerSec, getScenarioUnit(e))}.`,
        );
  }
  for (const e of experiments) {
    for (const ev of e.events.filter((x) => x.level !== 'info'))
      out.push(`${ev.level === 'error' ? 'Error' : 'Note'} (${e.server.serverName}): ${ev.message}`);
  }
  return out;
}

/** The T-SQL to replay a scenario by hand, with the equivalent command lines. */
function replaySection(nb: NotebookBuilder, first: Experiment): void {
  const replay = buildReplay(first);
  const cmd = loadCommandLines(first);
  nb.markdown(
    [
      '## Replay by hand',
      '',
      'The statements Spinlock Lab sent, in order, with their parameters declared. Run the workload from several sessions at once:',
      '',
      '```sh',
      '# Spinlock Lab (connection in SPINLAB_CONNECTION, password in SPINLAB_PASSWORD)',
      cmd.spinlab,
      '# ostress (RML Utilities), one line per thread count; set SPINLAB_SERVER, SPINLAB_USER, SPINLAB_PASSWORD first',
      ...cmd.ostress,
      '```',
      '',
      'Sample the DMVs with the snapshot query before and after the load and subtract; put the knobs back afterwards.',
    ].join('\n'),
  );
  replayCells(nb, replay.deploy);
  replayCells(nb, replay.knobs);
  replayCells(nb, [replay.workload, replay.sample]);
  replayCells(nb, replay.restore);
  replayCells(nb, replay.cleanup);
}

/**
 * A custom workload's own T-SQL, one SQL cell per statement as it runs, each classified from its text (not from a
 * stored label): these are the cells a reader checks before running it again.
 */
function customCells(nb: NotebookBuilder, e: Experiment): void {
  const w = e.custom!;
  const p = w.params;
  const each = w.iterations !== null ? `${formatNumber(w.iterations)} calls per session` : `${(e.load.durationMs ?? 0) / 1000} s per run`;
  nb.markdown(
    [
      '## Custom workload',
      '',
      `Runs in database \`${w.database}\` by threads ${e.load.threads.join(', ')}, ${each}: ${w.statements.length} statement${w.statements.length === 1 ? '' : 's'}, run in turn by each session. Spinlock Lab deploys nothing there.`,
      '',
      ...w.statements.map(
        (st, i) =>
          `- Statement ${i + 1} (${mdEscape(st.source)}): ${writeReason([st.text]) === null ? 'reads' : `**writes** (${mdEscape(writeReason([st.text])!)})`}`,
      ),
      ...(p
        ? [
            '',
            `Parameters: ${p.rows} rows (${p.columns.map((c) => `@${c.name} ${c.type}`).join(', ')}) ${p.kind === 'csv' ? `from ${mdEscape(path.basename(p.from))}${p.csvText !== undefined ? ', saved inside this notebook' : ''}` : 'from a parameter query'}, ${p.order}, ${p.scope}.`,
          ]
        : []),
    ].join('\n'),
  );
  w.statements.forEach((st, i) => nb.sql(st.text, [], { spinlab: { role: 'workload', statement: i + 1 } }));
  if (p?.kind === 'query')
    nb.sql(`-- The parameter query (run once before the runs; its rows are not saved)\n${p.from}`, [], {
      spinlab: { role: 'workload', statement: 'params' },
    });
}

export function buildNotebook(experiments: readonly Experiment[]): Notebook {
  if (!experiments.length) throw new Error('a notebook needs at least one experiment');
  const [first] = experiments;
  const many = experiments.length > 1;
  const nb = new NotebookBuilder();
  const sim = experiments.some((e) => e.simulated);
  nb.markdown(
    [
      `# ${mdEscape(first.title)}`,
      '',
      first.question ? `**Question:** ${mdEscape(first.question)}` : '**Question:** (none was written down)',
      '',
      sim
        ? '> **SIMULATED.** At least one experiment here ran against the Spinlock Lab simulator: its numbers are synthetic, not measurements.\n'
        : '',
      `Recorded by Spinlock Lab ${first.tool.version} on ${first.createdAt}. ${many ? `${experiments.length} experiments: the original and its re-runs.` : ''}`,
      'Open it in VS Code with Spinlock Lab to run it again against your own server; or replay the T-SQL below by hand.',
    ]
      .filter((l, i, a) => !(l === '' && a[i - 1] === ''))
      .join('\n'),
  );

  if (first.preset) nb.markdown(presetSection(first));

  for (const e of experiments) {
    nb.markdown(`## Server${many ? `: ${mdEscape(label(e, true))}` : ''}\n\n${serverSection(e)}`);
    nb.markdown(`## Knobs${many ? `: ${mdEscape(label(e, true))}` : ''}\n\n${knobsSection(e)}`);
  }

  if (first.custom) customCells(nb, first);
  else replaySection(nb, first);

  nb.markdown('## Results');
  for (const e of experiments) {
    const { headers, rows } = resultsRows(e);
    nb.sql(
      `-- Recorded results${many ? ` (${label(e, true)})` : ''}. This cell only carries outputs: running it does nothing.`,
      [tableOutput(headers, rows), displayData({ 'text/plain': resultsReport(e, getScenarioUnit(e)) })],
      { spinlab: { role: 'results', experiment: e.id } },
    );
  }

  nb.markdown('## Charts');
  const allRuns = experiments.flatMap((e) => e.runs.filter((r) => r.timeline.length).map((r) => ({ r, prefix: label(e, many) })));
  const charts: SeriesPayload[] = [timeSeries(allRuns, 'Throughput', 'rows per second', (t) => t.rowsPerSec)];
  for (const e of experiments) {
    const last = [...e.runs].reverse().find((r) => r.timeline.length);
    if (!last) continue;
    const suffix = ` (${runName(last, label(e, many))})`;
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
  const sweeps = experiments.filter((e) => new Set(e.runs.map((r) => r.threads)).size >= 2);
  const armSweeps = sweeps.filter((e) => new Set(e.runs.map((r) => r.arm?.id)).size > 1);
  if (armSweeps.length) {
    const overlays = armSweeps.map((e) => ({ e, ov: overlayScaling(e.id, armsInOrder(e.runs), e.runs) }));
    const name = (e: Experiment, arm: string) => `${label(e, many) ? label(e, many) + ' ' : ''}${arm}`;
    charts.push({
      title: 'Scaling by arm: throughput against threads',
      xLabel: 'threads',
      yLabel: 'rows per second',
      kind: 'scaling',
      series: overlays.flatMap(({ e, ov }) =>
        ov.arms.map((a) => ({ name: name(e, a.label), points: a.curve.points.map((p) => [p.threads, p.rowsPerSec] as [number, number]) })),
      ),
    });
    charts.push({
      title: 'Scaling by arm: spins per row against threads',
      xLabel: 'threads',
      yLabel: 'spins per row',
      kind: 'scaling',
      series: overlays.flatMap(({ e, ov }) =>
        ov.arms.map((a) => ({ name: name(e, a.label), points: a.curve.points.map((p) => [p.threads, p.spinsPerRow] as [number, number]) })),
      ),
    });
    charts.push({
      title: 'Scaling by arm: wait ms per row against threads',
      xLabel: 'threads',
      yLabel: 'wait ms per row',
      kind: 'scaling',
      series: overlays.flatMap(({ e, ov }) =>
        ov.arms.map((a) => ({
          name: name(e, a.label),
          points: a.curve.points.map((p) => [p.threads, a.waitMsPerRow[p.threads] ?? 0] as [number, number]),
        })),
      ),
    });
  } else if (sweeps.length) {
    const curves = sweeps.map((e) => ({ e, c: scalingCurve(e) }));
    charts.push({
      title: 'Scaling: throughput against threads',
      xLabel: 'threads',
      yLabel: 'rows per second',
      kind: 'scaling',
      series: curves.map(({ e, c }) => ({
        name: label(e, many) || 'rows/s',
        points: c.points.map((p) => [p.threads, p.rowsPerSec] as [number, number]),
      })),
    });
    charts.push({
      title: 'Scaling: spins per row against threads',
      xLabel: 'threads',
      yLabel: 'spins per row',
      kind: 'scaling',
      series: curves.flatMap(({ e, c }) =>
        c.topSpinlocks.map((n) => ({
          name: `${label(e, many) ? label(e, many) + ' ' : ''}${n}`,
          points: c.points.map((p) => [p.threads, p.bySpinlock[n] ?? 0] as [number, number]),
        })),
      ),
    });
  }
  for (const c of charts) nb.sql(`-- Chart: ${c.title}. This cell only carries outputs.`, [chartOutput(c)], { spinlab: { role: 'chart' } });

  addStacksSection(nb, experiments, (e) => label(e, many));

  const analysed = experiments.filter((e) => e.preset);
  if (analysed.length) {
    nb.markdown('## Analysis');
    for (const e of analysed) {
      for (const v of presetViews(e, getScenarioUnit(e)).filter((x) => x.kind !== 'runs')) {
        const heading = `### ${mdEscape(v.title)}${many ? ` (${mdEscape(label(e, true))})` : ''}`;
        nb.markdown([heading, '', ...v.lines.map((l) => `- ${mdEscape(l.trim())}`)].join('\n'));
        if (v.rows.length)
          nb.sql(`-- ${v.title}. This cell only carries outputs.`, [tableOutput(v.headers, v.rows)], {
            spinlab: { role: 'analysis', view: v.kind },
          });
      }
    }
  }

  nb.markdown(['## Summary', '', ...summaryLines(experiments).map((l) => `- ${mdEscape(l)}`)].join('\n'));

  const record: SpinlabNotebookRecord = { version: NOTEBOOK_RECORD_VERSION, experiments: [...experiments] };
  return nb.build({ spinlab: record });
}
