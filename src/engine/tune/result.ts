// A tune's result from its search: the leaderboard (winner and runner-up marked), the verdict on the winner against
// the current settings from the confirmation's fresh pairs of trials (paired t), the selection's own estimate beside
// it labelled as biased, how sure the search is that the winner beats the runner-up, what more time would settle
// (never nothing while the verdict is open), and the T-SQL that applies the winner (shown, never run unless asked).
import { compareFigures, excludesOne, type StoredRatio } from '../../shared/repeats/interval';
import { repetitionsToDetect } from '../../shared/repeats/plan';
import { changeWords, ratioVerdict, ratioIntervalText, type VerdictWords } from '../../shared/repeats/words';
import {
  objectiveText,
  type TuneConfig,
  type TuneConfirmation,
  type TuneInfo,
  type TuneObjective,
  type TuneResult,
} from '../../shared/tune';
import { pairedRatio, pairsToDetect } from '../../shared/tunePaired';
import type { Topology } from '../../shared/types';
import { cpusByNode, formatCpuRanges, parseAffinity } from '../../shared/affinity';
import type { TuneSearch } from './search';
import { plural } from '../../shared/plural';
import { ratioText } from '../../shared/numberText';

/** The change a verdict left open plans for: what more pairs or trials would show. */
const PLANNED_CHANGE = 0.05;

function words(o: TuneObjective, subject: string): VerdictWords {
  const t = objectiveText(o);
  return o.kind === 'throughput'
    ? { subject, figure: 'throughput', higher: 'faster', lower: 'slower', against: 'the current settings' }
    : {
        subject,
        figure: t.label.toLowerCase().replace(/^latency p99$/, 'p99 latency'),
        higher: 'higher',
        lower: 'lower',
        against: 'the current settings',
      };
}

const minutes = (ms: number) => (ms < 90_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`);

/** The T-SQL that puts the winner in place, and what no statement can set (rows per transaction, sessions). */
export function applySqlFor(c: TuneConfig, threads: number, t: Topology, database: string, custom: boolean): string[] {
  const out: string[] = [];
  if (c.affinity) {
    const a = parseAffinity(c.affinity, t);
    const node = /^numa:(\d+)$/i.exec(c.affinity);
    if (a.cpus === 'AUTO') out.push('ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = AUTO;');
    else if (node && cpusByNode(t).has(Number(node[1]))) out.push(`ALTER SERVER CONFIGURATION SET PROCESS AFFINITY NUMANODE = ${node[1]};`);
    else out.push(`ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = ${formatCpuRanges(a.cpus)};`);
  }
  if (c.delayedDurability)
    out.push(
      `ALTER DATABASE [${database.replace(/]/g, ']]')}] SET DELAYED_DURABILITY = ${c.delayedDurability}; -- trades durability for speed: a crash loses the last commits`,
    );
  if (c.batchSize !== null) out.push(`-- Rows per transaction: ${c.batchSize} (the application's commit batch; no server setting)`);
  out.push(`-- Sessions: ${threads} concurrent ${custom ? 'callers' : 'sessions'} (the application's workers or connection pool)`);
  if (!c.affinity && !c.delayedDurability) out.unshift('-- The server settings stay as they are.');
  return out;
}

/** The confirmation's interval leaves out 1: the winner and the current settings differ. */
const settled = (c: TuneConfirmation) => !!c.interval && (c.interval.low > 1 || c.interval.high < 1);

/** The confirmation's ratio in words (changeWords reads only the ratio and its interval). */
function confirmedWords(c: TuneConfirmation, w: VerdictWords): string {
  const pairs = `${c.pairs} fresh pair${c.pairs === 1 ? '' : 's'} of trials`;
  if (c.ratio === null) return 'No pair of the confirmation completed: no verdict on fresh trials.';
  const r: StoredRatio = { method: 'paired-log', ratio: c.ratio, interval: c.interval, nA: c.pairs, nB: c.pairs, sdLog: c.sdLog };
  const against = w.against ?? 'the current settings';
  const what = w.figure === 'throughput' ? w.subject : `${w.subject}'s ${w.figure}`;
  if (!c.interval)
    return `On ${pairs} (no interval): against ${against}, ${what} is ${changeWords(r, w, c.ratio > 1)}, which noise alone can do.`;
  if (settled(c))
    return `Confirmed on ${pairs} that took no part in choosing it: against ${against}, ${what} is ${changeWords(r, w, c.interval.low > 1)}.`;
  // Open: the interval takes in 1. Said as what it is (too few or too noisy pairs), never as "no difference".
  return (
    `Too short or too noisy to tell: on ${pairs}, ${w.subject} came out at ${timesText(c.ratio)} ${against} in ${w.figure} at the middle, ` +
    `but the 95% interval (${ratioIntervalText(r)}) also takes in no difference.`
  );
}

/** 2.2 -> "2.2x", 0.93 -> "0.93x", 14.3 -> "14x": the shared ratio text. */
const timesText = ratioText;

/**
 * What more confirmation pairs would settle an open verdict: planned for the change seen when it is more than 5%
 * (whether it is real), else for 5%; with the budget that holds them.
 */
function moreConfirmation(c: TuneConfirmation, sd: number, trialMs: number, budgetMs: number): string {
  const seen = c.ratio !== null && c.ratio > 0 ? Math.exp(Math.abs(Math.log(c.ratio))) - 1 : 0;
  const change = Math.max(PLANNED_CHANGE, seen);
  const need = pairsToDetect(sd, change);
  if (need === null)
    return `At this noise no practical number of confirmation pairs would ${change > PLANNED_CHANGE ? 'settle it' : 'show a 5% difference against the current settings'}: quiet the server, or lengthen the trials (--trial).`;
  const extra = Math.max(1, need - c.pairs);
  const moreMs = 2 * extra * trialMs;
  const what =
    change > PLANNED_CHANGE
      ? `would settle whether a difference the size seen (${c.ratio! > 1 ? '+' : '-'}${Math.round(seen * 100)}%) is real; a smaller one needs more`
      : 'would show a 5% difference against the current settings';
  return `About ${extra} more confirmation pair${extra === 1 ? '' : 's'} (about ${minutes(moreMs)} more budget: --budget ${Math.ceil((budgetMs + moreMs) / 60_000)}m in all) ${what}.`;
}

export function tuneResult(
  tune: TuneInfo,
  search: TuneSearch,
  ctx: { topology: Topology; database: string; custom: boolean; trialMs: number },
): TuneResult | null {
  const o = tune.objective;
  const board = search.standings();
  const racing = board.filter((s) => s.state !== 'dropped');
  const first = racing[0] ?? board[0];
  if (!first) return null;
  const second = board.find((s) => s !== first) ?? null;
  first.state = 'winner';
  if (second) second.state = second.state === 'dropped' ? 'dropped' : 'runner-up';
  const winner = { config: first.config, threads: first.threads };
  const cur = board.find((s) => tune.configs.find((c) => c.id === s.config)?.current);
  const current = cur ? { config: cur.config, threads: cur.threads } : null;
  const index = (id: string) => tune.configs.findIndex((c) => c.id === id);
  // The selection's trials only: the confirmation's are kept out of the leaderboard and these estimates.
  const valuesAt = (s: { config: string; threads: number }) => search.selectionValues(index(s.config), s.threads);
  const label = (id: string) => tune.configs.find((c) => c.id === id)?.label ?? id;
  const side = (s: { config: string; threads: number }) => `${label(s.config)}, ${plural(s.threads, 'session')}`;

  const c = search.confirmation();
  const paired = c ? pairedRatio(c.pairs) : null;
  const confirmation: TuneConfirmation | null =
    c && paired
      ? {
          ...paired,
          a: { config: tune.configs[c.a.i].id, threads: c.a.threads },
          b: { config: tune.configs[c.b.i].id, threads: c.b.threads },
          planned: search.confirmPairs,
        }
      : null;
  const open = !!confirmation && (confirmation.pairs < 2 || !confirmation.interval || !settled(confirmation));
  let versus = null;
  let selection: string | null = null;
  let verdict: string;
  const more: string[] = [];
  if (!current) {
    verdict = 'The current settings met the constraints in no trial: the winner is not compared with them.';
  } else if (current.config !== winner.config) {
    versus = compareFigures(valuesAt(current), valuesAt(winner));
    const w = words(o, `the winner (${side(winner)})`);
    selection = `The search's own estimate, from the trials that chose the winner (biased upward: the winner's curse): ${ratioVerdict(versus, { ...w, subject: 'the winner' }).text}`;
    verdict = confirmation
      ? confirmedWords(confirmation, w)
      : `Not confirmed: the budget ended before the confirmation's fresh trials, so there is no unbiased verdict against the current settings.`;
  } else {
    verdict = `The current settings won the search (best at ${plural(current.threads, 'session')}): no configuration tried beat them.`;
    if (confirmation) verdict += ` ${confirmedWords(confirmation, words(o, `the best other configuration (${side(confirmation.b)})`))}`;
  }
  if (current && !confirmation && second)
    more.push(
      'A budget that reaches the confirmation, or `spinlab rerun` of this tune, would compare the winner with the current settings on fresh trials.',
    );
  if (confirmation && open)
    more.push(moreConfirmation(confirmation, confirmation.sdLog ?? Math.SQRT2 * search.noise().sd, ctx.trialMs, tune.budgetMs));

  let certainty: string;
  if (!second) certainty = 'Only one configuration was tried: nothing to compare it with.';
  else if (second.state === 'dropped' && racing.length <= 1) {
    certainty = `Every other configuration was ruled out; the closest, ${label(second.config)} at ${plural(second.threads, 'session')}, was dropped in round ${second.droppedIn}: ${second.droppedWhy}.`;
  } else {
    const r = compareFigures(valuesAt(second), valuesAt(winner));
    const sure = excludesOne(r);
    certainty = sure
      ? `The winner beats the runner-up (${side(second)}): winner / runner-up 95% interval ${ratioIntervalText(r)}.`
      : `The winner and the runner-up (${side(second)}) are within this noise (winner / runner-up 95% interval ${r.interval ? ratioIntervalText(r) : 'not known: 1 trial each'}).`;
    if (!sure) {
      const need = repetitionsToDetect(r.sdLog ?? search.noise().sd, 0.05);
      const have = Math.min(r.nA, r.nB);
      more.push(
        need === null
          ? 'At this noise no practical number of trials would tell the winner from the runner-up by 5%: quiet the server, or lengthen the trials.'
          : `About ${Math.max(1, need - have)} more trials of each (about ${minutes(2 * Math.max(1, need - have) * ctx.trialMs)} more budget) would tell a 5% difference between the winner and the runner-up apart.`,
      );
    }
  }
  const winConfig = tune.configs.find((x) => x.id === winner.config)!;
  return {
    leaderboard: board,
    winner,
    current,
    versus,
    confirmation,
    selection,
    verdict,
    certainty,
    moreTime: more.length ? more.join(' ') : null,
    reasons: [],
    applySql: applySqlFor(winConfig, winner.threads, ctx.topology, ctx.database, ctx.custom),
    applied: false,
  };
}
