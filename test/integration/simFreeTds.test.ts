// A second, independent TDS client (FreeTDS's tsql) reads the simulator: the wire format is not tuned to tedious.
import assert from 'node:assert/strict';
import { withSim } from '../helpers/simClient';
import { requireTsql, runTsql } from '../helpers/tsql';

it('FreeTDS tsql (TDS 7.4) reads the top spinlocks', () => {
  requireTsql();
  return withSim({}, async (sim) => {
    const out = await runTsql(sim, 'SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC\ngo\nexit\n');
    assert.match(out, /name\s+spins/);
    assert.match(out, /SOS_CACHESTORE\s+\d+/);
    assert.match(out, /\(5 rows affected\)/);
  });
});
