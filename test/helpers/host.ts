// Helpers for tests that drive LabController (the panel's host logic) against the simulator with fake ports.
import { SIM_PASSWORD } from './simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { LabController } from '../../src/host/labController';
import { defaultProfile } from '../../src/host/profiles';
import type { ConnectionProfile } from '../../src/shared/protocol';
import type { FakePorts } from '../unit/host/fakePorts';

/** The connection form filled in for the simulator. */
export function simProfile(sim: Simulator, user = 'sa'): ConnectionProfile {
  return defaultProfile({ id: `sim-${user}`, label: 'simulator', server: '127.0.0.1', port: sim.port, user, encrypt: 'optional', trustServerCertificate: true });
}

/** A controller that pressed Connect for the simulator (the caller checks how that went). */
export async function connectedController(sim: Simulator, ports: FakePorts, stateDir: string, user = 'sa', password = SIM_PASSWORD): Promise<LabController> {
  const c = new LabController(ports, { editor: 'vscode', stateDir });
  await c.start();
  await c.receive({ type: 'connectionOpen', payload: { profile: simProfile(sim, user), password, savePassword: false } });
  return c;
}

export { knobsNow } from './simTarget';

export async function waitFor(what: string, cond: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
