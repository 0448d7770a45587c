// What a tune checks on the server before anything changes: the objective's spinlock by the server's name, nobody
// else working (unless the server is shared), and a budget that holds the search's space. runTune checks these as it
// starts; the panel asks for them before its confirmation, so a refusal never follows the question "may I change
// the server's settings?". Read-only (VIEW SERVER STATE).
import type { DbSession } from '../../db/client';
import type { ParamValue } from '../../shared/experiment';
import type { TuneConfig, TuneConstraint, TuneObjective, TuneSpaceRequest } from '../../shared/tune';
import { readKnobState } from '../knobs';
import type { ScenarioManifest } from '../scenarios';
import { readIdentity, readTopology } from '../server';
import { isBusy, otherActivity, type OtherActivity } from './activity';
import { checkObjective } from './names';
import { belowMinimum, minimumBudget } from './plan';
import { TuneRefusal } from './refusal';
import { buildSpace } from './space';

/** What a trial costs beyond its measured time and warm-up before the search has timed one (connect, knobs, samples). */
export const TRIAL_OVERHEAD_MS = 1500;

/** Refuses a server others are working on, unless the user said it is shared. */
export function checkQuiet(activity: OtherActivity | null, sharedServer: boolean): void {
  if (!isBusy(activity) || sharedServer) return;
  const a = activity!;
  throw new TuneRefusal(
    { kind: 'busy-server', sessions: a.sessions, batchRequestsPerSec: a.batchRequestsPerSec },
    `Other sessions are working on this server (${a.sessions} running a request, ${Math.round(a.batchRequestsPerSec)} batch requests/s besides this check). ` +
      'A tune changes server-wide CPU affinity, which every session on the server feels, and their work would blur the comparison.',
    'run it when the server is quiet, or add --shared-server to run anyway: it warns and widens its intervals.',
    'server',
  );
}

/** Refuses a budget below what screening every configuration once and the confirmation's pairs take. */
export function checkBudget(configs: readonly TuneConfig[], budgetMs: number, perTrialMs: number, sharedServer: boolean): void {
  const min = minimumBudget(configs.length, perTrialMs + TRIAL_OVERHEAD_MS, sharedServer);
  if (budgetMs >= min.ms) return;
  const b = belowMinimum(budgetMs, min, sharedServer);
  throw new TuneRefusal({ kind: 'budget-too-small', budgetMs, minimum: min, sharedServer }, b.message, b.fix);
}

export interface PreflightInput {
  labDatabase: string;
  scenario: ScenarioManifest | null;
  parameters: Record<string, ParamValue>;
  objective: TuneObjective;
  constraints: TuneConstraint[];
  request: TuneSpaceRequest;
  budgetMs: number;
  /** A trial's measured time plus its warm-up. */
  perTrialMs: number;
  sharedServer: boolean;
}

/** Every refusal the server's state gives this tune (not the first only), each with its reason. */
export async function tunePreflight(db: DbSession, input: PreflightInput): Promise<TuneRefusal[]> {
  const refusals: TuneRefusal[] = [];
  const attempt = async (f: () => unknown) => {
    try {
      await f();
    } catch (e) {
      if (!(e instanceof TuneRefusal)) throw e;
      refusals.push(e);
    }
  };
  await attempt(() => checkObjective(db, input.objective));
  const identity = await readIdentity(db);
  const { topology } = await readTopology(db, identity);
  const knobs = await readKnobState(db, input.labDatabase);
  const configs = buildSpace(
    {
      topology,
      scenario: input.scenario,
      parameters: input.parameters,
      request: input.request,
      constraints: input.constraints,
      currentDelayedDurability: knobs.delayedDurability,
    },
    [],
  );
  await attempt(() => checkBudget(configs, input.budgetMs, input.perTrialMs, input.sharedServer));
  const activity = await otherActivity(db);
  await attempt(() => checkQuiet(activity, input.sharedServer));
  return refusals;
}
