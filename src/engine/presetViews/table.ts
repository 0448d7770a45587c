// What every analysis view of a preset is: a table and the sentences that go with it, and the cell texts the views
// share (a figure with its interval, a ratio with its interval, a watched name's figure).
import { formatNumber, type RunFigures } from '../../shared/analysis';
import { estimateText, LEVEL, levelText, namedFigure, type FigureDef, type FigureEstimate, type RatioEstimate } from '../../shared/repeats';

export interface ViewTable {
  kind: 'runs' | 'repeats' | 'ab' | 'scaling' | 'noise' | 'math' | 'writelog';
  title: string;
  headers: string[];
  rows: string[][];
  /** Sentences that go with the table (summaries, formulas, verdicts). */
  lines: string[];
}

export const num = (v: number | null | undefined, digits = 0): string =>
  v === null || v === undefined || !Number.isFinite(v)
    ? '-'
    : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
export const small = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : formatNumber(v));

/** A figure over repetitions: "12,300 [11,900, 12,800]"; "(mean)" where a repetition was 0 and the logs could not be used. */
export function estimateCell(e: FigureEstimate): string {
  return `${estimateText(e)}${e.method === 'mean' ? ' (mean)' : ''}`;
}

/**
 * B over A with its interval: "1.12 [1.08, 1.16]"; an interval at another level than 95% (a secondary figure after
 * Holm's adjustment) names it; an end the data cannot close is "open"; the ratio alone without one; '-' for none.
 */
export function ratioCell(r: RatioEstimate): string {
  if (r.ratio === null) return '-';
  if (!r.interval) return formatNumber(r.ratio);
  const high = r.interval.high === Infinity ? 'open' : formatNumber(r.interval.high);
  const level = r.level !== LEVEL ? ` ${levelText(r.level)}` : '';
  return `${formatNumber(r.ratio)} [${formatNumber(r.interval.low)}, ${high}]${level}`;
}

/** A watched name's figure: spins per row for a spinlock, else wait ms per row, else latch ms per row. */
export function watchedFigure(figures: readonly RunFigures[], name: string): FigureDef {
  if (figures.some((f) => name in f.spinsPerRow)) return namedFigure('spinsPerRow', name);
  if (figures.some((f) => name in f.waitMsPerRow)) return namedFigure('waitMsPerRow', name);
  if (figures.some((f) => name in f.latchMsPerRow)) return namedFigure('latchMsPerRow', name);
  return namedFigure('spinsPerRow', name);
}
