// The search: successive halving with racing, over configurations whose sessions are a curve. Round 1 screens every
// configuration with short trials at one or two points of its session ladder. Each later round drops the
// configurations the intervals already rule out (racing), keeps as many of the rest as the budget can race for a few
// more rounds (successive halving, paced by the budget), and for
// each survivor repeats its best point and tries one new point of its curve next to it. When one configuration is
// left, the rest of the budget goes to the winner and the current settings, taking turns, so the final A/B rests on
// repeated trials of both. Decisions use the search's pooled run-to-run noise on the log scale (every point tried
// more than once contributes), started from a prior so the first rounds are not overconfident.
import { runFigures } from '../../shared/analysis';
import type { RunRecord } from '../../shared/experiment';
import type { TuneConfig, TuneConstraint, TuneObjective, TuneRound, TuneStanding } from '../../shared/tune';
import { estimate, tCritical } from '../../shared/repeats/interval';
import type { PlannedRun } from '../planOrder';

/** The noise assumed before the search has measured its own (CV), and how many degrees of freedom it counts for. */
export const PRIOR_CV = 0.15;
const PRIOR_DF = 2;
/** Shared server: the intervals widen by this factor (others' work adds noise the trials cannot see). */
export const SHARED_WIDEN = 1.5;
/** The rounds of racing the budget should hold for the survivors kept after a round. */
const RACE_ROUNDS = 3;

export interface Point {
  threads: number;
  /** The objective of each trial at this point, and its score (log scale, higher is better). */
  values: number[];
  scores: number[];
  /** Constraint checks of each trial (p99, throughput). */
  ok: boolean[];
}

/** A configuration's best point: its smoothed score (log scale), the trials behind it (weighted), its own values. */
export interface Best {
  threads: number;
  mean: number;
  n: number;
  values: number[];
}

/** The kernel's width as a share of the ladder's top (38 sessions: about 2). */
const BANDWIDTH = 0.06;

export interface SearchOptions {
  configs: TuneConfig[];
  objective: TuneObjective;
  constraints: readonly TuneConstraint[];
  sharedServer: boolean;
}

/** The objective of one run, or null when the run did not measure it. */
export function objectiveOf(run: RunRecord, o: TuneObjective): number | null {
  if (run.status !== 'completed') return null;
  const f = runFigures(run);
  if (f.rows <= 0) return null;
  if (o.kind === 'throughput') return f.rowsPerSec;
  if (o.kind === 'p99') return f.p99Us;
  return f.spinsPerRow[o.spinlock] ?? 0;
}

const higherBetter = (o: TuneObjective) => o.kind === 'throughput';
const scoreOf = (v: number, o: TuneObjective) => (higherBetter(o) ? Math.log(Math.max(v, 1e-12)) : -Math.log(Math.max(v, 1e-12)));
const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;

function meets(run: RunRecord, constraints: readonly TuneConstraint[]): boolean {
  const f = runFigures(run);
  return constraints.every((c) => {
    const v = c.figure === 'p99Us' ? f.p99Us : c.figure === 'rowsPerSec' ? f.rowsPerSec : run.threads;
    if (v === null) return false;
    return c.op === '<=' ? v <= c.value : v >= c.value;
  });
}

export class TuneSearch {
  readonly points: Map<string, Point>[];
  readonly rounds: TuneRound[] = [];
  private racing: Set<number>;
  private queue: PlannedRun[] = [];
  private seen = 0;
  private confirming = false;
  private dropped = new Map<number, { why: string; round: number }>();

  constructor(private readonly o: SearchOptions) {
    this.points = o.configs.map(() => new Map());
    this.racing = new Set(o.configs.map((_, i) => i));
  }

  /** Takes in the trials that finished since the last call. */
  ingest(runs: readonly RunRecord[]): void {
    for (; this.seen < runs.length; this.seen++) {
      const r = runs[this.seen];
      const i = this.o.configs.findIndex((c) => c.id === r.arm.id);
      const v = objectiveOf(r, this.o.objective);
      if (i < 0 || v === null) continue;
      const key = String(r.threads);
      const p = this.points[i].get(key) ?? { threads: r.threads, values: [], scores: [], ok: [] };
      p.values.push(v);
      p.scores.push(scoreOf(v, this.o.objective));
      p.ok.push(meets(r, this.o.constraints));
      this.points[i].set(key, p);
    }
  }

  /** The pooled noise on the log scale (with the prior) and its degrees of freedom. */
  noise(): { sd: number; df: number; measured: number | null } {
    let ss = 0;
    let df = 0;
    for (const m of this.points)
      for (const p of m.values())
        if (p.scores.length >= 2) {
          const mu = mean(p.scores);
          ss += p.scores.reduce((a, s) => a + (s - mu) ** 2, 0);
          df += p.scores.length - 1;
        }
    const prior = Math.log(1 + PRIOR_CV);
    const sd = Math.sqrt((ss + prior * prior * PRIOR_DF) / (df + PRIOR_DF)) * (this.o.sharedServer ? SHARED_WIDEN : 1);
    return { sd, df: df + PRIOR_DF, measured: df > 0 ? Math.sqrt(ss / df) : null };
  }

  /**
   * A configuration's best point so far (constraints met on average), or null before any trial. Its curve is smooth in
   * sessions, so each point's score borrows from its neighbours (a Gaussian kernel a few sessions wide): a lucky trial
   * at one count does not make it the best, and the neighbours' trials add to its weight (`n`).
   */
  best(i: number): Best | null {
    const pts = [...this.points[i].values()].filter((p) => p.ok.filter(Boolean).length * 2 >= p.ok.length);
    const ladder = this.o.configs[i].sessions;
    const h = Math.max(1, BANDWIDTH * ladder[ladder.length - 1]);
    let out: Best | null = null;
    for (const p of pts) {
      let num = 0;
      let den = 0;
      for (const q of pts) {
        const w = Math.exp(-(((p.threads - q.threads) / h) ** 2));
        num += w * q.scores.reduce((a, b) => a + b, 0);
        den += w * q.scores.length;
      }
      const b = { threads: p.threads, mean: num / den, n: den, values: p.values };
      if (!out || b.mean > out.mean) out = b;
    }
    return out;
  }

  private trials(i: number): number {
    let n = 0;
    for (const p of this.points[i].values()) n += p.values.length;
    return n;
  }

  /** Every configuration tried so far, best first, as the leaderboard shows it. */
  standings(): TuneStanding[] {
    const out: TuneStanding[] = [];
    this.o.configs.forEach((c, i) => {
      const b = this.best(i);
      if (!b) return;
      const d = this.dropped.get(i);
      out.push({
        config: c.id,
        threads: b.threads,
        estimate: estimate(b.values),
        trials: this.trials(i),
        state: d ? 'dropped' : 'racing',
        ...(d ? { droppedWhy: d.why, droppedIn: d.round } : {}),
      });
    });
    const score = new Map(this.o.configs.map((c, i) => [c.id, this.best(i)?.mean ?? -Infinity]));
    return out.sort((a, b) => Number(a.state === 'dropped') - Number(b.state === 'dropped') || score.get(b.config)! - score.get(a.config)!);
  }

  /** The racing configurations by their best point's mean score, best first. */
  ranked(): number[] {
    const score = new Map([...this.racing].map((i) => [i, this.best(i)?.mean ?? null]));
    return [...this.racing].filter((i) => score.get(i) !== null).sort((a, b) => score.get(b)! - score.get(a)!);
  }

  /** Runs still planned in the current round. */
  pending(): number {
    return this.queue.length;
  }

  /**
   * The next trial, or null when the search is over. `affordable`: how many more trials the budget holds (the
   * caller measures trial time); 0 ends the search.
   */
  next(runs: readonly RunRecord[], affordable: number): PlannedRun | null {
    this.ingest(runs);
    if (affordable <= 0) return null;
    if (!this.queue.length) this.plan(affordable);
    const r = this.queue.shift() ?? null;
    return r;
  }

  private repetition(i: number, threads: number): number {
    return (
      (this.points[i].get(String(threads))?.values.length ?? 0) + this.queue.filter((q) => q.arm === i && q.threads === threads).length + 1
    );
  }

  private push(i: number, threads: number): void {
    this.queue.push({ arm: i, threads, repetition: this.repetition(i, threads) });
  }

  private plan(affordable: number): void {
    const round = this.rounds.length + 1;
    const configs = this.o.configs;
    if (round === 1) {
      // Two points of each curve (half the CPUs and all of them) when the budget holds it four times over; else one.
      const two = configs.length * 2 * 2.2 <= affordable;
      for (const [i, c] of configs.entries()) for (const t of screenPoints(c.sessions, two)) this.push(i, t);
      return this.open('screen');
    }
    this.close(round - 1, affordable);
    const order = this.ranked();
    if (order.length <= 1 || this.confirming) {
      // One left: the winner and the current settings take turns at their best points; the winner's curve is still
      // refined now and then (every round when the current settings won).
      this.confirming = true;
      const w = order[0];
      if (w === undefined) return this.open('confirm');
      const cur = configs.findIndex((c) => c.current);
      const pair = w === cur ? [w] : round % 2 ? [w, cur] : [cur, w];
      for (const i of pair) {
        const p = this.best(i);
        if (p) this.push(i, p.threads);
      }
      this.refine(w, round);
      return this.open('confirm');
    }
    // Survivors, best first (a round the budget cuts short loses its weakest): one more trial at the best point, and
    // one new point of the curve next to it.
    for (const i of order) {
      const b = this.best(i)!;
      this.push(i, b.threads);
      if (this.queue.length < affordable) this.refine(i, round);
    }
    this.open('race');
  }

  /** Tries a new session count next to the configuration's best point, above or below by turns. */
  private refine(i: number, round: number): void {
    const b = this.best(i);
    if (!b) return;
    const ladder = this.o.configs[i].sessions;
    const tried = new Set([...this.points[i].keys()].map(Number));
    for (const q of this.queue) if (q.arm === i) tried.add(q.threads);
    const measured = [...tried].sort((x, y) => x - y);
    const above = measured.find((t) => t > b.threads) ?? null;
    const below = [...measured].reverse().find((t) => t < b.threads) ?? null;
    const top = ladder[ladder.length - 1];
    const bottom = ladder[0];
    const mid = (lo: number, hi: number) => {
      const inside = ladder.filter((t) => t > lo && t < hi && !tried.has(t));
      return inside.length ? inside[Math.floor(inside.length / 2)] : null;
    };
    const up = above === null ? (top > b.threads && !tried.has(top) ? top : mid(b.threads, top + 1)) : mid(b.threads, above);
    const down = below === null ? mid(bottom - 1, b.threads) : mid(below, b.threads);
    // Towards the side not yet explored; between two explored sides, by turns.
    const pick = above === null ? (up ?? down) : below === null ? (down ?? up) : round % 2 ? (up ?? down) : (down ?? up);
    if (pick !== null) return this.push(i, pick);
    // No untried count next to the best: try again the point whose optimistic bound is highest (an unlucky single
    // trial elsewhere on the curve gets its second chance).
    const sd = this.noise().sd;
    let again: Point | null = null;
    let bound = -Infinity;
    for (const p of this.points[i].values()) {
      if (p.threads === b.threads) continue;
      const u = mean(p.scores) + (2 * sd) / Math.sqrt(p.scores.length);
      if (u > bound) [again, bound] = [p, u];
    }
    if (again && bound > b.mean) this.push(i, again.threads);
  }

  private open(stage: TuneRound['stage']): void {
    this.rounds.push({
      round: this.rounds.length + 1,
      stage,
      startedAt: new Date().toISOString(),
      trials: [],
      standings: [],
      noiseCv: null,
    });
  }

  /** After a round: drop what the intervals rule out, then keep at most half of the rest (at least two). */
  private close(round: number, affordable: number): void {
    const { sd, df } = this.noise();
    const t = tCritical(df);
    const order = this.ranked();
    const lead = order[0];
    if (lead !== undefined) {
      const lb = this.best(lead)!;
      for (const i of order.slice(1)) {
        const p = this.best(i)!;
        const gap = lb.mean - p.mean;
        const half = t * sd * Math.sqrt(1 / lb.n + 1 / p.n);
        if (gap > half) this.drop(i, round, `${pct(gap)} behind the leader (95% interval ${pct(gap - half)} to ${pct(gap + half)})`);
      }
      // As many as the budget can still race for a few rounds (two trials each a round), the best first.
      const left = this.ranked();
      const keep = Math.max(2, Math.floor(affordable / (2 * RACE_ROUNDS)));
      for (const i of left.slice(keep))
        this.drop(
          i,
          round,
          `outside the ${keep} best after round ${round}, which the budget can still race (${pct(lb.mean - this.best(i)!.mean)} behind the leader)`,
        );
    }
    // Configurations never tried (no point met the constraints) leave the race too.
    for (const i of [...this.racing]) if (!this.best(i)) this.drop(i, round, 'no trial met the constraints');
    this.settle(this.rounds[round - 1]);
  }

  /** A round's standings and the noise measured by its end. */
  private settle(r: TuneRound | undefined): void {
    if (!r) return;
    r.standings = this.standings();
    const m = this.noise().measured;
    r.noiseCv = m === null ? null : Math.exp(m) - 1;
  }

  private drop(i: number, round: number, why: string): void {
    if (!this.racing.has(i)) return;
    this.racing.delete(i);
    this.dropped.set(i, { why, round });
  }

  /** Records a trial key in the current round (the caller calls it as each trial starts). */
  started(key: string): void {
    this.rounds[this.rounds.length - 1]?.trials.push(key);
  }

  /** Closes the last round's standings (after the final trial). */
  finish(runs: readonly RunRecord[]): void {
    this.ingest(runs);
    this.settle(this.rounds[this.rounds.length - 1]);
  }
}

/** A score gap on the log scale as a percentage: 0.105 -> "10%". */
function pct(gap: number): string {
  return `${Math.round((1 - Math.exp(-Math.max(0, gap))) * 100)}%`;
}

/** The screening points of a ladder: its middle and its top, or only the top's three quarters. */
export function screenPoints(ladder: readonly number[], two: boolean): number[] {
  const top = ladder[ladder.length - 1];
  if (!two) return [ladder[Math.min(ladder.length - 1, Math.ceil(ladder.length * 0.75) - 1)]];
  const middle = ladder[Math.max(0, Math.ceil(ladder.length / 2) - 1)];
  return middle === top ? [top] : [middle, top];
}
