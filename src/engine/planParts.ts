// Parts of running a plan that need no state of their own: the knobs an arm asks for, what decides a deploy, whose
// journal it is.
import type { KnobRequest, LoadSettings, ParamValue } from '../shared/experiment';
import type { Topology } from '../shared/types';
import { parseAffinity } from '../shared/affinity';
import { deploySteps, needsXtp, type ScenarioManifest } from './scenarios';
import { fileParams } from './lab';
import { readJournal } from './journal';
import type { KnobContext } from './knobs';

/** One arm of a plan: what its runs run, and at which thread counts. */
export interface PlanArm {
  id: string;
  label: string;
  scenarioId: string;
  /** Already validated against the manifest (params.ts). */
  parameters: Record<string, ParamValue>;
  /** As the user wrote them; a knob left out is the server's own setting from before the experiment. */
  knobs: { delayedDurability?: 'DISABLED' | 'ALLOWED' | 'FORCED'; affinity?: string };
  mode: LoadSettings['mode'];
  threads: number[];
}

/** The knobs an arm asks for, resolved against the topology (a bad affinity fails here, before anything changes). */
export function knobRequestOf(arm: PlanArm, topology: Topology): KnobRequest {
  const req: KnobRequest = {};
  if (arm.knobs.delayedDurability) req.delayedDurability = arm.knobs.delayedDurability;
  if (arm.knobs.affinity) {
    const a = parseAffinity(arm.knobs.affinity, topology);
    req.affinity = { spec: a.spec, cpus: a.cpus };
  }
  return req;
}

/** What decides a deploy: the scenario, the files that run, the values they take, In-Memory OLTP. */
export function deployKey(scenario: ScenarioManifest, values: Record<string, ParamValue>): string {
  const steps = deploySteps(scenario, values);
  return JSON.stringify([scenario.id, steps, steps.map((id) => fileParams(id, values)), needsXtp(scenario, values)]);
}

/** The server's journal was written by this experiment (applyKnobs records its process and output folder). */
export function ownJournal(stateDir: string, ctx: KnobContext): boolean {
  try {
    const j = readJournal(stateDir, ctx.serverKey);
    return !!j && j.pid === process.pid && j.experimentDir === ctx.experimentDir;
  } catch {
    return true; // unreadable: restoreFromJournal reports it
  }
}
