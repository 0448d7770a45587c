// A tune's "Search" section of its notebook: what was searched and towards what, within which budget; the
// leaderboard; the verdict and why, with the posts cited; the T-SQL that applies the winner (not run); and the charts
// of the search. The ordinary sections (results, charts of each trial) follow it, since every trial is a run.
import type { Experiment } from '../../shared/experiment';
import { citePost } from '../../shared/posts';
import {
  applyNote,
  budgetLine,
  CONFIG_HEADERS,
  configName,
  configRows,
  constraintsLine,
  LEADERBOARD_HEADERS,
  leaderboardRows,
  moreTimeLine,
  roundLines,
  tuneObjective,
} from '../../shared/tuneText';
import { mdEscape } from './markdown';
import { displayData, type NotebookBuilder } from './nbformat';
import { chartOutput } from './charts';
import { tableOutput } from './tables';
import { searchChartSvg, searchTrials, sessionCurves } from './tuneChart';
import { plural } from '../../shared/plural';

const mdRow = (cells: string[]) => `| ${cells.map(mdEscape).join(' | ')} |`;

export function addTuneSection(nb: NotebookBuilder, e: Experiment): void {
  const t = e.tune;
  if (!t) return;
  const o = tuneObjective(e);
  const ladders = [...new Set(t.configs.map((c) => c.sessions.join(', ')))];
  nb.markdown(
    [
      '## Search',
      '',
      `**Objective:** ${mdEscape(o.label)} (${mdEscape(o.unit)}), ${o.higherBetter ? 'higher' : 'lower'} is better.` +
        (t.constraints.length ? ` ${mdEscape(constraintsLine(t))}` : ''),
      '',
      `${budgetLine(t)} Each trial ran ${t.trialMs / 1000} s after a ${t.warmupMs / 1000} s warm-up.${t.stopReason ? ` Stopped: ${mdEscape(t.stopReason.replace(/\.$/, ''))}.` : ''}`,
      '',
      t.sharedServer
        ? `> Run with other work on the server (--shared-server): its intervals are widened.${t.otherActivity ? ` Before the first trial: ${t.otherActivity.batchRequestsPerSec} batch requests/s from ${t.otherActivity.sessions} other sessions.` : ''}\n`
        : '',
      `The configurations searched (one per arm of this experiment; sessions as a curve, ${ladders.length === 1 ? `ladder ${ladders[0]}` : 'each its own ladder'}):`,
      '',
      mdRow(CONFIG_HEADERS),
      `|${CONFIG_HEADERS.map(() => ' --- ').join('|')}|`,
      ...configRows(t).map(mdRow),
      '',
      'The rounds:',
      '',
      ...roundLines(t).map((l) => `- ${mdEscape(l)}`),
    ]
      .filter((l, i, a) => !(l === '' && a[i - 1] === ''))
      .join('\n'),
  );
  nb.sql(
    '-- The leaderboard: each configuration at its best session count, best first. This cell only carries outputs.',
    [tableOutput(LEADERBOARD_HEADERS(o.unit, o.label), leaderboardRows(t))],
    { spinlab: { role: 'analysis', view: 'tune-leaderboard' } },
  );
  const r = t.result;
  if (r) {
    const at = (s: { config: string; threads: number }) => `${configName(t, s.config)} at ${plural(s.threads, 'session')}`;
    nb.markdown(
      [
        '### Verdict',
        '',
        `**Winner:** ${mdEscape(at(r.winner))}${r.current ? `, against the current settings (${mdEscape(at(r.current))})` : ''}.`,
        '',
        `- ${mdEscape(r.verdict)}`,
        ...(r.selection ? [`- ${mdEscape(r.selection)}`] : []),
        `- ${mdEscape(r.certainty)}`,
        `- ${mdEscape(moreTimeLine(r))}`,
        ...(r.reasons.length
          ? ['', '**Why:**', '', ...r.reasons.map((x) => `- ${mdEscape(x.text)}${x.post ? ` (${citePost(x.post, 'markdown')})` : ''}`)]
          : []),
      ].join('\n'),
    );
    if (r.applySql.length)
      nb.sql([`-- ${applyNote(t)}`, '-- Running this cell changes the server for everyone on it.', ...r.applySql].join('\n'), [], {
        spinlab: { role: 'tune-apply' },
      });
  }
  const trials = searchTrials(e);
  nb.sql(
    '-- Chart: the search. This cell only carries outputs.',
    [
      displayData({
        'image/svg+xml': searchChartSvg(e),
        'text/plain': `The search: ${o.label} of each of ${plural(trials.length, 'trial')} in the order they ran, by configuration (chart).`,
      }),
    ],
    { spinlab: { role: 'chart' } },
  );
  const curves = sessionCurves(e);
  if (curves.series.some((s) => s.points.length))
    nb.sql(`-- Chart: ${curves.title}. This cell only carries outputs.`, [chartOutput(curves)], { spinlab: { role: 'chart' } });
}
