// Values and comparisons as SQL Server makes them, through the real driver: nchar(128) counter names come back space
// padded, LIKE on Unicode data keeps trailing blanks significant while = ignores them, constants above the int range
// are decimal, and each view serves exactly the columns its docs page gives for the simulator's version.
import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { connect, withSim } from '../helpers/simClient';

const q = async (pool: sql.ConnectionPool, text: string) => (await pool.request().batch(text)).recordset;
/** A result column's metadata as mssql reports it. */
interface ColumnMeta {
  type: unknown;
  length: number;
  nullable: boolean;
}
const meta = (rs: sql.IRecordSet<unknown>, name: string) => (rs.columns as unknown as Record<string, ColumnMeta>)[name];
type Counter = { object_name: string; counter_name: string };

describe('simulator values as SQL Server makes them', () => {
  it('pads nchar(128) counter names, and LIKE on them needs RTRIM or a trailing %', () =>
    withSim({}, async (sim) => {
      const pool = await connect(sim);
      try {
        const all = await pool.request().batch('SELECT object_name, counter_name, instance_name FROM sys.dm_os_performance_counters');
        const col = meta(all.recordset, 'object_name');
        assert.equal(col.type, sql.NChar);
        assert.equal(col.length, 256); // bytes on the wire: nchar(128)
        assert.ok((all.recordset as Counter[]).every((r) => r.object_name.length === 128 && r.counter_name.length === 128));
        assert.equal(
          (await q(pool, "SELECT object_name FROM sys.dm_os_performance_counters WHERE object_name LIKE N'%:Databases'")).length,
          0,
        );
        assert.ok(
          (await q(pool, "SELECT object_name FROM sys.dm_os_performance_counters WHERE RTRIM(object_name) LIKE N'%:Databases'")).length > 0,
        );
        assert.ok(
          (await q(pool, "SELECT object_name FROM sys.dm_os_performance_counters WHERE object_name LIKE N'%:Databases%'")).length > 0,
        );
        assert.ok(
          (await q(pool, "SELECT object_name FROM sys.dm_os_performance_counters WHERE counter_name = N'Transactions/sec'")).length > 0,
        );
      } finally {
        await pool.close();
      }
    }));

  it('types a constant above the int range as decimal', () =>
    withSim({}, async (sim) => {
      const pool = await connect(sim);
      try {
        const r = await pool.request().batch('SELECT 3000000000 AS big, 5 AS small');
        assert.equal(meta(r.recordset, 'big').type, sql.Decimal);
        assert.equal(meta(r.recordset, 'small').type, sql.Int);
        assert.equal(Number(r.recordset[0].big), 3000000000);
      } finally {
        await pool.close();
      }
    }));

  it('serves the documented columns per version, NOT NULL where the docs say so', async () => {
    for (const version of [13, 17]) {
      await withSim({ version }, async (sim) => {
        const pool = await connect(sim);
        try {
          const r = await pool.request().batch('SELECT * FROM sys.dm_os_schedulers');
          const names = Object.keys(r.recordset.columns);
          assert.equal(names.includes('ideal_workers_limit'), version >= 15, `ideal_workers_limit at ${version}`);
          assert.equal(meta(r.recordset, 'total_cpu_usage_ms').nullable, false);
          const info = await pool.request().batch('SELECT * FROM sys.dm_os_sys_info');
          assert.equal(Object.keys(info.recordset.columns).includes('process_physical_affinity'), version >= 14);
          assert.equal(meta(info.recordset, 'cpu_ticks').nullable, false);
        } finally {
          await pool.close();
        }
      });
    }
  });
});
