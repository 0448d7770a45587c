// A tune's result as the CLI prints it: the leaderboard with intervals, the winner against the current settings,
// how sure the search is, why the winner wins, and the T-SQL that applies it.
import type { Experiment } from '../shared/experiment';

export function tuneReport(e: Experiment): string[] {
  const r = e.tune?.result;
  if (!r) return [`The search found no result${e.tune?.stopReason ? `: ${e.tune.stopReason}` : ''}.`];
  return [r.verdict, r.certainty, ...(r.moreTime ? [r.moreTime] : []), ...r.applySql];
}
