// The panel's Now view through LabController, as the panel drives it, against the simulator with a login that has
// VIEW SERVER STATE only: with background load it names the hot spinlock and its next step within 3 s of connecting;
// with nothing running it says the server is quiet (never "Loading..."); hidden it stops reading; and its batch
// creates and writes nothing (the SQL it sends, and every database's objects as another connection sees them; the
// simulator does not refuse writes by permission, so the login's own refusal is not what is checked).
import assert from 'node:assert/strict';
import { connect, withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { connectedController, waitFor } from '../helpers/host';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';
import { loadSqlFile } from '../../src/db/sqlFiles';
import { DbSession } from '../../src/db/client';
import { NOW_SQL, NowSampler } from '../../src/engine/now/sampler';
import { NowHistory } from '../../src/shared/nowHistory';
import type { NowView } from '../../src/shared/nowMessages';
import { targetFor } from '../helpers/simTarget';
import { CUSTOM_FORM_DEFAULTS } from '../../src/shared/customForm';

const WATCHER = { name: 'nowreader', password: 'N0w-Reader-Pw1!', permissions: ['VIEW SERVER STATE' as const] };

/** Databases and every database's objects (tempdb's #temp tables among them), read from another connection (sa). */
async function serverObjects(sim: Simulator): Promise<string> {
  const pool = await connect(sim);
  try {
    const dbs = (await pool.request().query('SELECT name, database_id FROM sys.databases')).recordset;
    const out: string[] = dbs.map((d) => `db ${d.name} ${d.database_id}`);
    for (const d of dbs) {
      const p = await connect(sim, 'sa', undefined, d.name);
      try {
        const objs = (await p.request().query('SELECT name, object_id, type FROM sys.objects')).recordset;
        out.push(...objs.map((o) => `obj ${d.name}.${o.name} ${o.type}`));
      } finally {
        await p.close();
      }
    }
    return out.sort().join('\n');
  } finally {
    await pool.close();
  }
}

const views = (ports: ReturnType<typeof fakePorts>): NowView[] => ports.ofType('nowUpdate').map((m) => m.payload.now);

describe('the Now view of the panel (host, simulator)', function () {
  this.timeout(60_000);

  it('names the hot spinlock and its next step within 3 s of connecting, and stops reading while hidden', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 8 }], logins: [WATCHER] }, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'), WATCHER.name, WATCHER.password);
      try {
        assert.equal(ports.lastState().connection.status, 'connected', JSON.stringify(ports.lastState().connection.error));
        const connectedAt = Date.now();
        await waitFor('a Now finding', () => views(ports).some((v) => v.findings.some((f) => f.kind === 'spinlock')), 10_000);
        const took = Date.now() - connectedAt;
        const v = views(ports).find((x) => x.findings.some((f) => f.kind === 'spinlock'))!;
        assert.ok(took <= 3000, `the first finding came ${took} ms after connecting`);
        const first = views(ports).find((x) => x.status !== 'idle')!;
        assert.equal(first.status, 'reading');
        assert.equal(first.headline, 'Reading the server (first figures in about 1 s)');
        console.log(`      first finding ${took} ms after connecting: ${v.findings.map((x) => x.text).join(' | ')}`);
        const f = v.findings.find((x) => x.kind === 'spinlock')!;
        assert.equal(v.spinlocks[0].name, f.name, 'the finding is the top spinlock');
        assert.match(f.text, new RegExp(`^${f.name}: [\\d,]+ spins/s`));
        assert.match(f.evidence, /^Server-wide spinlock over the last \d+ s/);
        assert.deepEqual(
          f.steps.slice(0, 2).map((s) => s.kind),
          ['watch', 'stacks'],
        );
        assert.ok(!JSON.stringify(views(ports)).includes('Loading'));

        // Hidden: no more readings; shown again: reading resumes.
        c.setVisible(false);
        await waitFor('the paused view', () => views(ports).at(-1)?.status === 'paused');
        const n = views(ports).length;
        await new Promise((r) => setTimeout(r, 2500));
        assert.equal(views(ports).length, n, 'no reading while hidden');
        c.setVisible(true);
        await waitFor('a reading after being shown', () => views(ports).length > n && views(ports).at(-1)!.status === 'live');

        await c.receive({ type: 'connectionClose', payload: {} });
        await waitFor('the idle view after a disconnect', () => views(ports).at(-1)?.status === 'idle');
      } finally {
        await c.dispose();
      }
    }));

  it('with nothing running says the server is quiet', () =>
    withSim({ logins: [WATCHER] }, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'), WATCHER.name, WATCHER.password);
      try {
        await waitFor('a live reading', () => views(ports).some((v) => v.status === 'live'), 10_000);
        const v = views(ports).find((x) => x.status === 'live')!;
        assert.deepEqual(
          v.findings.map((f) => f.text),
          [],
        );
        assert.match(v.headline, /^The server is quiet: no spinlock above 100,000 spins\/s, no non-benign wait above 100 ms\/s/);
      } finally {
        await c.dispose();
      }
    }));

  it('pauses while an experiment runs (its reads would count as other work on it), then reads again', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        await waitFor('a live reading', () => views(ports).at(-1)?.status === 'live', 10_000);
        const form = {
          ...CUSTOM_FORM_DEFAULTS,
          sql: 'SELECT 1',
          database: 'master',
          threads: '1',
          stopBy: 'duration' as const,
          duration: '3s',
        };
        const run = c.receive({ type: 'customRun', payload: { form } });
        await waitFor('the paused view', () => views(ports).at(-1)?.status === 'paused', 10_000);
        assert.match(views(ports).at(-1)!.headline, /^Paused while an experiment runs\./);
        await run;
        assert.equal(ports.lastState().active?.status, 'completed', ports.lastState().active?.message);
        await waitFor('a reading after the run', () => views(ports).at(-1)?.status === 'live', 10_000);
      } finally {
        await c.dispose();
      }
    }));

  it('its batch creates and writes nothing: the SQL it sends, and the server as another connection sees it', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }], logins: [WATCHER] }, async (sim) => {
      const batches = loadSqlFile(NOW_SQL).batches;
      assert.equal(batches.length, 1);
      const code = batches[0].replace(/--.*$/gm, '');
      for (const bad of [
        /#/,
        /\bINSERT\b/i,
        /\bUPDATE\b/i,
        /\bDELETE\b/i,
        /\bCREATE\b/i,
        /\bINTO\b/i,
        /\bALTER\b/i,
        /\bDROP\b/i,
        /\bMERGE\b/i,
        /\bEXEC/i,
        /\bTRUNCATE\b/i,
        /\btempdb\b/i,
      ])
        assert.doesNotMatch(code, bad);

      const before = await serverObjects(sim);
      const db = await DbSession.open(targetFor(sim, { user: WATCHER.name, password: WATCHER.password }), { database: 'master' });
      const sent: string[] = [];
      const recorder = { runFile: (id: string, p?: Record<string, unknown>, s?: AbortSignal) => (sent.push(id), db.runFile(id, p, s)) };
      const history = new NowHistory();
      const sampler = new NowSampler(history);
      try {
        const ctx = { login: WATCHER.name, majorVersion: 16, now: () => Date.now() };
        assert.deepEqual(await sampler.step(recorder, ctx), { kind: 'baseline' });
        await new Promise((r) => setTimeout(r, 300));
        assert.deepEqual(await sampler.step(recorder, ctx), { kind: 'delta' });
        assert.ok(history.figures(Date.now()).spinlocks.length > 0, 'the background load moved spinlocks');
      } finally {
        await db.close();
      }
      assert.deepEqual(sent, [NOW_SQL, NOW_SQL], 'only the Now batch was sent');
      assert.equal(await serverObjects(sim), before, 'no object created anywhere, tempdb included');
    }));
});
