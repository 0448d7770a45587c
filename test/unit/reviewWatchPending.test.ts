// Review fix in sql/watch/tick.sql and tick-delta.sql, through the simulator's model (no wire): the watch's pending
// I/O counts only requests still pending (io_pending = 1), as the experiments' sample does; a write the OS completed
// stays listed until its scheduler reaps it.
import assert from 'node:assert/strict';
import { ManualClock } from '../../tools/sim/model/clock';
import { ModelHandler } from '../../tools/sim/model/handler';
import { SimModel } from '../../tools/sim/model/instance';
import { loadSqlFile } from '../../src/db/sqlFiles';
import type { ResponseItem, ResultSet, RpcParam, SqlType } from '../../tools/sim/tds/contract';

const sig = () => new AbortController().signal;
const sets = (items: ResponseItem[]) => items.filter((x) => x.kind === 'resultSet') as ResultSet[];
const int = (name: string, value: number): RpcParam => ({ name, value, sqlType: { type: 'int' } as SqlType, output: false });
const text = (name: string, value: string): RpcParam => ({
  name,
  value,
  sqlType: { type: 'nvarchar', length: 4000 } as SqlType,
  output: false,
});

describe('review: the watch counts pending I/O with io_pending = 1 only', () => {
  for (const file of ['watch/tick', 'watch/tick-delta']) {
    it(`${file}.sql`, async () => {
      const model = new SimModel({ password: 'pw', clock: new ManualClock(), seed: 7 });
      const h = new ModelHandler(model);
      const db = model.createDatabase('Busy');
      const s = { spid: 51, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: 'master', state: new Map() };
      model.sessionStarted(51, 'sa');
      // A workload with nothing in flight: the view then lists only completed, unreaped requests.
      (model.workloads as unknown as { active: () => unknown[] }).active = () => [
        { id: 1, spid: 60, startedAt: 0, cpuAtStart: 0, rows: 0, table: 'dbo.t', database: db.name, placement: { cpu: 0, node: 0 } },
      ];
      const view = sets(await h.sqlBatch(s, 'SELECT io_pending FROM sys.dm_io_pending_io_requests', sig()))[0];
      assert.ok(
        view.rows.some((r) => r[0] === 0),
        'the simulator lists completed, unreaped requests as SQL Server does',
      );
      const inFlight = view.rows.filter((r) => r[0] === 1).length;
      if (file === 'watch/tick-delta') await h.sqlBatch(s, loadSqlFile('dmv/snapshot-setup').batches[0], sig());
      const f = loadSqlFile(file);
      const out = sets(
        await h.rpc(
          s,
          'sp_executesql',
          [text('@stmt', f.batches[0]), text('@params', f.parameters), int('@top_requests', 10), int('@text_chars', 100)],
          sig(),
        ),
      );
      const pend = out.find((r) => r.columns[0]?.name === 'pending_total');
      assert.ok(pend, 'the tick returns its pending I/O');
      assert.equal(pend.rows[0][0], inFlight);
    });
  }
});
