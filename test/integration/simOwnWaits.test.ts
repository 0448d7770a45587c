// The simulator's own session waits (sys.dm_exec_session_wait_stats) are part of its server-wide waits
// (sys.dm_os_wait_stats), as on SQL Server, where each wait counts in both: between any two readings, the waits a
// workload's sessions gained are never more than the server gained, type by type, in whole milliseconds.
import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { connect, withSim } from '../helpers/simClient';
import { targetFor } from '../helpers/simTarget';
import { deployCommand } from '../../src/cli/commands';

type Waits = Map<string, { ms: number; count: number; signal: number }>;

async function read(pool: sql.ConnectionPool, spids: number[]): Promise<{ own: Waits; server: Waits }> {
  const r = await pool
    .request()
    .query(
      `SELECT wait_type, waiting_tasks_count AS c, wait_time_ms AS ms, signal_wait_time_ms AS s FROM sys.dm_exec_session_wait_stats WHERE session_id IN (${spids.join(',')});` +
        'SELECT wait_type, waiting_tasks_count AS c, wait_time_ms AS ms, signal_wait_time_ms AS s FROM sys.dm_os_wait_stats;',
    );
  const sets = r.recordsets as unknown as { wait_type: string; c: number | string; ms: number | string; s: number | string }[][];
  const fold = (rows: (typeof sets)[number]) => {
    const m: Waits = new Map();
    for (const x of rows) {
      const t = m.get(x.wait_type) ?? { ms: 0, count: 0, signal: 0 };
      t.ms += Number(x.ms);
      t.count += Number(x.c);
      t.signal += Number(x.s);
      m.set(x.wait_type, t);
    }
    return m;
  };
  return { own: fold(sets[0]), server: fold(sets[1]) };
}

describe('simulator: own session waits within the server-wide waits', function () {
  this.timeout(60_000);

  it('every interval, every type: own delta <= server-wide delta (ms, count and signal ms)', () =>
    withSim({ seed: 11 }, async (sim) => {
      await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], 'SpinlockLab');
      const workers = await Promise.all([0, 1, 2].map(() => connect(sim, 'sa', undefined, 'SpinlockLab')));
      const spids = await Promise.all(workers.map(async (w) => (await w.request().query('SELECT @@SPID AS s')).recordset[0].s as number));
      const monitor = await connect(sim);
      try {
        const load = workers.map((w, i) =>
          w
            .request()
            .query(`EXEC dbo.spinlab_disk_insert_loop @key_base = ${(i + 1) * 1e9}, @rows = NULL, @run_ms = 2500, @batch_size = 1`),
        );
        let prev = await read(monitor, spids);
        let intervals = 0;
        const problems: string[] = [];
        const end = Date.now() + 2300;
        while (Date.now() < end) {
          await new Promise((r) => setTimeout(r, 40));
          const cur = await read(monitor, spids);
          intervals++;
          for (const [type, o] of cur.own) {
            const o0 = prev.own.get(type) ?? { ms: 0, count: 0, signal: 0 };
            const s = cur.server.get(type) ?? { ms: 0, count: 0, signal: 0 };
            const s0 = prev.server.get(type) ?? { ms: 0, count: 0, signal: 0 };
            for (const k of ['ms', 'count', 'signal'] as const)
              if (o[k] - o0[k] > s[k] - s0[k]) problems.push(`${type} ${k}: own +${o[k] - o0[k]}, server-wide +${s[k] - s0[k]}`);
          }
          prev = cur;
        }
        await Promise.all(load);
        assert.ok(intervals >= 10, `intervals read: ${intervals}`);
        assert.ok((prev.own.get('WRITELOG')?.ms ?? 0) > 0, 'the sessions waited');
        assert.deepEqual(problems, []);
      } finally {
        await Promise.all([...workers, monitor].map((p) => p.close()));
      }
    }));
});
