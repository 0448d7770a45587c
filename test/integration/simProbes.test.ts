// The simulator through the real driver: probes, simple SELECTs, the unsupported-statement error, logins.
import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { connect, withSim } from '../helpers/simClient';

it('probes answer as SQL Server does, and say they come from the simulator', () =>
  withSim({}, async (sim) => {
    const pool = await connect(sim);
    try {
      const v = await pool
        .request()
        .query('SELECT @@VERSION AS v, @@SPID AS spid, @@SERVERNAME AS s, DB_NAME() AS db, SUSER_SNAME() AS who');
      assert.match(v.recordset[0].v, /^Microsoft SQL Server 2022 \(Spinlock Lab simulator: synthetic numbers/);
      assert.ok(v.recordset[0].spid >= 51);
      assert.deepEqual([v.recordset[0].db, v.recordset[0].who], ['master', 'sa']);
      const p = await pool
        .request()
        .query(
          "SELECT SERVERPROPERTY('ProductMajorVersion') AS major, SERVERPROPERTY('Edition') AS ed, SERVERPROPERTY('IsXTPSupported') AS xtp, HAS_PERMS_BY_NAME(NULL, NULL, 'VIEW SERVER STATE') AS vss",
        );
      assert.deepEqual(p.recordset[0], { major: '16', ed: 'Spinlock Lab Simulator Edition (64-bit)', xtp: 1, vss: 1 });
      assert.equal((await pool.request().query('SELECT 1 AS one')).recordset[0].one, 1);
    } finally {
      await pool.close();
    }
  }));

it('simple SELECTs over the DMVs: TOP, WHERE, ORDER BY, *; a missing table is Msg 208, an unsupported statement an explicit error', () =>
  withSim({}, async (sim) => {
    const pool = await connect(sim);
    try {
      const top = await pool.request().query('SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC');
      assert.equal(top.recordset.length, 5);
      const spins = top.recordset.map((r) => Number(r.spins));
      assert.deepEqual(
        [...spins].sort((a, b) => b - a),
        spins,
      );
      const all = await pool.request().query('SELECT * FROM sys.dm_os_spinlock_stats');
      assert.ok(all.recordset.length > 200, `${all.recordset.length} spinlocks`);
      assert.deepEqual(Object.keys(all.recordset[0]), ['name', 'collisions', 'spins', 'spins_per_collision', 'sleep_time', 'backoffs']);
      for (const n of ['LOGCACHE_ACCESS', 'XDESMGR', 'LOGFLUSHQ', 'BLOCKER_ENUM', 'LOCK_RW_CMED_HASH_SET', 'CMED_HASH_SET']) {
        assert.ok(
          all.recordset.some((r) => r.name === n),
          n,
        );
      }
      const w = await pool
        .request()
        .query("SELECT wait_type FROM sys.dm_os_wait_stats WHERE wait_type IN ('WRITELOG','SOS_SCHEDULER_YIELD','LATCH_SH')");
      assert.equal(w.recordset.length, 3);
      const l = await pool
        .request()
        .query("SELECT latch_class FROM sys.dm_os_latch_stats WHERE latch_class = 'METADATA_SEQUENCE_GENERATOR'");
      assert.equal(l.recordset.length, 1);
      // Tables that do not exist: SQL Server's Msg 208, as the executor finds when it binds the names.
      await assert.rejects(
        pool.request().query('SELECT a FROM t1 JOIN t2 ON t1.x = t2.x'),
        (e: sql.RequestError) => e.number === 208 && /^Invalid object name 't1'\.$/.test(e.message),
      );
      await assert.rejects(
        pool.request().query('INSERT INTO t VALUES (1)'),
        (e: sql.RequestError) => e.number === 208 && /^Invalid object name 't'\.$/.test(e.message),
      );
      // A statement the simulator has no engine for: refused, saying so, rather than answered wrongly.
      await assert.rejects(
        pool.request().query('UPDATE t SET a = 1'),
        (e: sql.RequestError) => e.number === 50000 && /simulator/.test(e.message),
      );
    } finally {
      await pool.close();
    }
  }));

it('a login without VIEW SERVER STATE gets Msg 300 then 297; a wrong password Msg 18456', () =>
  withSim({ logins: [{ name: 'reader', password: 'Reader-Pw1!', permissions: [] }] }, async (sim) => {
    const pool = await connect(sim, 'reader', 'Reader-Pw1!');
    try {
      // mssql attaches the errors before the last one as precedingErrors (its types do not declare it).
      const err: (sql.RequestError & { precedingErrors?: sql.RequestError[] }) | null = await pool
        .request()
        .query('SELECT * FROM sys.dm_os_wait_stats')
        .then(
          () => null,
          (e) => e,
        );
      assert.ok(err, 'denied');
      const numbers = (err.precedingErrors ?? []).map((e) => e.number).concat(err.number);
      assert.deepEqual(numbers, [300, 297]);
      assert.match(
        err.precedingErrors?.[0]?.message ?? '',
        /^VIEW SERVER PERFORMANCE STATE permission was denied on object 'server', database 'master'\.$/,
      );
    } finally {
      await pool.close();
    }
    await assert.rejects(connect(sim, 'sa', 'wrong'), (e: Error) => /Login failed for user 'sa'\./.test(e.message));
  }));

it('USE changes the database; an unknown database is Msg 911', () =>
  withSim({}, async (sim) => {
    const pool = await connect(sim);
    try {
      const r = await pool.request().query('USE msdb');
      assert.equal(r.recordset, undefined);
      await assert.rejects(pool.request().query('USE nope'), (e: sql.RequestError) => e.number === 911);
    } finally {
      await pool.close();
    }
    void sql;
  }));
