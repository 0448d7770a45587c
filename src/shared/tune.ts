// A tune: a budgeted search of the knobs Spinlock Lab controls (affinity, rows per transaction, delayed durability
// when allowed, sessions) for the settings that serve an objective best on this server. It is an experiment (kind
// 'tune') whose arms are the candidate configurations and whose runs are the trials (an arm at a session count, one
// repetition each), so every trial keeps its full measurements; `tune` says what was searched, how, and what won.
import type { StoredRatio, FigureEstimate } from './repeats/interval';
import type { PostId } from './posts';
import type { PairedRatio } from './tunePaired';

/** What the search optimises. Throughput: rows per second (a custom workload's calls per second unless it reports rows). */
export type TuneObjective =
  | { kind: 'throughput' }
  | { kind: 'p99' }
  | {
      kind: 'spins-per-row';
      /** A spinlock name as sys.dm_os_spinlock_stats gives it, e.g. LOGCACHE_ACCESS. */
      spinlock: string;
    };

/** A limit a candidate must meet to win, e.g. p99 at most 2000 µs, or at most 16 sessions. */
export interface TuneConstraint {
  figure: 'p99Us' | 'sessions' | 'rowsPerSec';
  op: '<=' | '>=';
  value: number;
}

/** One configuration of the knobs (an arm of the experiment); sessions are searched per configuration, as a curve. */
export interface TuneConfig {
  /** The arm id: 'c1', 'c2', ... ('c0' is the server's current settings). */
  id: string;
  /** e.g. "log writer's node (numa:0) · 2 rows/tx". */
  label: string;
  /** An affinity spec (shared/affinity.ts), or null: the server's current affinity, unchanged. */
  affinity: string | null;
  /** Why this affinity is a candidate, in words ("the log writer's node", "without core 0", ...). */
  affinityWhy: string;
  /** Rows per transaction (a scenario's batch_size), or null where the workload has no such knob. */
  batchSize: number | null;
  /** FORCED only when the user allowed it (--allow forced); null: the database's current setting, unchanged. */
  delayedDurability: 'FORCED' | null;
  /** The CPUs the affinity leaves online: the top of this configuration's session ladder. */
  cpus: number;
  /** The session counts this configuration may be tried at, in order. */
  sessions: number[];
  /** The server's settings as they were before the tune (the A of the final A/B). */
  current: boolean;
}

/** What the user fixed or narrowed; the search builds the rest from the server's shape. */
export interface TuneSpaceRequest {
  /** Affinity specs to try instead of those built from the topology. */
  affinity?: string[];
  batchSizes?: number[];
  /** Session counts to try instead of the ladder. */
  sessions?: number[];
  /** 'forced': FORCED delayed durability is also tried. The tool never decides on its own to trade durability. */
  allow?: 'forced'[];
}

/** A candidate's standing after a round of the search. */
export interface TuneStanding {
  config: string;
  /** The session count at which this configuration did best so far. */
  threads: number;
  /** The objective at that point over its trials (interval from the pooled noise of the search). */
  estimate: FigureEstimate;
  trials: number;
  /** Still in the race, or dropped (and why, in words with the interval that decided it). */
  state: 'racing' | 'dropped' | 'winner' | 'runner-up';
  droppedWhy?: string;
  /** The round it was dropped in. */
  droppedIn?: number;
}

/** One round of the search: what it tried, and who was left after it. */
export interface TuneRound {
  round: number;
  /** 'screen': every configuration on a coarse session ladder; 'race': survivors repeated and their curves refined. */
  stage: 'screen' | 'race' | 'confirm';
  startedAt: string;
  /** Trial keys (`${armId}@${threads}#${repetition}`) run in this round. */
  trials: string[];
  standings: TuneStanding[];
  /** The search's pooled run-to-run noise after this round (coefficient of variation), or null before a repeat. */
  noiseCv: number | null;
}

/** Why the winner does better: a spinlock, wait or latch that moved between the current settings and the winner. */
export interface TuneReason {
  /** e.g. "LOGCACHE_ACCESS spins per row 4.2x lower with the workers on the log writer's node". */
  text: string;
  figure: string;
  /** winner / current, on the run's figure; null when one side is 0. */
  ratio: number | null;
  /** The post that describes the effect, when one does. */
  post: PostId | null;
}

/** The confirmation stage: the current settings (a) against the challenger (b: the winner, or the best other when the current settings won) on fresh, interleaved pairs of trials. */
export interface TuneConfirmation extends PairedRatio {
  a: { config: string; threads: number };
  b: { config: string; threads: number };
  /** The pairs kept back for it from the start (it gets more when the race ends early). */
  planned: number;
}

export interface TuneResult {
  /** Every configuration's best point, best first. */
  leaderboard: TuneStanding[];
  winner: { config: string; threads: number };
  /** The server's current settings, at the session count where they did best. */
  current: { config: string; threads: number } | null;
  /**
   * The winner against the current settings (objective ratio winner / current, with its 95% interval) from the trials
   * that chose the winner: the selection's own estimate, biased upward (the winner's curse). Records saved before the
   * confirmation stage gave their verdict from it.
   */
  versus: StoredRatio | null;
  /** The confirmation on fresh pairs of trials, which the verdict rests on; absent or null when none ran. */
  confirmation?: TuneConfirmation | null;
  /** The selection's estimate in words, labelled as biased; absent in older records. */
  selection?: string | null;
  /** The verdict in words, e.g. "Confirmed on 12 fresh pairs of trials: the winner is faster ... by 38% (...)". */
  verdict: string;
  /** How sure the search is that the winner beats the runner-up, in words. */
  certainty: string;
  /** What more time would settle, or null when it is settled. */
  moreTime: string | null;
  reasons: TuneReason[];
  /** The T-SQL that applies the winner (never run unless --apply), one statement per line. */
  applySql: string[];
  /** True when the winner was left applied (--apply). */
  applied: boolean;
}

export interface TuneInfo {
  objective: TuneObjective;
  constraints: TuneConstraint[];
  budgetMs: number;
  /** Each trial's measured time and warm-up. */
  trialMs: number;
  warmupMs: number;
  request: TuneSpaceRequest;
  configs: TuneConfig[];
  /** The search ran with other work on the server (--shared-server): its intervals are widened. */
  sharedServer: boolean;
  /** Other sessions' batch requests per second seen before the first trial. */
  otherActivity: { batchRequestsPerSec: number; sessions: number } | null;
  rounds: TuneRound[];
  /** Wall time the search took, from the first trial to the last (the budget's measure). */
  elapsedMs: number | null;
  result: TuneResult | null;
  /** Why the search stopped: the budget, one candidate left, cancelled, or a failed trial. */
  stopReason: string | null;
}

/** "20m", "90s", "1h", "1h30m" -> ms; an Error saying what to write otherwise. At least 1 minute, at most 24 hours. */
export function parseBudget(text: string): number {
  const t = text.trim().toLowerCase();
  const m = /^(?:(\d+)h)?(?:(\d+)m(?:in)?)?(?:(\d+)s)?$/.exec(t);
  if (!t || !m || (!m[1] && !m[2] && !m[3])) throw new Error(`'${text}' is not a time budget: write e.g. 20m, 90s or 1h30m.`);
  const ms = ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000;
  if (ms < 60_000 || ms > 24 * 3_600_000) throw new Error(`A budget of ${text} is out of range: give 1m to 24h.`);
  return ms;
}

/** "spins-per-row:LOGCACHE_ACCESS", "throughput", "p99" as typed; an Error saying what to write otherwise. */
export function parseObjective(text: string): TuneObjective {
  const t = text.trim();
  if (/^(throughput|rows|calls)$/i.test(t)) return { kind: 'throughput' };
  if (/^p99$/i.test(t)) return { kind: 'p99' };
  const m = /^spins-per-row:([A-Za-z0-9_]+)$/i.exec(t);
  if (m) return { kind: 'spins-per-row', spinlock: m[1].toUpperCase() };
  throw new Error(
    `'${text}' is not an objective: write throughput, p99, or spins-per-row:<SPINLOCK> (e.g. spins-per-row:LOGCACHE_ACCESS).`,
  );
}

/** The objective named for a person, with its unit and which way is better. */
export function objectiveText(o: TuneObjective, unit = 'rows/s'): { label: string; unit: string; higherBetter: boolean } {
  switch (o.kind) {
    case 'throughput':
      return { label: 'Throughput', unit, higherBetter: true };
    case 'p99':
      return { label: 'Latency p99', unit: 'µs', higherBetter: false };
    case 'spins-per-row':
      return { label: `${o.spinlock} spins per row`, unit: 'spins/row', higherBetter: false };
  }
}

/** "p99<=2ms", "sessions<=16", "throughput>=50000" as typed; an Error saying what to write otherwise. */
export function parseConstraint(text: string): TuneConstraint {
  const m = /^\s*(p99|sessions|throughput)\s*(<=|>=)\s*([0-9]+(?:\.[0-9]+)?)\s*(us|µs|ms|s)?\s*$/i.exec(text);
  const fail = () => new Error(`'${text}' is not a constraint: write e.g. p99<=2ms, sessions<=16 or throughput>=50000.`);
  if (!m) throw fail();
  const what = m[1].toLowerCase();
  const unit = (m[4] ?? '').toLowerCase();
  if (what !== 'p99' && unit) throw fail();
  const scale = unit === 's' ? 1e6 : unit === 'ms' ? 1e3 : 1;
  const figure = what === 'p99' ? 'p99Us' : what === 'sessions' ? 'sessions' : 'rowsPerSec';
  return { figure, op: m[2] as '<=' | '>=', value: Number(m[3]) * scale };
}
