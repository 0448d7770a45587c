// Database counters named by physical_database_name (Azure SQL Managed Instance: a GUID) mapped back to the name.
import assert from 'node:assert/strict';
import { renameDatabaseCounters } from '../../src/engine/databaseNames';
import type { CounterRow } from '../../src/shared/types';

const GUID = '2DC985D9-3806-423D-ABD0-4339B362FECB';
const row = (object: string, instance: string): CounterRow => ({ object, counter: 'Log Flushes/sec', instance, value: 1, type: 272696576 });

describe('renameDatabaseCounters', () => {
  it('renames *:Databases instances named by a physical name, whatever the object prefix and case; leaves the rest', () => {
    const rows = [
      row('SQLServer:Databases', GUID.toLowerCase()),
      row('MSSQL$LAB:Databases', `${GUID}  `),
      row('SQLServer:Databases', '_Total'),
      row('SQLServer:Databases', 'master'),
      row('SQLServer:Buffer Manager', GUID),
    ];
    renameDatabaseCounters(rows, new Map([[GUID.toLowerCase(), 'SpinlockLab']]));
    assert.deepEqual(
      rows.map((r) => r.instance),
      ['SpinlockLab', 'SpinlockLab', '_Total', 'master', GUID],
    );
  });

  it('changes nothing without names (SQL Server, or before 2019)', () => {
    const rows = [row('SQLServer:Databases', GUID)];
    renameDatabaseCounters(rows, new Map());
    assert.equal(rows[0].instance, GUID);
  });
});
