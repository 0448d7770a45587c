// Figures with their intervals, and verdicts that follow from them, as every view says them (the terminal, the
// panel, the notebook): one wording, computed once.
import { ratioText } from '../numberText';
import { intervalText } from '../units';
import {
  EQUIVALENCE_MARGIN,
  equivalenceInterval,
  excludesOne,
  fullRatio,
  isEquivalent,
  type FigureEstimate,
  type RatioEstimate,
  type StoredRatio,
} from './interval';
import { detectPlan, equivalencePlan, lowPower, planText } from './plan';
import { plural } from '../plural';

/** What a figure with one run shows instead of an interval. */
export const SINGLE_RUN = '1 run: no interval';

/**
 * "12,345 [11,900, 12,800]", a single run's value alone, '-' for none. By default a bare count (tiny ones scaled:
 * "8.3e-7 [3.2e-7, 2.1e-6]"); given a unit, the interval in its point's unit (units.ts intervalText); given a
 * function, each number as it writes it.
 */
export function estimateText(e: FigureEstimate, fmt: ((v: number) => string) | { unit: string; inTable?: boolean } = { unit: '' }): string {
  if (e.value === null) return '-';
  if (typeof fmt !== 'function') return intervalText(e.value, e.interval, fmt.unit, { inTable: fmt.inTable });
  return e.interval ? `${fmt(e.value)} [${fmt(e.interval.low)}, ${fmt(e.interval.high)}]` : fmt(e.value);
}

/** How the figure was computed, for a table's header or a footnote. */
export function methodText(e: Pick<FigureEstimate, 'method' | 'n'>): string {
  switch (e.method) {
    case 'gmean':
      return `geometric mean of ${plural(e.n, 'run')} [95% interval]`;
    case 'mean':
      return `mean of ${plural(e.n, 'run')} [95% interval] (a run measured 0)`;
    case 'single':
      return SINGLE_RUN;
    case 'none':
      return 'not measured';
  }
}

const pct = (v: number) => `${Math.abs(v * 100) < 10 ? Math.abs(v * 100).toFixed(1) : Math.abs(v * 100).toFixed(0)}%`;
const signedPct = (v: number) => `${v >= 0 ? '+' : '-'}${pct(v)}`;
const times = ratioText;
/** "95%", "99.7%": an interval's level as it is named. */
export const levelText = (level: number) => `${+(level * 100).toFixed(1)}%`;

/** The ratio's interval as changes: "-4% to +6%" (the B/A ratio less one); an end the data cannot close is open. */
export function ratioIntervalText(r: Pick<RatioEstimate, 'interval'>): string {
  const i = r.interval;
  if (!i) return SINGLE_RUN;
  if (i.low === 0 && i.high === Infinity) return 'unbounded (too few runs measured it to bound the ratio)';
  const high = i.high === Infinity ? 'no upper bound' : signedPct(i.high - 1);
  return `${signedPct(i.low - 1)} to ${high}`;
}

/** The words a higher and a lower value earn: throughput is faster/slower, a per-row figure higher/lower. */
export interface VerdictWords {
  /** The subject, e.g. "B", "this run", "arm other-node". */
  subject: string;
  /** The figure as a noun phrase, e.g. "throughput", "LOGCACHE_ACCESS spins per row". */
  figure: string;
  /** For throughput: "faster" / "slower"; otherwise "higher" / "lower". */
  higher: string;
  lower: string;
  /** What the subject is compared with, in a "no difference" verdict (default "A"; "the baseline"). */
  against?: string;
}

export const THROUGHPUT_WORDS = (subject: string): VerdictWords => ({ subject, figure: 'throughput', higher: 'faster', lower: 'slower' });

export interface Verdict {
  /**
   * higher / lower: the interval leaves out 1; equivalent: the 90% interval lies within the margin (two one-sided
   * tests); same: neither shown; single: no interval; none: not comparable.
   */
  kind: 'higher' | 'lower' | 'equivalent' | 'same' | 'single' | 'none';
  text: string;
  /** For 'same': repetitions of each arm that would detect a 5% change at the measured spread (null: unknown). */
  repetitionsFor5Pct: number | null;
}

/** "95% interval 8% to 16%" with the interval's own level; an end the data cannot close reads as open. */
function intervalWords(r: RatioEstimate, up: boolean, big: boolean): string {
  const i = r.interval;
  if (!i) return '';
  const lv = levelText(r.level);
  if (big) {
    const lo = up ? i.low : 1 / i.high;
    const hi = up ? i.high : i.low === 0 ? Infinity : 1 / i.low;
    return ` (${lv} interval ${times(lo)} to ${hi === Infinity ? 'no upper bound' : times(hi)})`;
  }
  const lo = up ? i.low - 1 : 1 - i.high;
  const hi = up ? i.high - 1 : 1 - i.low;
  return ` (${lv} interval ${pct(lo)} to ${hi === Infinity ? 'no upper bound' : pct(hi)})`;
}

/** A change as people say it: "faster by 12% (95% interval 8% to 16%)", "4.2x lower (95% interval 3.9x to 4.6x)". */
export function changeWords(stored: StoredRatio, w: VerdictWords, up: boolean): string {
  const r = fullRatio(stored);
  const ratio = r.ratio as number;
  // Down to nothing has no "x lower": 1/0 would read as Infinity.
  if (!up && ratio === 0)
    return `down to 0${r.interval && r.interval.high > 0 ? ` (${levelText(r.level)} interval ${ratioIntervalText(r)})` : ''}`;
  const big = up ? ratio >= 2 : ratio <= 0.5;
  if (big) return `${times(up ? ratio : 1 / ratio)} ${up ? w.higher : w.lower}${intervalWords(r, up, true)}`;
  return `${up ? w.higher : w.lower} by ${pct(up ? ratio - 1 : 1 - ratio)}${intervalWords(r, up, false)}`;
}

/** What the design of the comparison adds to a verdict: separate sessions widen it, and say so. */
export function designNote(r: Pick<RatioEstimate, 'design' | 'betweenSd'>): string {
  if (r.design !== 'separate' || r.betweenSd === null) return '';
  return ` The two sides ran in separate sessions, not interleaved: the interval includes a between-session term (±${pct(Math.SQRT2 * r.betweenSd)}), since a shift shared by a whole session is in neither side's spread.`;
}

const margin = `±${+(EQUIVALENCE_MARGIN * 100).toFixed(1)}%`;
const SESSIONS_REMEDY =
  'between separate sessions no number of repetitions detects a 5% change: run the two as arms of one experiment, which interleaves them';

/** What more repetitions would settle, as a range, for a comparison that showed neither a change nor equivalence. */
function planWords(r: RatioEstimate): { text: string; need: number | null } {
  const have = Math.min(r.nA, r.nB);
  const detect = detectPlan(r);
  if (!detect) return { text: '', need: null };
  if (detect.sessionsBound) return { text: `: ${SESSIONS_REMEDY}`, need: null };
  if (detect.high !== null && detect.high <= have)
    return {
      text: `: a 5% change would have been found at least 4 times in 5 at these ${plural(have, 'repetition')}, even at the upper bound of the measured noise`,
      need: detect.point,
    };
  const d = planText(detect, have);
  if (d === null) return { text: ': the noise is too large for any practical number of repetitions to detect a 5% change', need: null };
  const eq = equivalencePlan(r);
  const e = eq ? planText(eq, have) : null;
  return {
    text: `: detecting a 5% change would take about ${d}${e ? `; showing equivalence within ${margin}, were there no change, about ${e.replace(' of each arm', '')}` : ''}`,
    need: detect.point,
  };
}

/** The verdict on B against A for one figure, following from its interval. */
export function ratioVerdict(stored: StoredRatio, w: VerdictWords): Verdict {
  const r = fullRatio(stored);
  const what = w.figure === 'throughput' ? w.subject : `${w.subject}'s ${w.figure}`;
  const against = w.against ?? 'A';
  if (r.ratio === null) return { kind: 'none', text: `${what}: no comparison (nothing measured on one side).`, repetitionsFor5Pct: null };
  if (!r.interval) {
    const same = Math.abs(r.ratio - 1) < 0.0005;
    const point = same ? 'the same in this one pair of runs' : changeWords(r, w, r.ratio > 1);
    return {
      kind: 'single',
      text: `${what} is ${point} (${r.nA === 1 && r.nB === 1 ? '1 run each' : SINGLE_RUN}: no interval, noise alone can do this).`,
      repetitionsFor5Pct: null,
    };
  }
  const note = designNote(r);
  if (excludesOne(r)) {
    const up = r.interval.low > 1;
    const overstated = lowPower(r)
      ? ' This may be overstated at this noise: a change this size is found less than 4 times in 5 here, and changes found at low power are exaggerated on average.'
      : '';
    return { kind: up ? 'higher' : 'lower', text: `${what} is ${changeWords(r, w, up)}.${overstated}${note}`, repetitionsFor5Pct: null };
  }
  if (isEquivalent(r)) {
    const e = equivalenceInterval(r)!;
    return {
      kind: 'equivalent',
      text: `${w.subject}'s ${w.figure} is equivalent to ${against}'s within ${margin} (90% interval ${ratioIntervalText({ interval: e })}, two one-sided tests): no difference that matters.${note}`,
      repetitionsFor5Pct: null,
    };
  }
  const plan = planWords(r);
  return {
    kind: 'same',
    text: `No difference in ${w.figure} detectable at this noise (${w.subject} against ${against}, ${levelText(r.level)} interval ${ratioIntervalText(r)}), nor shown to be within ${margin}${plan.text}.${note}`,
    repetitionsFor5Pct: plan.need,
  };
}
