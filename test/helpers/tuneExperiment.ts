// A tune's experiment record built by hand, as `spinlab tune` would save one: four configurations of disk-insert on
// the builders' two-node box (the current settings, the log writer's node, the other node, without core 0), trials in
// three rounds (every configuration screened at 4 and 8 sessions, the survivors raced at 8, the final pair confirmed),
// each trial's figures a configuration's true value times seeded lognormal noise. Deterministic.
import type { Experiment, RunRecord } from '../../src/shared/experiment';
import { compareFigures, estimate } from '../../src/shared/repeats';
import type { TuneConfig, TuneInfo, TuneRound, TuneStanding } from '../../src/shared/tune';
import { tuneReasons } from '../../src/shared/tuneExplain';
import { experiment, runRecord } from './builders';
import { lognormalFactors } from './repeatedRuns';

/** A configuration's true figures per session count (rows/s) and per row (spins, waits, latches, CPU). */
export interface TrueConfig {
  rowsPerSec: Record<number, number>;
  spinsPerRow: Record<string, number>;
  waitMsPerRow?: Record<string, number>;
  latchMsPerRow?: Record<string, number>;
  cpuMsPerRow?: number;
}

/** The affinities of the configurations below on the builders' 16-CPU box (8 per node, core 0 = CPUs 0 and 1). */
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const AFFINITY_CPUS: Record<string, number[]> = { 'numa:0': range(0, 7), 'numa:1': range(8, 15), 'exclude-core0': range(2, 15) };

/** One trial: `rep`-th run of a configuration at `threads`, its figures the truth times noise (cv). */
export function tuneTrial(
  index: number,
  config: TuneConfig,
  threads: number,
  rep: number,
  truth: TrueConfig,
  noise: () => number,
): RunRecord {
  const base = runRecord(index, threads, { seed: index + 1, ticks: 4 });
  const rowsPerSec = truth.rowsPerSec[threads] * noise();
  const elapsedMs = 4000;
  const rows = Math.round((rowsPerSec * elapsedMs) / 1000);
  const spin = (perRow: number) => ({ spins: Math.round(perRow * rows * noise()), collisions: 0, backoffs: 0, sleepTime: 0 });
  const wait = (perRow: number) => ({ waitMs: Math.round(perRow * rows * noise()), count: rows, signalMs: 0 });
  const map = <T>(m: Record<string, number> | undefined, f: (v: number) => T) =>
    Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, f(v)]));
  return {
    ...base,
    repetition: rep,
    arm: {
      id: config.id,
      label: config.label,
      scenarioId: 'disk-insert',
      parameters: { batch_size: config.batchSize ?? 1, seed_rows: 100000 },
      knobs: {
        ...(config.affinity ? { affinity: { spec: config.affinity, cpus: AFFINITY_CPUS[config.affinity] } } : {}),
        ...(config.delayedDurability ? { delayedDurability: config.delayedDurability } : {}),
      },
      mode: 'server-loop',
    },
    elapsedMs,
    rows,
    derived: { ...base.derived, rowsPerSec },
    totals: {
      ...base.totals,
      elapsedMs,
      rows,
      transactions: rows,
      spinlocks: map(truth.spinsPerRow, spin),
      waits: map(truth.waitMsPerRow, wait),
      latches: map(truth.latchMsPerRow, (v) => ({ waitMs: Math.round(v * rows * noise()), count: rows })),
      cpuMs: Math.round((truth.cpuMsPerRow ?? 0.05) * rows * noise()),
    },
  };
}

const config = (id: string, label: string, affinity: string | null, affinityWhy: string, cpus: number): TuneConfig => ({
  id,
  label,
  affinity,
  affinityWhy,
  batchSize: 1,
  delayedDurability: null,
  cpus,
  sessions: cpus >= 16 ? [4, 8, 16] : [4, 8],
  current: id === 'c0',
});

export const TUNE_CONFIGS: TuneConfig[] = [
  config('c0', 'current settings', null, "the server's current affinity", 16),
  config('c1', "log writer's node (numa:0)", 'numa:0', "the log writer's node", 8),
  config('c2', 'other node (numa:1)', 'numa:1', 'the other node', 8),
  config('c3', 'without core 0 (exclude-core0)', 'exclude-core0', 'without core 0', 14),
];

/** The model: the log writer's node is 50% faster than the current settings at 8 sessions, with 4.2x fewer spins. */
export const TUNE_TRUTH: Record<string, TrueConfig> = {
  c0: { rowsPerSec: { 4: 14_000, 8: 20_000 }, spinsPerRow: { LOGCACHE_ACCESS: 4.2, XDESMGR: 1 }, waitMsPerRow: { WRITELOG: 0.05 } },
  c1: { rowsPerSec: { 4: 18_000, 8: 30_000 }, spinsPerRow: { LOGCACHE_ACCESS: 1, XDESMGR: 1 }, waitMsPerRow: { WRITELOG: 0.05 } },
  c2: { rowsPerSec: { 4: 10_000, 8: 15_000 }, spinsPerRow: { LOGCACHE_ACCESS: 6, XDESMGR: 1 }, waitMsPerRow: { WRITELOG: 0.05 } },
  c3: { rowsPerSec: { 4: 16_000, 8: 24_000 }, spinsPerRow: { LOGCACHE_ACCESS: 2, XDESMGR: 1 }, waitMsPerRow: { WRITELOG: 0.05 } },
};

const ROUNDS: { stage: TuneRound['stage']; trials: [string, number][] }[] = [
  {
    stage: 'screen',
    trials: ['c0', 'c1', 'c2', 'c3'].flatMap((c): [string, number][] => [
      [c, 4],
      [c, 8],
    ]),
  },
  {
    stage: 'race',
    trials: [
      ['c0', 8],
      ['c1', 8],
      ['c3', 8],
      ['c3', 8],
      ['c1', 8],
      ['c0', 8],
    ],
  },
  {
    stage: 'confirm',
    trials: [
      ['c1', 8],
      ['c0', 8],
    ],
  },
];

/** A finished tune: 16 trials in three rounds, the log writer's node the winner, the other node dropped in round 1. */
export function tuneExperiment(o: { seed?: number; cv?: number } = {}): Experiment {
  const noise = lognormalFactors(o.seed ?? 11, o.cv ?? 0.05);
  const byId = new Map(TUNE_CONFIGS.map((c) => [c.id, c]));
  const runs: RunRecord[] = [];
  const sequence: string[] = [];
  const reps = new Map<string, number>();
  const rounds: TuneRound[] = [];
  ROUNDS.forEach((r, i) => {
    const keys: string[] = [];
    for (const [c, t] of r.trials) {
      const rep = (reps.get(`${c}@${t}`) ?? 0) + 1;
      reps.set(`${c}@${t}`, rep);
      runs.push(tuneTrial(runs.length, byId.get(c)!, t, rep, TUNE_TRUTH[c], noise));
      keys.push(`${c}@${t}#${rep}`);
    }
    sequence.push(...keys);
    rounds.push({
      round: i + 1,
      stage: r.stage,
      startedAt: `2026-11-25T10:0${i}:00.000Z`,
      trials: keys,
      standings: standings(runs, i + 1),
      noiseCv: i ? 0.05 : null,
    });
  });
  const last = rounds[rounds.length - 1].standings;
  const tp = (c: string) => runs.filter((r) => r.arm.id === c && r.threads === 8).map((r) => r.derived.rowsPerSec);
  const versus = compareFigures(tp('c0'), tp('c1'));
  const base = experiment('2026-11-25T10-00-00-000Z-tune', [4, 8]);
  const e: Experiment = {
    ...base,
    kind: 'tune',
    title: 'Tune disk-insert: throughput',
    runs,
    design: { repeat: 1, order: 'adaptive', sequence },
    tune: {
      objective: { kind: 'throughput' },
      constraints: [],
      budgetMs: 600_000,
      trialMs: 4000,
      warmupMs: 1000,
      request: {},
      configs: TUNE_CONFIGS,
      sharedServer: false,
      otherActivity: { batchRequestsPerSec: 0, sessions: 0 },
      rounds,
      elapsedMs: 512_000,
      result: null,
      stopReason: 'the budget was spent',
    },
  };
  const tune = e.tune as TuneInfo;
  tune.result = {
    leaderboard: last,
    winner: { config: 'c1', threads: 8 },
    current: { config: 'c0', threads: 8 },
    versus,
    verdict: 'The winner is faster than the current settings by 50% (95% interval 40% to 60%).',
    certainty: 'The winner beats the runner-up (without core 0) at the 95% level.',
    moreTime: null,
    reasons: tuneReasons(e, { config: 'c1', threads: 8 }, { config: 'c0', threads: 8 }),
    applySql: ['ALTER SERVER CONFIGURATION SET PROCESS AFFINITY NUMANODE = 0;'],
    applied: false,
  };
  return e;
}

/** Each configuration's best session count so far, best first; the other node dropped after round 1. */
function standings(runs: RunRecord[], round: number): TuneStanding[] {
  const out = TUNE_CONFIGS.map((c): TuneStanding => {
    const at = (t: number) => runs.filter((r) => r.arm.id === c.id && r.threads === t).map((r) => r.derived.rowsPerSec);
    const est = estimate(at(8));
    const dropped = c.id === 'c2';
    return {
      config: c.id,
      threads: 8,
      estimate: est,
      trials: runs.filter((r) => r.arm.id === c.id).length,
      state: dropped ? 'dropped' : 'racing',
      ...(dropped ? { droppedWhy: 'slower than the leader by 50% (95% interval 45% to 55%)', droppedIn: 1 } : {}),
    };
  });
  out.sort((a, b) => (b.estimate.value ?? 0) - (a.estimate.value ?? 0));
  if (round === 3) {
    out[0].state = 'winner';
    out[1].state = 'runner-up';
  }
  return out;
}
