// Helpers for tests that drive LabController (the panel's host logic) against the simulator with fake ports.
import { SIM_PASSWORD } from './simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { LabController } from '../../src/host/labController';
import { defaultProfile } from '../../src/host/profiles';
import type { ConnectionProfile } from '../../src/shared/protocol';
import type { FakePorts } from '../unit/host/fakePorts';
import type { PanelRequestMap } from '../../src/shared/panelRequests';
import type { Answer, ParamsOf, ResultOf } from '../../src/shared/requests';

/** The connection form filled in for the simulator. */
export function simProfile(sim: Simulator, user = 'sa'): ConnectionProfile {
  return defaultProfile({
    id: `sim-${user}`,
    label: 'simulator',
    server: '127.0.0.1',
    port: sim.port,
    user,
    encrypt: 'optional',
    trustServerCertificate: true,
  });
}

/** A controller that pressed Connect for the simulator (the caller checks how that went). */
export async function connectedController(
  sim: Simulator,
  ports: FakePorts,
  stateDir: string,
  user = 'sa',
  password = SIM_PASSWORD,
): Promise<LabController> {
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

let asked = 0;

/** Asks the controller a question as the webview does; returns the host's answer (the `response` it posted). */
export async function ask<K extends keyof PanelRequestMap>(
  c: LabController,
  ports: FakePorts,
  method: K,
  params: ParamsOf<PanelRequestMap[K]>,
): Promise<Answer<ResultOf<PanelRequestMap[K]>>> {
  const id = ++asked;
  await c.receive({ type: 'request', id, method, params });
  const a = ports.ofType('response').find((m) => m.payload.id === id);
  if (!a) throw new Error(`the host posted no answer to ${method} (request ${id})`);
  return a.payload as Answer<ResultOf<PanelRequestMap[K]>>;
}

/** The result of an answer that must have one. */
export function resultOf<R>(a: Answer<R>): R {
  if (!a.ok) throw new Error(`expected a result; the host answered with the failure: ${a.error.message}`);
  return a.result;
}
