// An experiment (and any re-runs of it) as a Jupyter notebook that reads well where Spinlock Lab is not installed and
// can be re-run where it is. Reading order: title and question; server and topology; knobs; the T-SQL to replay it by
// hand; results tables; charts; a summary generated from the numbers. The full records travel in metadata.spinlab
// (versioned); the series also travel as SERIES_MIME outputs that the extension's notebook renderer draws
// interactively. Nothing secret is in an Experiment record, and nothing else goes in.
// This module orders the cells; their content comes from markdown.ts (setup text), tables.ts, charts.ts and summary.ts.
import type { Experiment } from '../../shared/experiment';
import { formatNumber } from '../../shared/analysis';
import { presetViews, type ViewTable } from '../presetViews';
import { noiseView, repeatsView } from '../presetViews/repeats';
import { isRepeated } from '../../shared/repeats';
import { resultsReport } from '../report';
import { NotebookBuilder, displayData, type Notebook } from './nbformat';
import { buildReplay, loadCommandLines, type ReplayStep } from './replay';
import { addStacksSection } from './stacks';
import { knobsSection, mdEscape, presetSection, serverSection } from './markdown';
import { getScenarioUnit, resultsRows, tableOutput } from './tables';
import { chartOutput, chartSeries, experimentLabel } from './charts';
import { summaryLines } from './summary';
import { addTuneSection } from './tuneSection';
import * as path from 'node:path';
import { writeReason } from '../custom/batch';

/** Version of metadata.spinlab. Bump it with a migration in read.ts when its shape changes. */
export const NOTEBOOK_RECORD_VERSION = 1;
/** Output type carrying chart series for the extension's renderer (src/renderer); other viewers show the SVG beside it. */
export { SERIES_MIME } from '../../shared/seriesPayload';

export interface SpinlabNotebookRecord {
  version: typeof NOTEBOOK_RECORD_VERSION;
  /** The first is the original experiment; later ones are re-runs added beside it. */
  experiments: Experiment[];
}

function replayCells(nb: NotebookBuilder, steps: ReplayStep[]): void {
  for (const s of steps) nb.sql(`-- ${s.title}\n-- ${s.purpose}\n-- Needs: ${s.permission}\n${s.sql}`, [], { spinlab: { role: 'replay' } });
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
      ...(cmd.note ? ['', cmd.note] : []),
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
  const all = w.perIteration === 'all';
  const each =
    w.iterations !== null
      ? `${formatNumber(w.iterations)} ${all ? 'iterations' : 'calls'} per session`
      : `${(e.load.durationMs ?? 0) / 1000} s per run`;
  nb.markdown(
    [
      '## Custom workload',
      '',
      `Runs in database \`${w.database}\` by threads ${e.load.threads.join(', ')}, ${each}: ${w.statements.length} statement${w.statements.length === 1 ? '' : 's'}, ${all ? 'each iteration running all of them in order (as ostress runs its file)' : 'run in turn by each session'}. Spinlock Lab deploys nothing there.`,
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

/** An analysis view as a heading with its sentences, then its table as an output. */
function viewCells(nb: NotebookBuilder, v: ViewTable, label: string): void {
  const heading = `### ${mdEscape(v.title)}${label ? ` (${mdEscape(label)})` : ''}`;
  nb.markdown([heading, '', ...v.lines.map((l) => `- ${mdEscape(l.trim())}`)].join('\n'));
  if (v.rows.length)
    nb.sql(`-- ${v.title}. This cell only carries outputs.`, [tableOutput(v.headers, v.rows)], {
      spinlab: { role: 'analysis', view: v.kind },
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
      `Recorded by Spinlock Lab ${first.tool.version} on ${first.createdAt}. ${many ? `${experiments.length} experiments: the first and those added beside it (re-runs, and any added with --add-to).` : ''}`,
      'Open it in VS Code with Spinlock Lab to run it again against your own server; or replay the T-SQL below by hand.',
    ]
      .filter((l, i, a) => !(l === '' && a[i - 1] === ''))
      .join('\n'),
  );

  if (first.preset) nb.markdown(presetSection(first));
  // A tune's search comes first: the trials below are its runs.
  if (first.tune) addTuneSection(nb, first);

  for (const e of experiments) {
    nb.markdown(`## Server${many ? `: ${mdEscape(experimentLabel(e, true))}` : ''}\n\n${serverSection(e)}`);
    nb.markdown(`## Knobs${many ? `: ${mdEscape(experimentLabel(e, true))}` : ''}\n\n${knobsSection(e)}`);
  }

  if (first.custom) customCells(nb, first);
  else replaySection(nb, first);

  nb.markdown('## Results');
  for (const e of experiments) {
    const { headers, rows } = resultsRows(e);
    nb.sql(
      `-- Recorded results${many ? ` (${experimentLabel(e, true)})` : ''}. This cell only carries outputs: running it does nothing.`,
      [tableOutput(headers, rows), displayData({ 'text/plain': resultsReport(e, getScenarioUnit(e)) })],
      { spinlab: { role: 'results', experiment: e.id } },
    );
    // A preset's views below carry these for its arms; a scenario's repeated runs get them here.
    if (!e.preset && isRepeated(e.runs))
      for (const v of [repeatsView(e.runs, getScenarioUnit(e), []), noiseView(e.runs)])
        viewCells(nb, v, many ? experimentLabel(e, true) : '');
  }

  nb.markdown('## Charts');
  for (const c of chartSeries(experiments))
    nb.sql(`-- Chart: ${c.title}. This cell only carries outputs.`, [chartOutput(c)], { spinlab: { role: 'chart' } });

  addStacksSection(nb, experiments, (e) => experimentLabel(e, many));

  const analysed = experiments.filter((e) => e.preset);
  if (analysed.length) {
    nb.markdown('## Analysis');
    for (const e of analysed) {
      for (const v of presetViews(e, getScenarioUnit(e)).filter((x) => x.kind !== 'runs'))
        viewCells(nb, v, many ? experimentLabel(e, true) : '');
    }
  }

  nb.markdown(['## Summary', '', ...summaryLines(experiments).map((l) => `- ${mdEscape(l)}`)].join('\n'));

  const record: SpinlabNotebookRecord = { version: NOTEBOOK_RECORD_VERSION, experiments: [...experiments] };
  return nb.build({ spinlab: record });
}
