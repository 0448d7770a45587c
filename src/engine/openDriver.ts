// The load driver a run opens (runOne.ts): on client worker threads for the client loop and custom workloads, else on
// this event loop; and a phase failure as the run's record keeps it.
import type { DbTarget } from '../db/target';
import type { CustomWorkload, ExperimentEvent, LoadSettings, ParamValue } from '../shared/experiment';
import type { ScenarioManifest } from './scenarios';
import type { ParamTable } from './custom/params';
import { WorkloadSessions } from './load';
import { CustomSessions } from './custom/sessions';
import type { LoadDriver, PhaseFailure } from './loadDriver';
import { ClientWorkerPool, clientWorkerCount, workerEntry } from './workers/clientPool';

/** What opening a run's sessions reads of the run (runOne.ts RunContext has it all). */
export interface DriverContext {
  target: DbTarget;
  labDatabase: string;
  threads: number;
  load: Pick<LoadSettings, 'mode' | 'clientWorkers' | 'clientPath'>;
  scenario: ScenarioManifest;
  arm: { parameters: Record<string, ParamValue> };
  custom: { workload: CustomWorkload; table: ParamTable | null } | null;
}

/**
 * The run's sessions: on client worker threads for the client loop and custom workloads (one per client core unless
 * the load says otherwise), else on this event loop (the server loop's client only waits for one EXEC per session).
 */
export async function openDriver(
  c: DriverContext,
  failures: PhaseFailure[],
  note: (level: ExperimentEvent['level'], m: string) => void,
): Promise<LoadDriver> {
  const workers = c.custom || c.load.mode === 'client-loop' ? clientWorkerCount(c.load.clientWorkers, c.threads) : 0;
  const entry = workers > 0 ? workerEntry() : null;
  if (workers > 0 && !entry) note('info', 'this build has no client worker file (clientWorker.js); the sessions share one event loop');
  if (entry) {
    note('info', `the client's sessions run on ${workers} worker thread${workers > 1 ? 's' : ''}`);
    const plan = c.custom
      ? { kind: 'custom' as const, target: c.target, workload: c.custom.workload, table: c.custom.table }
      : {
          kind: 'builtin' as const,
          target: c.target,
          labDatabase: c.labDatabase,
          scenario: c.scenario,
          params: c.arm.parameters,
          clientPath: c.load.clientPath,
        };
    return ClientWorkerPool.open(plan, c.threads, workers, failures, entry);
  }
  return c.custom
    ? CustomSessions.open(c.target, c.custom.workload, c.custom.table, c.threads, failures)
    : WorkloadSessions.open(c.target, c.labDatabase, c.threads, c.scenario, c.arm.parameters, failures, undefined, c.load.clientPath);
}
