// The shapes of the workload's own share of the server's work (computed in ownShare.ts), apart so the records that
// carry them import no code.

/** What the run's own workload sessions did in one tick (absent in older records and in a watch). */
export interface OwnActivity {
  /** CPU ms of the workload's sessions in the interval (completed requests and the ones still running). */
  cpuMs: number;
  /** Wait ms of the workload's sessions in the interval, benign waits excluded. */
  waitMs: number;
  /** Other sessions' user requests running at the end of the interval (neither the workload's nor the monitor's). */
  otherRequests: number;
}

/** The cumulative reading a tick's OwnActivity is the difference of. */
export interface OwnReading {
  cpuMs: number;
  /** Wait ms per wait type of the workload's sessions so far. */
  waits: Record<string, number>;
  otherRequests: number;
}

/** A run's share of the server's work over its ticks. */
export interface OwnShare {
  /**
   * The workload's CPU over the server's (online user schedulers) less Spinlock Lab's own monitor, 0..1; null when the
   * server used next to none.
   */
  cpu: number | null;
  /** The workload's waits over the server-wide waits (benign excluded), 0..1; null when the server waited next to none. */
  waits: number | null;
  /** Other sessions' requests running at a tick, on average. */
  otherRequests: number;
  /** CPU ms per second the other sessions (and the server's own user-scheduler work) used; the monitor is not among them. */
  othersCpuMsPerSec: number;
  /** Ticks that carried the sessions' own figures, and the run's ticks. */
  ticks: number;
  of: number;
}
