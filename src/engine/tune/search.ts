// The search: successive halving with racing, over configurations whose sessions are a curve, then a confirmation.
// The confirmation's pairs are kept back from the budget up front (plan.ts); the rest is the selection's. Round 1
// screens every configuration with short trials at one or two points of its session ladder. Each later round drops
// the configurations the intervals already rule out (racing, Holm-adjusted: racing.ts), keeps as many of the rest as
// the selection's budget can race for a few more rounds (successive halving, paced by the budget), and for each
// survivor repeats its best point and tries one new point of its curve next to it. When the selection's budget is
// spent, the winner is fixed and the rest of the budget confirms it against the current settings on fresh trials in
// pairs (A B, B A, ...) that no selection ever saw: the winner's curse stays out of the verdict. Decisions use the
// search's pooled run-to-run noise on the log scale (every point tried more than once contributes), started from a
// prior so the first rounds are not overconfident.
import type { RunRecord } from '../../shared/experiment';
import type { TuneConfig, TuneConstraint, TuneObjective, TuneRound, TuneStanding } from '../../shared/tune';
import { estimate } from '../../shared/repeats/interval';
import type { PlannedRun } from '../planOrder';
import { confirmationPairs, confirmationPairsAt, PRIOR_CV, screenPoints, SHARED_WIDEN } from './plan';
import type { Confirmation } from './types';
import { holmDrops } from './racing';
import { meets, objectiveOf, scoreOf } from './objective';

/** How many degrees of freedom the prior noise counts for. */
const PRIOR_DF = 2;
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
  /** The confirmation's pairs kept back from the start (default: plan.ts's, at the assumed noise). */
  confirmPairs?: number;
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;

export class TuneSearch {
  readonly points: Map<string, Point>[];
  readonly rounds: TuneRound[] = [];
  private racing: Set<number>;
  private queue: PlannedRun[] = [];
  private seen = 0;
  private handed = 0;
  private confirm: Confirmation | null = null;
  private dropped = new Map<number, { why: string; round: number }>();
  /** The pairs kept back for the confirmation. */
  readonly confirmPairs: number;

  constructor(private readonly o: SearchOptions) {
    this.points = o.configs.map(() => new Map());
    this.racing = new Set(o.configs.map((_, i) => i));
    this.confirmPairs = o.configs.length > 1 ? (o.confirmPairs ?? confirmationPairs(PRIOR_CV, o.sharedServer)) : 0;
  }

  /** Takes in the trials that finished since the last call; the confirmation's go to its pairs, never to the points. */
  ingest(runs: readonly RunRecord[]): void {
    for (; this.seen < runs.length; this.seen++) {
      const r = runs[this.seen];
      const i = this.o.configs.findIndex((c) => c.id === r.arm.id);
      const v = objectiveOf(r, this.o.objective);
      if (this.confirm && this.seen >= this.confirm.from) {
        this.pair(this.seen - this.confirm.from, i, r.threads, v);
        continue;
      }
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

  /** Every configuration with a point, by its best point's mean score, best first (dropped ones too). */
  private standingsOrder(): number[] {
    return this.o.configs
      .map((_, i) => [i, this.best(i)?.mean ?? null] as const)
      .filter((x): x is readonly [number, number] => x[1] !== null)
      .sort((a, b) => b[1] - a[1])
      .map(([i]) => i);
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
    if (!this.confirm) {
      const left = affordable - this.reserve();
      // The selection's budget is spent: the winner is fixed and what is queued is cut (a round's weakest come last).
      // With nothing to confirm against yet, the selection goes on with the whole budget.
      if (this.rounds.length && left <= 0) {
        this.settle(this.rounds[this.rounds.length - 1]);
        this.startConfirm();
        if (this.confirm) this.queue = [];
      }
      if (!this.confirm && !this.queue.length) this.plan(left > 0 ? left : affordable);
    }
    if (this.confirm && !this.queue.length) {
      // A pair starts only when both its trials fit; pairs take turns at going first (A B, then B A).
      if (affordable < 2) return null;
      const { a, b } = this.confirm;
      const first = ((this.handed - this.confirm.from) / 2) % 2 ? [b, a] : [a, b];
      for (const s of first) this.push(s.i, s.threads);
    }
    const r = this.queue.shift() ?? null;
    if (r) this.handed++;
    return r;
  }

  /** Trials kept back for the confirmation: none once the current settings have no point to confirm against. */
  private reserve(): number {
    const cur = this.o.configs.findIndex((c) => c.current);
    if (cur < 0 || (this.rounds.length > 1 && !this.best(cur))) return 0;
    // Planned at the assumed noise; fewer once the measured noise shows fewer do (never more: the budget was checked
    // against the planned pairs, and an open verdict says how many more would settle it).
    return 2 * Math.min(this.confirmPairs, confirmationPairsAt(this.noise().sd));
  }

  /** Fixes the winner and opens the confirmation: it against the current settings, or the current settings against the best other. */
  private startConfirm(): void {
    const cur = this.o.configs.findIndex((c) => c.current);
    const order = this.ranked();
    const w = order[0];
    if (w === undefined || cur < 0 || !this.best(cur)) return;
    const other = w !== cur ? w : this.standingsOrder().find((i) => i !== cur);
    if (other === undefined) return;
    this.confirm = {
      a: { i: cur, threads: this.best(cur)!.threads },
      b: { i: other, threads: this.best(other)!.threads },
      from: this.handed,
      pairs: [],
    };
    this.open('confirm');
  }

  private pair(j: number, i: number, threads: number, v: number | null): void {
    const c = this.confirm!;
    const k = Math.floor(j / 2);
    const p = (c.pairs[k] ??= [null, null]);
    if (i === c.a.i && threads === c.a.threads) p[0] = v;
    else if (i === c.b.i && threads === c.b.threads) p[1] = v;
  }

  /** The confirmation, or null when the search never reached it. */
  confirmation(): Confirmation | null {
    return this.confirm;
  }

  /** The selection's objective values of a configuration at a session count (the confirmation's left out). */
  selectionValues(i: number, threads: number): number[] {
    return this.points[i].get(String(threads))?.values ?? [];
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
    // Survivors, best first (a round the budget cuts short loses its weakest): one more trial at the best point, and
    // one new point of the curve next to it. One left: its curve is refined until the selection's budget is spent
    // (a race ended early still has the session count to settle; offline that found the best session count more often
    // than giving the rest to the confirmation).
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
    const order = this.ranked();
    const lead = order[0];
    if (lead !== undefined) {
      const lb = this.best(lead)!;
      const challengers = order.slice(1).map((i) => {
        const p = this.best(i)!;
        return { i, gap: lb.mean - p.mean, se: sd * Math.sqrt(1 / lb.n + 1 / p.n) };
      });
      for (const d of holmDrops(challengers, df))
        this.drop(
          d.i,
          round,
          `${pct(d.gap)} behind the leader (95% interval ${pct(d.low)} to ${pct(d.high)}, Holm-adjusted over ${d.family} comparisons)`,
        );
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
