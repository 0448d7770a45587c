// The panel's running experiment (a run, a preset, a custom workload or a notebook's re-run): one at a time. Whoever
// starts it holds the finish function; everyone else may only ask whether one runs, stop it, or wait for it.

export class RunningExperiment {
  private current: { ac: AbortController; done: Promise<void> } | null = null;

  get isRunning(): boolean {
    return this.current !== null;
  }

  /** Marks an experiment as running until the returned function is called; `ac` is what Stop and the panel's close abort. */
  begin(ac: AbortController): () => void {
    if (this.current) throw new Error('an experiment is already running');
    let resolveDone!: () => void;
    const entry = {
      ac,
      done: new Promise<void>((r) => {
        resolveDone = r;
      }),
    };
    this.current = entry;
    return () => {
      if (this.current === entry) this.current = null;
      resolveDone();
    };
  }

  /** Aborts the running experiment (the engine puts its knobs back); false when none runs. */
  stop(): boolean {
    if (!this.current) return false;
    this.current.ac.abort();
    return true;
  }

  /** Resolves when the running experiment has ended; null when none runs. */
  finished(): Promise<void> | null {
    return this.current?.done ?? null;
  }
}
