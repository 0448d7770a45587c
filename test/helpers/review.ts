// Small helpers for the review-fix and check tests.
import type { DbTarget } from '../../src/db/client';
import { targetFromArgs } from '../../src/cli/commands';
import type { Simulator } from '../../tools/sim/simulator';
import { SIM_PASSWORD } from './simClient';

export function simTarget(sim: Simulator, user = 'sa', password = SIM_PASSWORD): DbTarget {
  return targetFromArgs(`Server=127.0.0.1,${sim.port};User ID=${user};Password=${password};Encrypt=false`, {});
}
