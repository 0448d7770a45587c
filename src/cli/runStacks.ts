// spinlab run --stacks NAME: capture the call stacks behind one spinlock's backoffs during the last run of the
// experiment (the most sessions of a sweep, where contention is highest), and keep them with that run. The event
// session costs the server some CPU while it runs, so the run's figures include that cost: the capture's notes say so.
import type { ExperimentProgress } from '../engine/experiment';
import type { DbTarget } from '../db/target';
import type { Experiment } from '../shared/experiment';
import type { StackCapture } from '../shared/stacks';
import { parseDuration } from '../shared/params';
import { defaultStateDir } from '../engine/journal';
import { addStacksToExperiment, captureStacksDetailed, isSpinlockName } from '../engine/stacks';
import { UsageError } from './commands';
import { stacksText } from './stacks';

export interface RunStacksPlan {
  spinlock: string;
  durationMs: number;
}

/** The --stacks options, checked before anything runs. */
export function runStacksPlan(spinlock: string | undefined, duration: string | undefined): RunStacksPlan | null {
  if (spinlock === undefined) {
    if (duration !== undefined) throw new UsageError('--stacks-duration goes with --stacks NAME (the spinlock to capture).');
    return null;
  }
  if (!isSpinlockName(spinlock)) throw new UsageError(`--stacks takes a spinlock name such as LOGCACHE_ACCESS, not "${spinlock}".`);
  const durationMs = parseDuration(duration ?? '10s');
  if (durationMs < 1000) throw new UsageError(`--stacks-duration must be 1s or more, not ${duration}.`);
  return { spinlock, durationMs };
}

/**
 * Watches the experiment's progress, starts the capture when the last run's measurement starts, and once the
 * experiment has ended keeps the capture with that run (in the experiment record and its experiment.json).
 */
export class RunStacks {
  private capture: Promise<{ run: number; capture: StackCapture } | null> | null = null;
  private readonly stop = new AbortController();

  constructor(
    private readonly plan: RunStacksPlan,
    private readonly target: DbTarget,
    private readonly lastRun: number,
    private readonly err: (s: string) => void,
  ) {}

  /** Pass every progress report here; `signal` is the run's own cancel. */
  progress(p: ExperimentProgress, signal: AbortSignal): void {
    if (this.capture || p.kind !== 'run-start' || p.run !== this.lastRun) return;
    const durationMs = p.measuredMs ? Math.min(this.plan.durationMs, Math.max(1000, p.measuredMs - 1000)) : this.plan.durationMs;
    // The run's cancel ends the capture too (AbortSignal.any is not in Node 18).
    signal.addEventListener('abort', () => this.stop.abort(), { once: true });
    this.err(`stacks: capturing ${this.plan.spinlock} during run ${p.run + 1} for ${(durationMs / 1000).toFixed(0)} s\n`);
    this.capture = captureStacksDetailed(this.target, {
      spinlock: this.plan.spinlock,
      durationMs,
      top: 10,
      signal: this.stop.signal,
      stateDir: process.env.SPINLAB_STATE_DIR ?? defaultStateDir(),
      onProgress: (q) => {
        if (q.kind === 'status') this.err(`stacks: ${q.message}\n`);
      },
    }).then(
      (d) => ({ run: p.run, capture: d.capture }),
      (e: Error) => {
        this.err(`stacks: the capture of ${this.plan.spinlock} failed: ${e.message}\n`);
        return null;
      },
    );
  }

  /**
   * After the experiment: a capture still going ends now (it keeps what it counted), and is saved with its run (in
   * `file`, and in `experiment` for the notebook).
   * Returns the text to print, or '' when nothing was captured.
   */
  async finish(experiment: Experiment, file: string | null): Promise<string> {
    if (!this.capture) {
      this.err(`stacks: no capture: run ${this.lastRun + 1} never started measuring\n`);
      return '';
    }
    this.stop.abort();
    const got = await this.capture;
    if (!got) return '';
    const c: StackCapture = {
      ...got.capture,
      notes: [
        ...got.capture.notes,
        `Captured during run ${got.run + 1} of the experiment: that run's figures include the event session's cost.`,
      ],
    };
    const run = experiment.runs.find((r) => r.index === got.run);
    if (run) run.stacks = [...(run.stacks ?? []), c];
    if (file) addStacksToExperiment(file, c, got.run); // null: the record could not be written (the error says so)
    return `\n${stacksText(c)}`;
  }
}
