// The panel's Watch mode through LabController, as the panel drives it (messages through receive), against the
// simulator with its own background workload: ticks posted live, a mark saved, the watch saved as a notebook, a
// reloaded webview given the recent ticks, and the server unchanged as another connection sees it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect, withSim } from '../helpers/sim-client';
import type { Simulator } from '../../tools/sim/simulator';
import { connectedController, waitFor } from '../helpers/host';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';
import type { WatchRecord } from '../../src/shared/watch';

const WATCHER = { name: 'watcher', password: 'W4tcher-Pw1!', permissions: ['VIEW SERVER STATE' as const] };

/** Databases and every database's objects, read from another connection (sa). */
async function serverObjects(sim: Simulator): Promise<string> {
  const pool = await connect(sim);
  try {
    const dbs = (await pool.request().query('SELECT name, database_id FROM sys.databases')).recordset;
    const out: string[] = dbs.map((d) => `db ${d.name} ${d.database_id}`);
    for (const d of dbs) {
      const p = await connect(sim, 'sa', undefined, d.name);
      try {
        out.push(...(await p.request().query('SELECT name, object_id, type FROM sys.objects')).recordset.map((o) => `obj ${d.name}.${o.name} ${o.type}`));
      } finally {
        await p.close();
      }
    }
    return out.sort().join('\n');
  } finally {
    await pool.close();
  }
}

describe('the Watch mode of the panel (host)', function () {
  this.timeout(60_000);

  it('starts a watch of the connected server, posts its ticks, saves a mark and a notebook, and changes nothing on the server', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 8 }], logins: [WATCHER] }, async (sim) => {
      const before = await serverObjects(sim);
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'), WATCHER.name, WATCHER.password);
      try {
        assert.equal(ports.lastState().connection.status, 'connected', JSON.stringify(ports.lastState().connection.error));
        await c.receive({ type: 'watchStart', payload: { intervalMs: 250, showBenign: false } });
        await waitFor('three watch ticks', () => ports.ofType('watchTick').length >= 3);
        assert.equal(ports.lastState().watch?.status, 'running', ports.lastState().watch?.message);
        const said = ports.ofType('state').map((m) => m.payload.state.watch?.message ?? '');
        assert.ok(said.some((m) => /every 250 ms until Stop/.test(m)) && !said.some((m) => /Ctrl\+C/.test(m)), 'the panel is told to Stop, not Ctrl+C');
        const ticks = ports.ofType('watchTick').map((m) => m.payload.tick);
        assert.ok(ticks.some((t) => t.all.spins > 0 && t.all.waitMs > 0 && t.all.latchMs > 0), 'the background workload moves spinlocks, waits and latches');

        await c.receive({ type: 'watchMark', payload: { name: 'index rebuilt' } });
        await waitFor('the mark in the state', () => (ports.lastState().watch?.marks.length ?? 0) === 1);
        assert.equal(ports.lastState().watch!.marks[0].name, 'index rebuilt');

        await c.receive({ type: 'ready', payload: {} });
        assert.ok(ports.lastState().watch!.recent.length >= 3, 'a reloaded webview gets the recent ticks');
        await c.receive({ type: 'watchBenign', payload: { show: true } });
        assert.equal(ports.lastState().watch!.recent.length, 0, 'an ordinary snapshot leaves the ticks out');
        assert.equal(ports.lastState().watch!.showBenign, true);

        await c.receive({ type: 'watchStop', payload: {} });
        await waitFor('the watch to end', () => ports.lastState().watch?.status === 'cancelled');
        const w = ports.lastState().watch!;
        assert.match(w.id, /-watch$/);
        assert.ok(ports.ofType('watchTick').every((m) => m.payload.watchId === w.id));
        assert.equal(ports.lastState().lastError, null, JSON.stringify(ports.lastState().lastError));

        const nb = path.join(tmpDir('nb'), 'watch.ipynb');
        ports.saveFileAnswer = nb;
        await c.receive({ type: 'watchSaveNotebook', payload: {} });
        assert.deepEqual(ports.opened, [nb]);
        const cells = JSON.parse(fs.readFileSync(nb, 'utf8')).cells as { source: string | string[] }[];
        assert.match(cells.map((x) => [x.source].flat().join('')).join('\n'), /index rebuilt/, 'the notebook shows the mark');

        const dir = path.join(ports.settingsValue.resultsFolder, 'watches');
        const [folder] = fs.readdirSync(dir);
        const record = JSON.parse(fs.readFileSync(path.join(dir, folder, 'experiment.json'), 'utf8')) as WatchRecord;
        assert.equal(record.kind, 'watch');
        assert.deepEqual(record.marks.map((m) => m.name), ['index rebuilt']);
        const lines = fs.readFileSync(path.join(dir, folder, 'samples.jsonl'), 'utf8').trim().split('\n');
        assert.equal(lines.length, record.ticks);
      } finally {
        await c.dispose();
      }
      assert.equal(await serverObjects(sim), before, 'the watch created nothing on the server');
    }));

  it('refuses a mark when no watch runs, with what to do', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        await c.receive({ type: 'watchMark', payload: { name: 'x' } });
        assert.match(ports.lastState().lastError?.message ?? '', /No watch is running/);
        await c.receive({ type: 'watchMark', payload: { name: '  ' } });
        assert.match(ports.lastState().lastError?.message ?? '', /a mark needs a name/);
      } finally {
        await c.dispose();
      }
    }));
});
