// What a custom workload is, as an experiment records it (apart from experiment.ts, which re-exports it).

/** A custom workload: the user's own T-SQL, run in the database they name; nothing is deployed there. */
export interface CustomWorkload {
  /** Each call runs the next of these in turn (the session's own rotation). */
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
  /** Calls per session in the measured phase; null when the phase runs for a duration. */
  iterations: number | null;
  thinkTimeMs: number;
  queryTimeoutMs: number | null;
  stopOnError: boolean;
  /** Why the workload may write to the database, or null when every statement only reads. */
  writes: string | null;
}
