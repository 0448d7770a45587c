// How a test names a running simulator: the connection string the CLI and the panel take, the engine's DbTarget parsed
// from it as `spinlab -c` parses it, and the knobs read back over a connection of their own.
import { DbSession } from '../../src/db/client';
import type { DbTarget } from '../../src/db/target';
import { targetFromArgs } from '../../src/cli/commands';
import { readKnobState } from '../../src/engine/knobs';
import type { KnobState } from '../../src/shared/experiment';
import type { Simulator } from '../../tools/sim/simulator';
import { SIM_PASSWORD } from './simClient';

export interface SimLogin {
  user?: string;
  password?: string;
  database?: string;
  /** Seconds; for tests that stop the server and want the reconnect to give up soon. */
  connectTimeoutS?: number;
}

/** The connection string for the simulator (sa unless told otherwise). */
export function connString(sim: Pick<Simulator, 'port'>, login: SimLogin = {}): string {
  const { user = 'sa', password = SIM_PASSWORD, database, connectTimeoutS } = login;
  return (
    `Server=127.0.0.1,${sim.port};User ID=${user};Password=${password};Encrypt=false` +
    (database ? `;Database=${database}` : '') +
    (connectTimeoutS ? `;Connect Timeout=${connectTimeoutS}` : '')
  );
}

/** The engine's target for the simulator, parsed from connString() by the CLI's own parser. */
export function targetFor(sim: Pick<Simulator, 'port'>, login: SimLogin = {}): DbTarget {
  return targetFromArgs(connString(sim, login), {});
}

/** The server's affinity and the lab database's delayed durability, read back over a connection of its own. */
export async function knobsNow(sim: Simulator, lab = 'SpinlockLab'): Promise<KnobState> {
  const admin = await DbSession.open(targetFor(sim, { connectTimeoutS: 5 }), { database: 'master' });
  try {
    return await readKnobState(admin, lab);
  } finally {
    await admin.close();
  }
}
