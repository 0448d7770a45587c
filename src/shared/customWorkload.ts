// What a custom workload is, as an experiment records it (apart from experiment.ts, which re-exports it).

/** A custom workload: the user's own T-SQL, run in the database they name; nothing is deployed there. */
export interface CustomWorkload {
  /** Each call runs one of these: the next in the session's own rotation, or the next in order (perIteration). */
  statements: { source: string; text: string }[];
  database: string;
  /**
   * Where parameter rows come from. A CSV file small enough travels as its text (csvText), so a re-run elsewhere does
   * not need the author's path; a larger one is found by nearNotebook, its path relative to the notebook it was saved in.
   */
  params: {
    kind: 'csv' | 'query';
    from: string;
    columns: { name: string; type: string }[];
    rows: number;
    order: 'round-robin' | 'random';
    scope: 'session' | 'shared';
    csvText?: string;
    nearNotebook?: string;
  } | null;
  /** Iterations per session in the measured phase (see perIteration); null when the phase runs for a duration. */
  iterations: number | null;
  /**
   * What one iteration runs: 'one' statement (each session taking them in turn from its own starting point: the
   * default, and what a record without the field ran), or 'all' of them in order from the first, as ostress runs
   * its input file each iteration.
   */
  perIteration?: 'one' | 'all';
  thinkTimeMs: number;
  queryTimeoutMs: number | null;
  stopOnError: boolean;
  /** Why the workload may write to the database, or null when every statement only reads. */
  writes: string | null;
}
