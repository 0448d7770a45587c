// A tune's result as the CLI prints it: the leaderboard with intervals, the winner against the current settings,
// how sure the search is, why the winner wins, and the T-SQL that applies it.
import type { Experiment } from '../shared/experiment';
import { citePost } from '../shared/posts';
import {
  applyNote,
  budgetLine,
  configName,
  constraintsLine,
  droppedLines,
  LEADERBOARD_HEADERS,
  leaderboardRows,
  moreTimeLine,
  roundLines,
  tuneObjective,
} from '../shared/tuneText';
import { table } from './textTable';
import { plural } from '../shared/plural';

export function tuneReport(e: Experiment): string[] {
  const t = e.tune;
  if (!t) return ['This experiment is not a tune.'];
  const o = tuneObjective(e);
  const limits = constraintsLine(t);
  const out: string[] = [`Objective: ${o.label} (${o.higherBetter ? 'higher' : 'lower'} is better).`, ...(limits ? [limits] : []), ''];
  const rows = leaderboardRows(t, false);
  if (rows.length) out.push(...table(LEADERBOARD_HEADERS(o.unit, o.label), rows, 2).split('\n'), '');
  const dropped = droppedLines(t);
  if (dropped.length) out.push('Dropped:', ...dropped.map((l) => `  ${l}`), '');
  out.push('Search:', ...roundLines(t).map((l) => `  ${l}`), '');
  const r = t.result;
  if (!r) {
    out.push(`The search found no result${t.stopReason ? `: ${t.stopReason}` : ''}.`, budgetLine(t));
    return out;
  }
  const at = (s: { config: string; threads: number }) => `${configName(t, s.config)} at ${plural(s.threads, 'session')}`;
  out.push(`Winner: ${at(r.winner)}${r.current ? `, against the current settings (${at(r.current)})` : ''}.`);
  out.push(r.verdict, ...(r.selection ? [r.selection] : []), r.certainty, moreTimeLine(r));
  if (r.reasons.length) {
    out.push('', 'Why:');
    for (const x of r.reasons) out.push(`  - ${x.text}${x.post ? ` (${citePost(x.post)})` : ''}`);
  }
  if (r.applySql.length) out.push('', applyNote(t), ...r.applySql.map((s) => `  ${s}`));
  out.push('', budgetLine(t));
  if (t.stopReason) out.push(`Stopped: ${t.stopReason.replace(/\.$/, '')}.`);
  return out;
}
