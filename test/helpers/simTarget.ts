// How a test names a running simulator: the connection string the CLI and the panel take, the engine's DbTarget parsed
// from it as `spinlab -c` parses it, and the knobs read back over a connection of their own.
import { DbSession } from '../../src/db/client';
import type { DbTarget } from '../../src/db/target';
import { targetFromArgs } from '../../src/cli/commands';
import { readKnobState } from '../../src/engine/knobs';
import type { KnobState } from '../../src/shared/experiment';
import { deployCommand } from '../../src/cli/commands';
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

/**
 * A start that is not the default, for tests that check a restore: disk-insert deployed in `lab`, affinity NUMANODE = 0
 * (CPUs 0-19, to come back as NUMANODE and not as a CPU list) and delayed durability ALLOWED, kept as the simulator's
 * startup state. Returns the knobs as read back.
 */
export async function startFromNode0Allowed(sim: Simulator, lab = 'SpinlockLab'): Promise<KnobState> {
  await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], lab);
  const db = await DbSession.open(targetFor(sim), { database: 'master' });
  try {
    await db.runFile('knobs/affinity-numa', { node_ranges: '0' });
    await db.runFile('knobs/delayed-durability', { db: lab, mode: 'ALLOWED' });
  } finally {
    await db.close();
  }
  sim.model.startupAffinity = sim.model.affinity;
  return knobsNow(sim, lab);
}
