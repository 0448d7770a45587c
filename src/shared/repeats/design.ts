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
  /** The A/B block the engine ran it in (planOrder.ts), where recorded. */
  block?: number;
}

/** From recorded blocks: the pairs of runs sharing one, or separate when the two never shared any. */
function byBlocks(a: readonly PlacedRun[], b: readonly PlacedRun[]): CellLayout {
  const pairs: [number, number][] = [];
  a.forEach((x, i) => {
    const j = b.findIndex((y) => y.block === x.block);
    if (j >= 0) pairs.push([i, j]);
  });
  if (pairs.length >= 2) return { design: 'paired', pairs };
  return pairs.length === 0 && a.length > 1 && b.length > 1 ? { design: 'separate', pairs: [] } : { design: 'unpaired', pairs: [] };
}

export interface CellLayout {
  design: Design;
  /** For 'paired': the aligned blocks, as [position in A's runs, position in B's runs]. */
  pairs: [number, number][];
}

/**
 * The layout of cell B's runs against cell A's, from one experiment. Repetition k of each pairs when no other run of
 * either cell ran between the two (a block); two or more blocks, every repetition so, make a paired design.
 * Where the engine recorded each run's block, those decide. Runs with no order recorded, or fewer than two blocks,
 * compare unpaired; an arm whose runs all came before the other's ran as a separate session.
 */
export function cellLayout(a: readonly PlacedRun[], b: readonly PlacedRun[]): CellLayout {
  if ([...a, ...b].every((r) => r.block !== undefined)) return byBlocks(a, b);
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
  // A block: no other run of either cell ran between the pair's two runs (A B, then B A: A's repetitions 2 and 3 may
  // be neighbours, but each pairs with the B beside it).
  const all = [...ra, ...rb].map(idx);
  const block = ([i, j]: [number, number]) => {
    const lo = Math.min(idx(ra[i]), idx(rb[j]));
    const hi = Math.max(idx(ra[i]), idx(rb[j]));
    return !all.some((x) => x > lo && x < hi);
  };
  return pairs.every(block) ? { design: 'paired', pairs } : { design: 'unpaired', pairs: [] };
}
