// How two cells' runs were laid out in time, which decides how they are compared. The engine alternates the arms of
// a deploy group in blocks (A B, then B A, ...: planOrder.ts), so repetition k of arm A and repetition k of arm B ran
// next to each other and share whatever drifted meanwhile: they are analysed as pairs. Runs that were not laid out
// so (deploy groups run one after the other, two experiments, a saved baseline) carry a session's position effect
// that neither side's spread shows: they are compared as separate sessions (interval.ts, BETWEEN_SESSION_SD).
import type { Design } from './interval';

/** A run as the layout needs it: its place in the experiment's order and its repetition. */
export interface PlacedRun {
  index?: number;
  repetition?: number;
}

export interface CellLayout {
  design: Design;
  /** For 'paired': the aligned blocks, as [position in A's runs, position in B's runs]. */
  pairs: [number, number][];
}

/**
 * The layout of cell B's runs against cell A's, from one experiment. Repetitions pair when each pair ran closer
 * together than either arm's own consecutive repetitions (a block); two or more such pairs make a paired design.
 * Runs with no order recorded, or fewer than two blocks, compare unpaired; an arm whose runs all came before the
 * other's ran as a separate session.
 */
export function cellLayout(a: readonly PlacedRun[], b: readonly PlacedRun[]): CellLayout {
  const at = (runs: readonly PlacedRun[]) => runs.map((r, i) => ({ i, index: r.index, rep: r.repetition ?? 1 }));
  const ra = at(a);
  const rb = at(b);
  if ([...ra, ...rb].some((r) => r.index === undefined)) return { design: 'unpaired', pairs: [] };
  const idx = (r: { index?: number }) => r.index as number;
  // Arm A wholly before arm B (or after): the two are separate sessions whatever their repetitions say.
  const maxA = Math.max(...ra.map(idx));
  const minA = Math.min(...ra.map(idx));
  const maxB = Math.max(...rb.map(idx));
  const minB = Math.min(...rb.map(idx));
  if ((maxA < minB || maxB < minA) && ra.length > 1 && rb.length > 1) return { design: 'separate', pairs: [] };
  const pairs: [number, number][] = [];
  for (const x of ra) {
    const y = rb.find((r) => r.rep === x.rep);
    if (y) pairs.push([x.i, y.i]);
  }
  if (pairs.length < 2) return { design: 'unpaired', pairs: [] };
  const gap = (runs: typeof ra) => {
    const s = runs.map(idx).sort((p, q) => p - q);
    let g = Infinity;
    for (let k = 1; k < s.length; k++) g = Math.min(g, s[k] - s[k - 1]);
    return g;
  };
  const within = Math.max(...pairs.map(([i, j]) => Math.abs(idx(ra[i]) - idx(rb[j]))));
  return within < Math.min(gap(ra), gap(rb)) ? { design: 'paired', pairs } : { design: 'unpaired', pairs: [] };
}
