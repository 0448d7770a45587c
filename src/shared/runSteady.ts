// Part of the experiment record (experiment.ts): where a run's steady state began (shared/repeats/steady.ts).

/** The steady-state truncation of one run: what was dropped after the fixed warm-up, and by which rule. */
export interface RunSteady {
  /** mser: MSER over the ticks, at most a third of them, kept when a permutation test puts it under 1%. */
  rule: 'mser';
  /** The fixed warm-up before the measured ticks (the floor), ms. */
  warmupMs: number;
  /** Index in the timeline of the first tick of the steady window (0: nothing dropped). */
  fromTick: number;
  /** Ticks dropped after the warm-up (the timeline's first `droppedTicks`), their length (server clock) and rows. */
  droppedTicks: number;
  droppedMs: number;
  droppedRows: number;
  /** The permutation test's p-value; null when nothing was tested (too few ticks, or MSER kept every tick). */
  p: number | null;
  /** The drop reached the cap: the run had not settled within a third of its ticks. */
  capped: boolean;
}
