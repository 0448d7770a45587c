// What the panel does to the connected server outside an experiment: deploy and remove a scenario in the lab
// database, and put back what an interrupted experiment's restore journal recorded.
import type { ParamValue } from '../../../shared/experiment';
import { cleanupScenario, deployScenario } from '../../../engine/lab';
import { restoreServer } from '../../../engine/knobs';
import { getScenario } from '../../../engine/scenarios';
import { resolveScenario } from '../../runRequest';
import type { PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature } from '../feature';

export async function deploy(s: PanelContext, scenarioId: string, parameters: Record<string, ParamValue>): Promise<void> {
  const conn = s.requireConnection();
  s.requireIdle('deploy');
  const r = resolveScenario(scenarioId, parameters);
  await s.busy(`deploying ${r.scenarioId}`, async () => {
    await deployScenario(
      conn.target,
      await conn.session(),
      conn.identity,
      conn.labDatabase,
      getScenario(r.scenarioId),
      r.parameters,
      (m) => s.ports.log.info(`deploy ${r.scenarioId}: ${m}`),
      s.signal,
    );
    s.deployed.set(r.scenarioId, JSON.stringify(r.parameters));
    await s.refreshKnobs();
  });
  s.toast(`Deployed ${r.scenarioId} into [${conn.labDatabase}]`);
  s.postState();
}

export async function cleanup(s: PanelContext, scenarioId: string): Promise<void> {
  const conn = s.requireConnection();
  s.requireIdle('cleanup');
  const r = resolveScenario(scenarioId, scenarioId === s.state.selection.scenarioId ? s.state.selection.parameters : {});
  await s.busy(`removing ${r.scenarioId}`, async () => {
    await cleanupScenario(
      conn.target,
      await conn.session(),
      conn.identity,
      conn.labDatabase,
      getScenario(r.scenarioId),
      r.parameters,
      (m) => s.ports.log.info(`cleanup ${r.scenarioId}: ${m}`),
    );
    s.deployed.delete(r.scenarioId);
    await s.refreshKnobs();
  });
  s.toast(`Removed ${r.scenarioId} from [${conn.labDatabase}]`);
  s.postState();
}

/** Puts back what this server's restore journal recorded, as `spinlab restore` does. */
export async function restore(s: PanelContext): Promise<void> {
  const conn = s.requireConnection();
  s.requireIdle('restore');
  const r = await s.busy('restoring server settings', async () => {
    const result = await restoreServer(await conn.session(), conn.identity, conn.target, s.stateDir);
    await s.refreshKnobs();
    s.readJournalAndHistory();
    return result;
  });
  const said =
    r.restored || r.actions.length
      ? r.actions.length
        ? r.actions.join('; ')
        : 'the server already matched the journal'
      : 'nothing to restore: no journal for this server';
  s.ports.log.info(`restore: ${said}`);
  s.toast(r.restored || r.actions.length ? `Restored: ${said}` : `Nothing to restore for ${conn.identity.serverName}`);
  s.postState();
}

export class ServerFeature implements PanelFeature {
  register(r: FeatureRegistry): void {
    const s = r.panel;
    r.on('scenarioDeploy', (p) => deploy(s, p.scenarioId, p.parameters));
    r.on('scenarioCleanup', (p) => cleanup(s, p.scenarioId));
    r.on('serverRestore', () => restore(s));
  }
}
