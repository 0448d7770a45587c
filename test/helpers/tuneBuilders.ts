// Synthetic tune states for the panel's tests: three configurations (the current settings, the log writer's node, and
// without core 0), after round 1 (all racing), after round 2 (one dropped), and ended with a result.
import type { FigureEstimate } from '../../src/shared/repeats/interval';
import type { TuneConfig, TuneInfo, TuneResult, TuneStanding } from '../../src/shared/tune';

export function figure(value: number, low: number, high: number, n: number): FigureEstimate {
  return { method: 'gmean', n, value, interval: n > 1 ? { low, high } : null, cv: n > 1 ? 0.05 : null, values: Array(n).fill(value) };
}

export const TUNE_CONFIGS: TuneConfig[] = [
  {
    id: 'c0',
    label: 'current settings (AUTO) · 1 row/tx',
    affinity: null,
    affinityWhy: 'the server as it is',
    batchSize: 1,
    delayedDurability: null,
    cpus: 16,
    sessions: [2, 4, 8],
    current: true,
  },
  {
    id: 'c1',
    label: "log writer's node (numa:0) · 2 rows/tx",
    affinity: 'numa:0',
    affinityWhy: "the log writer's node",
    batchSize: 2,
    delayedDurability: null,
    cpus: 8,
    sessions: [2, 4, 8],
    current: false,
  },
  {
    id: 'c2',
    label: 'without core 0 (exclude-core0) · 1 row/tx',
    affinity: 'exclude-core0',
    affinityWhy: 'without core 0',
    batchSize: 1,
    delayedDurability: null,
    cpus: 14,
    sessions: [2, 4, 8],
    current: false,
  },
];

function standing(config: string, threads: number, est: FigureEstimate, state: TuneStanding['state'], dropped?: number): TuneStanding {
  return {
    config,
    threads,
    estimate: est,
    trials: est.n,
    state,
    ...(dropped !== undefined ? { droppedIn: dropped, droppedWhy: 'its interval lies wholly below the leader’s' } : {}),
  };
}

export const ROUND1: TuneStanding[] = [
  standing('c1', 8, figure(52_000, 47_000, 57_000, 2), 'racing'),
  standing('c2', 8, figure(41_000, 37_000, 45_000, 2), 'racing'),
  standing('c0', 8, figure(38_000, 34_000, 42_000, 2), 'racing'),
];
export const ROUND2: TuneStanding[] = [
  standing('c1', 8, figure(53_100, 51_000, 55_300, 4), 'racing'),
  standing('c2', 4, figure(41_500, 40_000, 43_100, 4), 'racing'),
  standing('c0', 8, figure(38_200, 36_500, 40_000, 3), 'dropped', 2),
];

export const RESULT: TuneResult = {
  leaderboard: [{ ...ROUND2[0], state: 'winner' }, { ...ROUND2[1], state: 'runner-up' }, ROUND2[2]],
  winner: { config: 'c1', threads: 8 },
  current: { config: 'c0', threads: 8 },
  versus: { method: 'welch-log', ratio: 1.39, interval: { low: 1.31, high: 1.47 }, nA: 3, nB: 4, sdLog: 0.04 },
  verdict: 'The winner is faster than the current settings by 39% (95% interval 31% to 47%)',
  certainty: 'Sure: the winner’s interval lies wholly above the runner-up’s.',
  moreTime: 'Another 4 minutes would tell 4 from 8 sessions on the winner.',
  reasons: [
    {
      text: "LOGCACHE_ACCESS spins per row 4.2x lower with the workers on the log writer's node",
      figure: 'spinlock LOGCACHE_ACCESS spins/row',
      ratio: 1 / 4.2,
      post: 'numa-logcache-access',
    },
  ],
  applySql: ['ALTER SERVER CONFIGURATION SET PROCESS AFFINITY NUMANODE = 0;', '-- disk-insert: batch_size = 2 (rows per transaction)'],
  applied: false,
};

/** The search after `rounds` rounds (1 or 2), or ended with its result (`done`). */
export function tuneInfo(rounds: 1 | 2, done = false): TuneInfo {
  const round = (n: number, standings: TuneStanding[]) => ({
    round: n,
    stage: n === 1 ? ('screen' as const) : ('race' as const),
    startedAt: new Date(Date.UTC(2026, 10, 25, 13, n)).toISOString(),
    trials: standings.map((s) => `${s.config}@${s.threads}#${n}`),
    standings,
    noiseCv: n === 1 ? null : 0.05,
  });
  return {
    objective: { kind: 'throughput' },
    constraints: [],
    budgetMs: 600_000,
    trialMs: 4000,
    warmupMs: 1000,
    request: {},
    configs: TUNE_CONFIGS,
    sharedServer: false,
    otherActivity: null,
    rounds: rounds === 1 ? [round(1, ROUND1)] : [round(1, ROUND1), round(2, ROUND2)],
    elapsedMs: done ? 565_000 : rounds === 1 ? 125_000 : 250_000,
    result: done ? RESULT : null,
    stopReason: done ? 'the budget' : null,
  };
}
