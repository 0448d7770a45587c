// How a comparison was computed, in one sentence every view shows under its table (the terminal, the panel, the
// notebook): the design the arms ran in, what pairing removed, and how the secondary figures were adjusted.
import { LEVEL, type RatioEstimate } from './interval';
import { levelText } from './words';

const pct = (logSe: number) => `±${(100 * (Math.exp(1.96 * logSe) - 1)).toFixed(1)}%`;

/** The design of the primary figure's comparison in words. */
export function designText(r: Pick<RatioEstimate, 'design' | 'method' | 'pairing' | 'log' | 'betweenSd'>): string {
  if (r.method === 'rank') return 'a permutation (rank) interval of the ratio of means, a repetition having measured 0';
  if (r.design === 'paired' && r.pairing && r.log)
    return `paired by block: the arms alternated (A B, B A ...), so the ${r.pairing.blocks} per-block log ratios were analysed (paired t); pairing took the error from about ${pct(r.pairing.unpairedSe)} to ${pct(r.log.se)}`;
  if (r.design === 'separate') return "separate sessions, not interleaved: Welch's t on the log means, widened by a between-session term";
  if (r.method === 'pooled-log') return "one side ran once: the repeated side's spread stands for both";
  return "Welch's t on the log means (runs not paired)";
}

/** The sentence under a comparison's table. */
export function comparisonMethodText(figures: readonly { primary: boolean; label: string; ratio: RatioEstimate }[]): string {
  const main = figures.find((f) => f.primary);
  const others = figures.filter((f) => !f.primary && f.ratio.p !== null).length;
  const head = main ? `${main.label}, the primary figure: ${designText(main.ratio)}; ${levelText(main.ratio.level)} interval.` : '';
  const rest = others
    ? ` The other ${others} figures are exploratory: one family under Holm's adjustment (the chance that any is called different when none is stays at ${levelText(1 - LEVEL)}), each interval at its adjusted level.`
    : '';
  return `${head}${rest}`;
}
