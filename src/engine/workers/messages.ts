// What the main thread and a client worker (clientWorker.ts) say to each other. Everything here crosses a thread by
// structured clone, so it is plain data: no class instances, functions or signals.
import type { DbTarget } from '../../db/target';
import type { CustomWorkload, ParamValue } from '../../shared/experiment';
import type { ParamTable } from '../custom/params';
import type { CustomLoop } from '../custom/sessions';
import type { RecorderState } from '../histogram';
import type { ClientPath, PhaseFailure, PhaseResult, PhaseSpec } from '../loadDriver';
import type { ScenarioManifest } from '../scenarios';

/** What the worker's sessions run: the built-in scenario's client loop, or a custom workload. */
export type WorkerPlan =
  | {
      kind: 'builtin';
      target: DbTarget;
      labDatabase: string;
      scenario: ScenarioManifest;
      params: Record<string, ParamValue>;
      clientPath?: ClientPath;
    }
  | { kind: 'custom'; target: DbTarget; workload: CustomWorkload; table: ParamTable | null };

export interface WorkerData {
  plan: WorkerPlan;
  /** This worker's index and the number of workers (a shared row order is split by it). */
  index: number;
  of: number;
  /** Sessions before this worker's, and how many it opens. */
  first: number;
  sessions: number;
  /** One Float64 slot per worker: the measured calls completed so far, for the live ticks (written by its worker only). */
  liveCalls: SharedArrayBuffer;
}

export type ToWorker =
  | { type: 'phase'; spec: Omit<PhaseSpec, 'latency'> }
  /** The user cancelled: in-flight calls get ATTENTION. */
  | { type: 'cancel' }
  /** Another worker's session stopped on error (--stop-on-error): end the phase here too. */
  | { type: 'halt' }
  | { type: 'close' };

export type FromWorker =
  | { type: 'opened'; ids: number[]; count: number; failures: PhaseFailure[] }
  | { type: 'open-failed'; message: string }
  | { type: 'phase-done'; result: PhaseResult; latency: RecorderState | null; custom: Omit<CustomLoop, 'result'> | null }
  /** The phase could not run (as runPhase throwing on one event loop): the run fails with this message. */
  | { type: 'phase-failed'; message: string }
  /** A session stopped on error: the main thread halts the other workers. */
  | { type: 'stopped' }
  | { type: 'closed' };
