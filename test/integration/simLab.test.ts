// The product's own statements (sql/) through the real driver: identity, topology, knobs, lab database, deploy,
// concurrent workload calls, the nine-result-set sample, affinity seen in the schedulers, and the restart fault.
import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { connect, runFile, withSim, type Row } from '../helpers/simClient';

it('server/* and knobs/read return the shapes SQL Server returns', () =>
  withSim({ traceFlags: [1117, 8008] }, async (sim) => {
    const pool = await connect(sim);
    try {
      const id = (await runFile(pool, 'server/identity')).recordset[0];
      assert.equal(id.major_version, 16);
      assert.equal(id.has_view_server_state, 1);
      assert.match(id.version_banner, /Spinlock Lab simulator/);
      const topo = await runFile(pool, 'server/topology');
      const sets = topo.recordsets as Row[][];
      assert.equal(sets.length, 5);
      assert.equal(sets[0][0].cpu_count, 40);
      assert.equal(sets[0][0].affinity_type_desc, 'AUTO');
      assert.equal(sets[0][0].sql_memory_model_desc, 'CONVENTIONAL');
      assert.equal(sets[1].length, 40);
      assert.deepEqual(Object.keys(sets[1][0]), ['scheduler_id', 'cpu_id', 'parent_node_id', 'status', 'is_online']);
      assert.deepEqual(
        sets[2].map((n) => n.node_id),
        [0, 1],
      );
      assert.ok(sets[3].length >= 1 && sets[3].every((r) => r.parent_node_id === 0 && Number(r.scheduler_id) >= 1048576));
      assert.deepEqual(Object.keys(sets[4][0]), ['large_page_allocations_kb', 'locked_page_allocations_kb']);
      const tf = await runFile(pool, 'server/trace-flags');
      assert.deepEqual(
        tf.recordset.map((r) => r.TraceFlag),
        [1117, 8008],
      );
    } finally {
      await pool.close();
    }
  }));

it('lab database, deploy, concurrent workload, sample; affinity visible in the schedulers; restart', () =>
  withSim({}, async (sim) => {
    const admin = await connect(sim);
    try {
      await runFile(admin, 'lab/create', { db: [sql.NVarChar(128), 'SpinlockLab'], mark: [sql.NVarChar(256), 'spinlab v1'] });
      const probe = (await runFile(admin, 'lab/probe', { db: [sql.NVarChar(128), 'SpinlockLab'] })).recordset[0];
      assert.deepEqual([probe.spinlab_mark, probe.recovery_model_desc, probe.has_xtp_filegroup], ['spinlab v1', 'SIMPLE', false]);
      await runFile(admin, 'knobs/delayed-durability', { db: [sql.NVarChar(128), 'SpinlockLab'], mode: [sql.NVarChar(16), 'FORCED'] });
      const knobs = await runFile(admin, 'knobs/read', { db: [sql.NVarChar(128), 'SpinlockLab'] });
      assert.equal((knobs.recordsets as Row[][])[2][0].delayed_durability_desc, 'FORCED');

      const lab = await connect(sim, 'sa', undefined, 'SpinlockLab');
      try {
        await runFile(lab, 'lab/common');
        for (let b = 0; b < 3; b++) await runFile(lab, 'scenarios/disk-insert/deploy', {}, b);
        await runFile(lab, 'scenarios/disk-insert/seed', { seed_rows: [sql.BigInt, 1000] });
        const kb = (await runFile(lab, 'lab/key-block')).recordset[0].key_block;
        assert.equal(Number(kb), 1);

        // Workers only on node 1: the schedulers say so.
        await runFile(admin, 'knobs/affinity-numa', { node_ranges: [sql.NVarChar(4000), '1'] });
        const sched = (await admin.request().query('SELECT cpu_id, status FROM sys.dm_os_schedulers WHERE scheduler_id < 1048576'))
          .recordset;
        assert.equal(sched.filter((r) => r.status === 'VISIBLE OFFLINE').length, 20);
        assert.ok(sched.filter((r) => r.cpu_id < 20).every((r) => r.status === 'VISIBLE OFFLINE'));

        const before = (await lab.request().query("SELECT spins FROM sys.dm_os_spinlock_stats WHERE name = 'LOGCACHE_ACCESS'")).recordset[0]
          .spins;
        const t0 = Date.now();
        const calls = [1, 2, 3, 4].map((i) => {
          const r = new sql.Request(lab);
          r.input('key_base', sql.BigInt, i * 1e10);
          r.input('rows', sql.BigInt, null);
          r.input('run_ms', sql.Int, 400);
          r.input('batch_size', sql.Int, 2);
          return r.execute('dbo.spinlab_disk_insert_loop');
        });
        const done = await Promise.all(calls);
        const elapsed = Date.now() - t0;
        assert.ok(elapsed >= 380 && elapsed < 3000, `the calls held their sessions ~400 ms concurrently: ${elapsed}`);
        for (const d of done) assert.ok(Number(d.recordset[0].rows_done) > 1000);
        const after = (await lab.request().query("SELECT spins FROM sys.dm_os_spinlock_stats WHERE name = 'LOGCACHE_ACCESS'")).recordset[0]
          .spins;
        assert.ok(Number(after) > Number(before));

        const sample = await runFile(lab, 'dmv/sample', { db: [sql.NVarChar(128), 'SpinlockLab'], db_physical: [sql.NVarChar(128), null] });
        const s = sample.recordsets as Row[][];
        assert.equal(s.length, 9);
        assert.deepEqual(Object.keys(s[0][0]), ['server_time_utc', 'ms_ticks', 'cpu_ticks', 'sqlserver_start_time']);
        assert.ok(s[1].some((r) => r.name === 'LOGCACHE_ACCESS'));
        assert.ok(s[4].some((r) => r.counter_name === 'Log Flushes/sec' && r.instance_name === 'SpinlockLab'));
        assert.ok(s[4].some((r) => r.counter_name === 'Batch Requests/sec'));
        assert.ok(Number(s[5][0].num_of_writes) > 0);
        const prog = s[8].find((r) => r.table_name === 'spinlab_disk_insert');
        assert.ok(Number(prog?.inserts) > 4000);

        // Restart: sessions dropped, start time and ms_ticks reset, objects and durability kept, affinity back to AUTO.
        const start1 = s[0][0].sqlserver_start_time as Date;
        await new Promise((r) => setTimeout(r, 20));
        const dropped = sim.faults.restart();
        assert.ok(dropped >= 2);
        // The pool notices the dead connections and opens new ones: the instance has a new start time.
        const st = (await lab.request().query('SELECT sqlserver_start_time FROM sys.dm_os_sys_info')).recordset[0]
          .sqlserver_start_time as Date;
        assert.ok(st.getTime() > start1.getTime());
      } finally {
        await lab.close().catch(() => {});
      }
      const again = await connect(sim, 'sa', undefined, 'SpinlockLab');
      try {
        const info = (await again.request().query('SELECT sqlserver_start_time, ms_ticks, affinity_type_desc FROM sys.dm_os_sys_info'))
          .recordset[0];
        assert.equal(info.affinity_type_desc, 'AUTO');
        assert.ok(Number(info.ms_ticks) < 90_000 + 5_000);
        const probe2 = (await runFile(again, 'lab/probe', { db: [sql.NVarChar(128), 'SpinlockLab'] })).recordset[0];
        assert.equal(probe2.delayed_durability_desc, 'FORCED');
        const r = new sql.Request(again);
        r.input('key_base', sql.BigInt, 1);
        r.input('offset', sql.BigInt, 0);
        r.input('batch_size', sql.Int, 1);
        await r.execute('dbo.spinlab_disk_insert_batch');
        await runFile(again, 'scenarios/disk-insert/cleanup');
        await assert.rejects(new sql.Request(again).execute('dbo.spinlab_disk_insert_batch'), (e: sql.RequestError) => e.number === 2812);
      } finally {
        await again.close();
      }
      await runFile(admin, 'lab/drop', { db: [sql.NVarChar(128), 'SpinlockLab'] }).catch(() => {});
    } finally {
      await admin.close().catch(() => {});
    }
  }));
