// How an experiment's runs were laid out: planned before the first run (engine/planOrder.ts), and for --repeat auto
// where each group stopped. Part of experiment.json (experiment.ts re-exports it).

/** Runs per cell (arm and thread count), planned before the first run; order: engine/planOrder.ts (A B, B A, ...). */
export interface ExperimentDesign {
  repeat: number;
  /** adaptive: a tune, each trial chosen from the trials before it (the sequence grows as they run). */
  order: 'alternating' | 'adaptive';
  /** The planned runs, each `${armId}@${threads}#${repetition}`; the runs that ran are a prefix of it. */
  sequence: string[];
  /**
   * The arms that took turns, as lists of arm ids: arms in one list were deployed together and alternated; arms in
   * different lists ran one list after the other (their deploys replace each other in the lab database), so a
   * comparison between them carries the position effect. Absent in older records and tunes.
   */
  interleaved?: string[][];
  /**
   * --repeat auto: whole repetitions added until every --assert gate was decided (a group-sequential design; `repeat`
   * is then the repetitions that ran). Absent: the repetitions were fixed in advance.
   */
  sequential?: SequentialRecord;
}

/** How a group-sequential experiment stopped, for each group of arms that share a deploy (they repeat together). */
export interface SequentialRecord {
  /** The most repetitions a cell could take (--max-repeat). */
  maxRepeat: number;
  /** The first repetition a figure's gate was looked at. */
  firstLook: number;
  spending: 'lan-demets-obrien-fleming';
  stops: { arms: string[]; repetitions: number; reason: 'decided' | 'max' }[];
}
