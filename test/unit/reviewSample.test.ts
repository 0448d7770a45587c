// Review fixes in sql/dmv/sample.sql, through the simulator's model (no wire): pending I/O counts only requests still
// pending (io_pending = 1), and every performance counter the sample asks for is one the engine uses.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ManualClock } from '../../tools/sim/model/clock';
import { ModelHandler } from '../../tools/sim/model/handler';
import { SimModel } from '../../tools/sim/model/instance';
import { loadSqlFile } from '../../src/db/sqlFiles';
import type { ResponseItem, ResultSet, RpcParam } from '../../tools/sim/tds/contract';
import { computeTick } from '../../src/engine/deltas';
import { DB, sample } from './samples';

const sig = () => new AbortController().signal;
const sets = (items: ResponseItem[]) => items.filter((x) => x.kind === 'resultSet') as ResultSet[];
const p = (name: string, value: string | null): RpcParam => ({
  name,
  value,
  sqlType: { type: 'nvarchar', length: 4000 } as RpcParam['sqlType'],
  output: false,
});

describe('review: sql/dmv/sample.sql', () => {
  it('counts pending I/O with io_pending = 1 only (a completed request not yet reaped is still listed)', async () => {
    const model = new SimModel({ password: 'pw', clock: new ManualClock(), seed: 7 });
    const h = new ModelHandler(model);
    const db = model.createDatabase('SpinlockLab');
    const s = { spid: 51, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: db.name, state: new Map() };
    model.sessionStarted(51, 'sa');
    // A workload in the lab database with nothing in flight: the view then lists only completed requests.
    (model.workloads as unknown as { active: () => unknown[] }).active = () => [{ database: db.name, placement: { cpu: 0, node: 0 } }];
    const view = sets(await h.sqlBatch(s, 'SELECT io_pending FROM sys.dm_io_pending_io_requests', sig()))[0];
    assert.ok(
      view.rows.some((r) => r[0] === 0),
      'the simulator lists completed, unreaped requests as SQL Server does',
    );
    const f = loadSqlFile('dmv/sample');
    const out = sets(
      await h.rpc(
        s,
        'sp_executesql',
        [p('@stmt', f.batches[0]), p('@params', f.parameters), p('@db', db.name), p('@db_physical', null)],
        sig(),
      ),
    );
    const inFlight = view.rows.filter((r) => r[0] === 1).length;
    assert.deepEqual(out[6].rows[0], [inFlight, inFlight]);
  });

  it('samples no performance counter the engine does not use', () => {
    const text = loadSqlFile('dmv/sample').batches[0];
    const names = [...text.matchAll(/N'([^']+)'/g)].map((m) => m[1]).filter((n) => !n.startsWith('%'));
    const engine = fs.readFileSync(path.join(__dirname, '../../../src/engine/deltas.ts'), 'utf8');
    for (const n of names) assert.ok(engine.includes(`'${n}'`), `sample.sql asks for ${n}, which src/engine/deltas.ts never reads`);
  });
});

describe('review: CPU includes the hidden schedulers (log writers), labelled apart', () => {
  it('hidden scheduler CPU goes to hiddenCpuMs, not to cpuMs, the per-node busy % or the online scheduler count', () => {
    const prev = sample({
      msTicks: 11_000,
      cpu: [
        [0, 1000],
        [0, 1000],
      ],
    });
    const cur = sample({
      msTicks: 12_000,
      cpu: [
        [0, 1500],
        [0, 1500],
      ],
    });
    const hidden = (s: ReturnType<typeof sample>, ms: number) =>
      s.schedulers.push({ schedulerId: 1048577, cpuId: 0, nodeId: 0, isOnline: true, totalCpuMs: ms, runnableTasks: 0, hidden: true });
    hidden(prev, 5000);
    hidden(cur, 5300);
    const r = computeTick(prev, cur, { labDatabase: DB, progressTables: [], runStartMsTicks: 10_000 });
    assert.equal(r.kind, 'tick');
    if (r.kind !== 'tick') return;
    assert.equal(r.tick.cpuMs, 1000);
    assert.equal(r.tick.hiddenCpuMs, 300);
    assert.equal(r.tick.cpuByNode['0'], 50);
    assert.equal(r.tick.onlineSchedulers, 2);
  });

  it('the sample asks for the hidden schedulers (no scheduler_id filter) and the sampler marks them', () => {
    const text = loadSqlFile('dmv/sample').batches[0];
    const section8 = text.slice(text.indexOf('-- 8.'), text.indexOf('-- 9.'));
    assert.doesNotMatch(section8.replace(/--[^\n]*/g, ''), /scheduler_id < 1048576/);
  });
});
