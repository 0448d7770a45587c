// Group-sequential gates: a gate may be looked at after every repetition and stopped when it is decided, without the
// error of "peek until significant" (which at 10 looks calls about one gate in five wrongly). The error is spent over
// the looks by the Lan-DeMets (1983) O'Brien-Fleming-type function, alpha(t) = 2 - 2 Phi(z(1 - alpha/2) / sqrt(t)),
// t the share of the most repetitions a cell may take: almost nothing is spent early (a gate stops at 3 of 10 only
// on an overwhelming margin) and the last look's boundary stays near the fixed design's, so a gate that needs every
// repetition loses little. Boundaries come from the joint distribution of the z statistics at the looks (a Brownian
// motion in the information), by the numerical integration of Jennison and Turnbull, "Group Sequential Methods with
// Applications to Clinical Trials" (2000), chapter 19. The spread is estimated, so each look converts its z boundary to
// Student's t at the same nominal level (Jennison and Turnbull, section 11: the significance level approach).
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

const Phi = (x: number) => normalCdf(x, 0, 1);
const phi = (x: number) => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);

/** The Lan-DeMets O'Brien-Fleming-type spending function: the error spent by information fraction t (0 to 1). */
export function obfSpending(t: number, alpha: number): number {
  if (t <= 0) return 0;
  const z = normalQuantile(1 - alpha / 2, 0, 1);
  return 2 - 2 * Phi(z / Math.sqrt(Math.min(1, t)));
}

/** Grid points per unit standard deviation of the score, and how far the grid reaches below the boundary. */
const POINTS_PER_SD = 24;
const REACH_SD = 9;

interface Grid {
  /** Score values (z x sqrt(information)) and their Simpson weights times the density. */
  s: number[];
  w: number[];
}

/** Simpson's rule on [a, b] with an even number of intervals at about POINTS_PER_SD per sd. */
function simpson(a: number, b: number, sd: number): { x: number[]; w: number[] } {
  const m = Math.max(2, 2 * Math.ceil(((b - a) / sd) * (POINTS_PER_SD / 2)));
  const h = (b - a) / m;
  const x: number[] = [];
  const w: number[] = [];
  for (let i = 0; i <= m; i++) {
    x.push(a + i * h);
    w.push((h / 3) * (i === 0 || i === m ? 1 : i % 2 ? 4 : 2));
  }
  return { x, w };
}

/**
 * The probability of first crossing at a look whose boundary (z) is `b`, given the grid of the score's sub-density
 * over the continuation region of the looks before (null: this is the first look). `twoSided`: crossing |z| >= b.
 */
function crossing(prev: Grid | null, info: number, prevInfo: number, b: number, twoSided: boolean): number {
  const sb = b * Math.sqrt(info);
  if (!prev) return twoSided ? 2 * (1 - Phi(b)) : 1 - Phi(b);
  const sdInc = Math.sqrt(info - prevInfo);
  let p = 0;
  for (let i = 0; i < prev.s.length; i++) {
    const up = 1 - Phi((sb - prev.s[i]) / sdInc);
    const down = twoSided ? Phi((-sb - prev.s[i]) / sdInc) : 0;
    p += prev.w[i] * (up + down);
  }
  return p;
}

/** The score's sub-density at this look over its continuation region, on a grid (its weights hold the density). */
function advance(prev: Grid | null, info: number, prevInfo: number, b: number, twoSided: boolean): Grid {
  const sd = Math.sqrt(info);
  const high = b * sd;
  const low = twoSided ? -high : Math.min(-REACH_SD * sd, high - REACH_SD * sd);
  const { x, w } = simpson(low, high, sd);
  const dens = x.map((s) => {
    if (!prev) return phi(s / sd) / sd;
    const sdInc = Math.sqrt(info - prevInfo);
    let f = 0;
    for (let i = 0; i < prev.s.length; i++) f += (prev.w[i] * phi((s - prev.s[i]) / sdInc)) / sdInc;
    return f;
  });
  return { s: x, w: w.map((wi, i) => wi * dens[i]) };
}

/** The boundary at which the first-crossing probability equals `target` (bisection: it falls as b grows). */
function solve(prev: Grid | null, info: number, prevInfo: number, target: number, twoSided: boolean): number {
  if (target <= 0) return Infinity;
  let lo = 0;
  let hi = 40;
  for (let i = 0; i < 100 && hi - lo > 1e-9; i++) {
    const mid = (lo + hi) / 2;
    if (crossing(prev, info, prevInfo, mid, twoSided) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface BoundaryOptions {
  /** |z| >= b at each look (a two-sided test at level alpha) rather than z >= b (one-sided at alpha). */
  twoSided?: boolean;
  spending?: (t: number, alpha: number) => number;
}

/**
 * The z boundaries of a group-sequential test with looks at increasing information fractions (the last 1), spending
 * `alpha` by the spending function (default O'Brien-Fleming-type): at look k the first-crossing probability under
 * the null is alpha(t_k) - alpha(t_{k-1}).
 */
export function spendingBoundaries(fractions: readonly number[], alpha: number, o: BoundaryOptions = {}): number[] {
  const spend = o.spending ?? obfSpending;
  const twoSided = !!o.twoSided;
  const out: number[] = [];
  let grid: Grid | null = null;
  let prevInfo = 0;
  let spent = 0;
  for (const t of fractions) {
    const cum = spend(t, alpha);
    const b = solve(grid, t, prevInfo, cum - spent, twoSided);
    out.push(b);
    spent = cum;
    // Beyond ~38 sd nothing crosses: the grid would hold nothing worth integrating and the next look sees it all.
    grid = advance(grid, t, prevInfo, Math.min(b, 38), twoSided);
    prevInfo = t;
  }
  return out;
}

/** The probability under the null of crossing any of the given z boundaries at the looks (their total error). */
export function crossingProbability(fractions: readonly number[], bounds: readonly number[], twoSided = false): number {
  let grid: Grid | null = null;
  let prevInfo = 0;
  let total = 0;
  fractions.forEach((t, k) => {
    total += crossing(grid, t, prevInfo, bounds[k], twoSided);
    grid = advance(grid, t, prevInfo, bounds[k], twoSided);
    prevInfo = t;
  });
  return total;
}

/**
 * The most repetitions --repeat auto takes by default: a floor or ceiling whose truth is 10% clear of its limit at 10%
 * run-to-run noise then passes about 96% of the time (82% with at most 10, 99% with 20), on about 10 repetitions on
 * average (test/unit/sequential.test.ts measures it). The first look is at 2 repetitions: one has no interval.
 */
export const DEFAULT_MAX_REPEAT = 15;
export const FIRST_LOOK = 2;

export interface SequentialDesign {
  /** The most repetitions of a cell (the last look). */
  maxRepeat: number;
  /** The first repetition a figure's gate is looked at (one run has no interval). */
  firstLook: number;
}

const cache = new Map<string, number[]>();

/**
 * The nominal one-sided error at each look of a sequential gate, by repetitions (index n - firstLook), for one side
 * of the gate spending `alpha` (0.025: a gate's pass and its fail each at 2.5%, as the fixed 95% interval; 0.05 for
 * each of the two one-sided tests of an equivalence). The interval at look n is then the two-sided 1 - 2 p_n one.
 */
export function nominalLevels(design: SequentialDesign, alpha: number): number[] {
  const key = `${design.maxRepeat}:${design.firstLook}:${alpha}`;
  let p = cache.get(key);
  if (!p) {
    const looks: number[] = [];
    for (let n = design.firstLook; n <= design.maxRepeat; n++) looks.push(n / design.maxRepeat);
    p = spendingBoundaries(looks, alpha).map((b) => 1 - Phi(b));
    cache.set(key, p);
  }
  return p;
}

/** The two-sided confidence level of the interval a gate is judged on at look n (null before the first look). */
export function lookLevel(design: SequentialDesign, n: number, alpha: number): number | null {
  if (n < design.firstLook || n > design.maxRepeat) return null;
  return 1 - 2 * nominalLevels(design, alpha)[n - design.firstLook];
}
