// The simulator at a busy server's size: thousands of --background sessions served in sys.dm_exec_sessions and
// sys.dm_exec_requests, an equi-join of those views answered as a hash join (a nested loop over 1,100 x 1,100 rows is
// past what the executor materialises), and the background sessions started and stopped with one rate refresh each
// way (one per session took minutes at 2,048).
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { connect, withSim } from '../helpers/simClient';
import { WorkloadRunner } from '../../tools/sim/model/workloads';
import { ManualClock } from '../../tools/sim/model/clock';
import type { WorkloadProfile } from '../../tools/sim/model/contention';

const JOIN = `SELECT r.session_id, s.is_user_process FROM sys.dm_exec_requests AS r
JOIN sys.dm_exec_sessions AS s ON s.session_id = r.session_id`;

describe('simulator: a server with thousands of sessions', function () {
  this.timeout(120_000);

  it('serves every background session and request, and joins the two views on session_id by hash', async () => {
    await withSim({ background: [{ scenario: 'disk-insert', sessions: 1100 }] }, async (sim) => {
      const pool = await connect(sim);
      try {
        const counts = await pool
          .request()
          .query(
            'SELECT (SELECT COUNT(*) FROM sys.dm_exec_sessions WHERE is_user_process = 1) AS s, (SELECT COUNT(*) FROM sys.dm_exec_requests WHERE session_id >= 1000) AS r',
          );
        // 1,100 background sessions and this one; every background session has its request running.
        assert.deepEqual(counts.recordset[0], { s: 1101, r: 1100 });
        const joined = (await pool.request().query(`${JOIN} WHERE s.is_user_process = 1 AND r.session_id >= 1000`)).recordset;
        assert.equal(joined.length, 1100);
        assert.equal(new Set(joined.map((x: { session_id: number }) => x.session_id)).size, 1100);
        // The same join written so that it cannot be hashed is the nested loop, refused at this size.
        const loop = await pool
          .request()
          .query(`${JOIN.replace('s.session_id = r.session_id', 's.session_id + 0 = r.session_id')}`)
          .then(
            () => 'answered',
            (e: Error) => e.message,
          );
        assert.match(loop, /a join of \d+ rows/);
      } finally {
        await pool.close();
      }
    });
  });

  it('a hashed join answers what the nested loop answers, a NULL key meeting nothing and LEFT keeping its row', async () => {
    await withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }] }, async (sim) => {
      const pool = await connect(sim);
      try {
        const q = async (text: string) => (await pool.request().query(text)).recordset as Record<string, unknown>[];
        const order = ' ORDER BY r.session_id';
        const hashed = await q(`${JOIN}${order}`);
        const looped = await q(`${JOIN.replace('s.session_id = r.session_id', 's.session_id + 0 = r.session_id')}${order}`);
        assert.ok(hashed.length >= 4);
        assert.deepEqual(hashed, looped);
        const values = `SELECT a.k, b.v FROM (VALUES (1), (NULL), (2)) AS a(k) LEFT JOIN (VALUES (1, 'one'), (NULL, 'null'), (1, 'uno')) AS b(k, v) ON a.k = b.k`;
        assert.deepEqual(await q(`${values} ORDER BY a.k, b.v`), [
          { k: null, v: null },
          { k: 1, v: 'one' },
          { k: 1, v: 'uno' },
          { k: 2, v: null },
        ]);
        assert.deepEqual(await q(`${values.replace('LEFT JOIN', 'JOIN')} ORDER BY b.v`), [
          { k: 1, v: 'one' },
          { k: 1, v: 'uno' },
        ]);
      } finally {
        await pool.close();
      }
    });
  });

  it('a batch of starts and stops refreshes the rates once, not once per call', () => {
    let refreshes = 0;
    const clock = new ManualClock();
    const runner = new WorkloadRunner({ clock, advance: () => undefined, ratesChanged: () => refreshes++ });
    const profile = { engine: 'disk', access: 'interpreted', operation: 'insert', rowsPerTxn: 1 } as unknown as WorkloadProfile;
    let ac = new AbortController();
    setMaxListeners(0, ac.signal);
    const call = (spid: number) =>
      runner.start(
        {
          spid,
          database: 'db',
          table: 'dbo.t',
          profile,
          placement: { cpu: 0, node: 0 } as never,
          targetRows: null,
          durationMs: null,
          cpuAtStart: 0,
        },
        ac.signal,
      );
    runner.batch(() => {
      for (let i = 0; i < 50; i++) void call(1000 + i);
    });
    assert.equal(refreshes, 1);
    assert.equal(runner.active().length, 50);
    runner.batch(() => ac.abort());
    assert.equal(refreshes, 2);
    assert.equal(runner.active().length, 0);
    // Outside a batch each start refreshes, as before.
    ac = new AbortController();
    void call(2000);
    void call(2001);
    assert.equal(refreshes, 4);
    runner.abortAll();
    assert.equal(refreshes, 5);
  });
});
