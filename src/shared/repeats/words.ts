// Figures with their intervals, and verdicts that follow from them, as every view says them (the terminal, the
// panel, the notebook): one wording, computed once.
import { figureText } from '../numberText';
import { excludesOne, repetitionsToDetect, type FigureEstimate, type RatioEstimate } from './interval';

/** What a figure with one run shows instead of an interval. */
export const SINGLE_RUN = '1 run: no interval';
/** The change a "no difference" verdict plans for. */
export const PLANNED_CHANGE = 0.05;

/** "12,345 [11,900, 12,800]", a single run's value alone, '-' for none. */
export function estimateText(e: FigureEstimate, fmt: (v: number) => string = figureText): string {
  if (e.value === null) return '-';
  return e.interval ? `${fmt(e.value)} [${fmt(e.interval.low)}, ${fmt(e.interval.high)}]` : fmt(e.value);
}

/** How the figure was computed, for a table's header or a footnote. */
export function methodText(e: Pick<FigureEstimate, 'method' | 'n'>): string {
  switch (e.method) {
    case 'gmean':
      return `geometric mean of ${e.n} runs [95% interval]`;
    case 'mean':
      return `mean of ${e.n} runs [95% interval] (a run measured 0)`;
    case 'single':
      return SINGLE_RUN;
    case 'none':
      return 'not measured';
  }
}

const pct = (v: number) => `${Math.abs(v * 100) < 10 ? Math.abs(v * 100).toFixed(1) : Math.abs(v * 100).toFixed(0)}%`;
const signedPct = (v: number) => `${v >= 0 ? '+' : '-'}${pct(v)}`;
const times = (v: number) => `${v < 10 ? v.toFixed(1) : v.toFixed(0)}x`;

/** The ratio's interval as changes: "-4% to +6%" (the B/A ratio less one). */
export function ratioIntervalText(r: RatioEstimate): string {
  return r.interval ? `${signedPct(r.interval.low - 1)} to ${signedPct(r.interval.high - 1)}` : SINGLE_RUN;
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
  /** higher / lower: the interval leaves out 1; same: it holds 1; single: no interval; none: not comparable. */
  kind: 'higher' | 'lower' | 'same' | 'single' | 'none';
  text: string;
  /** For 'same': repetitions of each arm that would detect a 5% change at this noise (null: unknown). */
  repetitionsFor5Pct: number | null;
}

/** A change as people say it: "faster by 12% (95% interval 8% to 16%)", "4.2x lower (95% interval 3.9x to 4.6x)". */
export function changeWords(r: RatioEstimate, w: VerdictWords, up: boolean): string {
  const ratio = r.ratio as number;
  // Down to nothing has no "x lower": 1/0 would read as Infinity.
  if (!up && ratio === 0) return 'down to 0';
  const big = up ? ratio >= 2 : ratio <= 0.5;
  const i = r.interval;
  if (big) {
    const x = up ? ratio : 1 / ratio;
    const iv = i ? ` (95% interval ${times(up ? i.low : 1 / i.high)} to ${times(up ? i.high : 1 / i.low)})` : '';
    return `${times(x)} ${up ? w.higher : w.lower}${iv}`;
  }
  const change = up ? ratio - 1 : 1 - ratio;
  const iv = i ? ` (95% interval ${pct(up ? i.low - 1 : 1 - i.high)} to ${pct(up ? i.high - 1 : 1 - i.low)})` : '';
  return `${up ? w.higher : w.lower} by ${pct(change)}${iv}`;
}

/** The verdict on B against A for one figure, following from its interval. */
export function ratioVerdict(r: RatioEstimate, w: VerdictWords): Verdict {
  const what = w.figure === 'throughput' ? w.subject : `${w.subject}'s ${w.figure}`;
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
  if (excludesOne(r)) {
    const up = r.interval.low > 1;
    return { kind: up ? 'higher' : 'lower', text: `${what} is ${changeWords(r, w, up)}.`, repetitionsFor5Pct: null };
  }
  const need = repetitionsToDetect(r.sdLog, PLANNED_CHANGE);
  const have = Math.min(r.nA, r.nB);
  const plan =
    need === null
      ? r.sdLog === null
        ? ''
        : ': the noise is too large for any practical number of repetitions to detect a 5% change'
      : need > have
        ? `: about ${need - have} more repetition${need - have === 1 ? '' : 's'} of each arm (${need} in all) would detect a 5% change`
        : `: a change of 5% or more would have shown at these ${have} repetitions`;
  return {
    kind: 'same',
    text: `No difference in ${w.figure} detectable at this noise (${w.subject} against ${w.against ?? 'A'}, 95% interval ${ratioIntervalText(r)})${plan}.`,
    repetitionsFor5Pct: need,
  };
}
