// What a tune's budget must hold before it starts: every configuration screened once, and the confirmation's pairs of
// fresh trials (the winner against the current settings, A B, B A, ...) kept back from the search up front, so the
// final verdict never rests on the trials that chose the winner (the winner's curse). The pairs are planned at the
// noise assumed before the search has measured any: the search's prior (15%), widened on a shared server.
import { pairsToDetect } from '../../shared/tunePaired';

/** The trial-to-trial noise (CV) assumed before the search has measured its own. */
export const PRIOR_CV = 0.15;
/** Shared server: the intervals widen by this factor (others' work adds noise the trials cannot see). */
export const SHARED_WIDEN = 1.5;
/**
 * The change the confirmation is planned to show (at 95%, in four confirmations of five): 20%. A winner that moves
 * server-wide affinity for less is rarely worth it, and planning for 10% would take about four times the pairs.
 */
export const CONFIRM_CHANGE = 0.2;
/** Fewer pairs leave the paired t with too few degrees of freedom to be worth the trials. */
const MIN_PAIRS = 5;
/** Kept back from the budget for the restore and the final save. */
export const RESERVE_MS = 3000;
/** Connecting, reading the server's shape and deploying the workload, before the first trial. */
const SETUP_MS = 10_000;

/** The confirmation's pairs at a trial-to-trial noise of `cv`: both sides' noise is in each pair's ratio. */
export function confirmationPairs(cv: number, sharedServer: boolean): number {
  return confirmationPairsAt(Math.log(1 + cv) * (sharedServer ? SHARED_WIDEN : 1));
}

/** The same from a trial's noise on the log scale (the search's pooled estimate); no practical number: Infinity. */
export function confirmationPairsAt(sdTrialLog: number): number {
  return Math.max(MIN_PAIRS, pairsToDetect(Math.SQRT2 * sdTrialLog, CONFIRM_CHANGE) ?? Infinity);
}

export interface MinimumBudget {
  /** Whole minutes, in ms. */
  ms: number;
  configs: number;
  pairs: number;
  trials: number;
  perTrialMs: number;
}

/** The least budget that screens every configuration once and still holds the confirmation's pairs. */
export function minimumBudget(configs: number, perTrialMs: number, sharedServer: boolean): MinimumBudget {
  const pairs = configs > 1 ? confirmationPairs(PRIOR_CV, sharedServer) : 0;
  const trials = configs + 2 * pairs;
  const ms = Math.ceil((SETUP_MS + RESERVE_MS + trials * perTrialMs) / 60_000) * 60_000;
  return { ms, configs, pairs, trials, perTrialMs };
}

/** "--budget 3m is below the 6m this space needs: ..." with the fix. */
export function belowMinimum(budgetMs: number, m: MinimumBudget, sharedServer: boolean): { message: string; fix: string } {
  const min = `${m.ms / 60_000}m`;
  const given = budgetMs % 60_000 ? `${Math.round(budgetMs / 1000)}s` : `${budgetMs / 60_000}m`;
  const s = (m.perTrialMs / 1000).toFixed(1);
  return {
    message:
      `--budget ${given} is below the ${min} this space needs: screening its ${m.configs} configurations once (${m.configs} trials) ` +
      `and ${m.pairs} pairs of fresh trials confirming the winner against the current settings (${2 * m.pairs} trials), ` +
      `about ${s} s a trial, planned at the ${Math.round(PRIOR_CV * 100)}% trial-to-trial noise assumed before any is measured` +
      `${sharedServer ? ' (widened for --shared-server)' : ''}.`,
    fix: `give --budget ${min} or more, or narrow the search (--affinity, --batch-size, --sessions).`,
  };
}

/** The screening points of a ladder: its middle and its top, or only the top's three quarters. */
export function screenPoints(ladder: readonly number[], two: boolean): number[] {
  const top = ladder[ladder.length - 1];
  if (!two) return [ladder[Math.min(ladder.length - 1, Math.ceil(ladder.length * 0.75) - 1)]];
  const middle = ladder[Math.max(0, Math.ceil(ladder.length / 2) - 1)];
  return middle === top ? [top] : [middle, top];
}
