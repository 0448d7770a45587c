// How much a comparison of two single runs can say. One run a side has no interval, so a change is called better or
// worse only when no run-to-run noise makes it (2x either way, as the tune's reasons have it); two runs of the same
// settings differ by the noise alone, and say so. Pure, so every view that compares two runs colours alike.
import type { FigureDirection } from './analysis';

/** Without an interval (one run a side) only a change this large, either way, is called better or worse. */
export const SINGLE_RUN_MOVE = 2;

/** A run as the comparison reads it: where it came from and what it ran. */
export interface PairSide {
  key: string;
  experimentKey: string;
  armId: string;
  threads: number;
}

export interface PairNoise {
  /** Both runs are the same experiment's arm at the same thread count: repetitions of one setting. */
  sameSettings: boolean;
  /** What the colours below may claim, in words, for beside the table. */
  note: string;
}

export function pairNoise(a: PairSide, b: PairSide): PairNoise {
  const sameSettings = a.key !== b.key && a.experimentKey === b.experimentKey && a.armId === b.armId && a.threads === b.threads;
  return sameSettings
    ? {
        sameSettings,
        note: 'Same settings: A and B are repetitions of one arm at the same thread count, so every difference below is the run-to-run noise, not a regression or a gain.',
      }
    : {
        sameSettings,
        note: `One run each: no interval, so only a change of ${SINGLE_RUN_MOVE}x or more either way is coloured better or worse; smaller ones are within what run-to-run noise can do. Repeat the runs for intervals.`,
      };
}

/**
 * 'better', 'worse' or '' (neutral) for a figure's change between the two runs: neutral for the same settings, for
 * the knob the comparison varies (a sweep's thread count is its input) and for a change under SINGLE_RUN_MOVE.
 */
export function changeMeaningOf(
  f: { key: string; changePct: number | null; direction: FigureDirection | string },
  n: PairNoise,
  knobs: readonly string[] = ['threads'],
): string {
  if (n.sameSettings || f.changePct === null || knobs.includes(f.key)) return '';
  const ratio = 1 + f.changePct / 100;
  if (ratio > 1 / SINGLE_RUN_MOVE && ratio < SINGLE_RUN_MOVE) return '';
  return f.changePct > 0 === (f.direction === 'higher-better') ? 'better' : 'worse';
}
