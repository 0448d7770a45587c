// Many figures compared at once: about 20 per cell (spinlocks, waits, latches per row, latency), and at 5% each
// about one is called different by chance in every A/A comparison. The primary figure (throughput, or the one the
// user names) keeps its own 95%; the others are one family under Holm's step-down method (Holm, "A simple
// sequentially rejective multiple test procedure", 1979), which keeps the chance that any of them is called
// different in an A/A comparison at 5% whatever their dependence (spins and backoffs of one spinlock move together),
// where Benjamini-Hochberg would control only the expected share of false findings and assumes positive dependence.
// Each figure's interval is shown at the level of the Holm step that decided it, so that an interval leaves out 1
// exactly when its figure is called different: a figure rejected at step j (p below 0.05 / (m - j + 1)) at the level
// 1 - 0.05 / (m - j + 1); every figure kept, at the level of the step where the procedure stopped.

/** The family-wise error rate of the secondary figures. */
export const FAMILY_ALPHA = 0.05;

export interface HolmDecision {
  /** Called different after the adjustment. */
  differs: boolean;
  /** The confidence level its interval is shown at. */
  level: number;
  /** Holm-adjusted p-value (monotone, at most 1); null without a p-value. */
  adjustedP: number | null;
}

/**
 * Holm's procedure over `ps` (null: the figure has no test, e.g. one run, and takes no part in the family). Returns
 * one decision per input, in order.
 */
export function holm(ps: readonly (number | null)[], alpha = FAMILY_ALPHA): HolmDecision[] {
  const tested = ps.map((p, i) => ({ p, i })).filter((x): x is { p: number; i: number } => x.p !== null);
  const m = tested.length;
  const order = [...tested].sort((x, y) => x.p - y.p || x.i - y.i);
  const out: HolmDecision[] = ps.map(() => ({ differs: false, level: 1 - alpha, adjustedP: null }));
  let stopped = false;
  let stopLevel = 1 - alpha / Math.max(1, m);
  let running = 0;
  order.forEach(({ p, i }, j) => {
    const threshold = alpha / (m - j);
    running = Math.max(running, Math.min(1, (m - j) * p));
    if (!stopped && p < threshold) {
      out[i] = { differs: true, level: 1 - threshold, adjustedP: running };
      return;
    }
    if (!stopped) {
      stopped = true;
      stopLevel = 1 - threshold;
    }
    out[i] = { differs: false, level: stopLevel, adjustedP: running };
  });
  return out;
}
