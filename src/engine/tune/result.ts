// A tune's result from its search: the leaderboard (winner and runner-up marked), the winner against the current
// settings as an A/B with its interval, how sure the search is that the winner beats the runner-up, what more time
// would settle, and the T-SQL that applies the winner (shown, never run unless the user asks).
import type { RunRecord } from '../../shared/experiment';
import { compareFigures, excludesOne } from '../../shared/repeats/interval';
import { repetitionsToDetect } from '../../shared/repeats/plan';
import { ratioVerdict, ratioIntervalText, type VerdictWords } from '../../shared/repeats/words';
import { objectiveText, type TuneConfig, type TuneInfo, type TuneObjective, type TuneResult } from '../../shared/tune';
import type { Topology } from '../../shared/types';
import { cpusByNode, formatCpuRanges, parseAffinity } from '../../shared/affinity';
import { objectiveOf, type TuneSearch } from './search';

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

/** The objective values of a configuration's trials at one session count. */
function valuesAt(runs: readonly RunRecord[], config: string, threads: number, o: TuneObjective): number[] {
  return runs
    .filter((r) => r.arm.id === config && r.threads === threads)
    .map((r) => objectiveOf(r, o))
    .filter((v): v is number => v !== null);
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

export function tuneResult(
  tune: TuneInfo,
  search: TuneSearch,
  runs: readonly RunRecord[],
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
  const wv = valuesAt(runs, winner.config, winner.threads, o);
  const label = (id: string) => tune.configs.find((c) => c.id === id)?.label ?? id;

  let versus = null;
  let verdict: string;
  if (current && current.config !== winner.config) {
    versus = compareFigures(valuesAt(runs, current.config, current.threads, o), wv);
    verdict = ratioVerdict(versus, words(o, `The winner (${label(winner.config)}, ${winner.threads} sessions)`)).text;
  } else {
    verdict = `The current settings won: no configuration tried beat them${current ? ` (best at ${current.threads} sessions)` : ''}.`;
  }

  let certainty: string;
  let moreTime: string | null = null;
  if (!second) certainty = 'Only one configuration was tried: nothing to compare it with.';
  else if (second.state === 'dropped' && racing.length <= 1) {
    certainty = `Every other configuration was ruled out; the closest, ${label(second.config)} at ${second.threads} sessions, was dropped in round ${second.droppedIn}: ${second.droppedWhy}.`;
  } else {
    const r = compareFigures(valuesAt(runs, second.config, second.threads, o), wv);
    const sure = excludesOne(r);
    certainty = sure
      ? `The winner beats the runner-up (${label(second.config)}, ${second.threads} sessions): winner / runner-up 95% interval ${ratioIntervalText(r)}.`
      : `The winner and the runner-up (${label(second.config)}, ${second.threads} sessions) are within this noise (winner / runner-up 95% interval ${r.interval ? ratioIntervalText(r) : 'not known: 1 trial each'}).`;
    if (!sure) {
      const need = repetitionsToDetect(r.sdLog ?? search.noise().sd, 0.05);
      const have = Math.min(r.nA, r.nB);
      moreTime =
        need === null
          ? 'At this noise no practical number of trials would tell a 5% difference apart: quiet the server, or lengthen the trials.'
          : `About ${Math.max(1, need - have)} more trials of each (about ${minutes(2 * Math.max(1, need - have) * ctx.trialMs)} more budget) would tell a 5% difference between them apart.`;
    }
  }
  const winConfig = tune.configs.find((c) => c.id === winner.config)!;
  return {
    leaderboard: board,
    winner,
    current,
    versus,
    verdict,
    certainty,
    moreTime,
    reasons: [],
    applySql: applySqlFor(winConfig, winner.threads, ctx.topology, ctx.database, ctx.custom),
    applied: false,
  };
}
