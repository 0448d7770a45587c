// The lab's and the preflight's server statements, executed (tools/sim/model/exec/serverStmts.ts and the views they
// read): KILL's refusals and the session it ends, DBCC TRACESTATUS from the model's flags, NEXT VALUE FOR drawing from
// the lab's NO CACHE sequence with its latch charge, and sql/server/check.sql's answers per version and platform.
import assert from 'node:assert/strict';
import { loadSqlFile } from '../../src/db/sqlFiles';
import { ManualClock } from '../../tools/sim/model/clock';
import { executeBatch } from '../../tools/sim/model/exec/batch';
import { SimModel, type ModelOptions } from '../../tools/sim/model/instance';
import type { ResponseItem, ResultSet, SessionContext, Value } from '../../tools/sim/tds/contract';

function setup(opts: Partial<ModelOptions> = {}, login = 'sa') {
  const model = new SimModel({
    password: 'pw',
    clock: new ManualClock(),
    seed: 1,
    logins: [{ name: 'peek', password: 'x', permissions: [] }],
    ...opts,
  });
  const session: SessionContext = { spid: 51, login, appName: 't', hostName: 'h', encrypted: false, database: 'master', state: new Map() };
  model.sessionStarted(51, login);
  const live = new Set([52, 53]);
  model.connections = { list: () => [...live].map((spid) => ({ spid, database: 'master' })), kill: (spid) => live.delete(spid) };
  const run = (file: string, params: Record<string, Value> = {}) => {
    const f = loadSqlFile(file);
    return executeBatch({
      model,
      session,
      params: new Map(Object.entries(params)),
      paramDefs: f.parameters,
      signal: new AbortController().signal,
      text: f.batches[0],
    });
  };
  return { model, session, live, run };
}
const errorsOf = (items: ResponseItem[]) => items.flatMap((x) => (x.kind === 'error' ? [x.number] : []));
const sets = (items: ResponseItem[]) => items.filter((x): x is ResultSet => x.kind === 'resultSet');

it('lab/kill ends another session; its own (6104), a gone one (6106), a system one (6107), without ALTER ANY CONNECTION (6102)', async () => {
  const { live, run, model } = setup();
  assert.deepEqual(errorsOf(await run('lab/kill', { '@spid': 52 })), []);
  assert.deepEqual([...live], [53]);
  assert.deepEqual(errorsOf(await run('lab/kill', { '@spid': 52 })), [6106]);
  assert.deepEqual(errorsOf(await run('lab/kill', { '@spid': 51 })), [6104]);
  const db = model.createDatabase('lab');
  db.hasXtpFilegroup = true;
  const [worker] = (sets(
    await executeBatch({
      model,
      session: { spid: 51, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: 'master', state: new Map() },
      params: new Map(),
      signal: new AbortController().signal,
      text: "SELECT s.session_id FROM sys.dm_exec_sessions AS s WHERE s.database_id = DB_ID(N'lab') AND s.is_user_process = 0",
    }),
  )[0].rows[0] ?? []) as number[];
  assert.ok(worker, 'the checkpoint workers are system sessions in the lab database');
  assert.deepEqual(errorsOf(await run('lab/kill', { '@spid': worker })), [6107]);
  assert.deepEqual(errorsOf(await setup({}, 'peek').run('lab/kill', { '@spid': 52 })), [6102]);
});

it('server/trace-flags: DBCC TRACESTATUS(-1) lists the global flags, smallint columns, no DBCC message', async () => {
  const r = await setup({ traceFlags: [3605, 1117] }).run('server/trace-flags');
  assert.deepEqual(
    r.map((x) => x.kind),
    ['resultSet'],
  );
  const [t] = sets(r);
  assert.deepEqual(
    t.columns.map((c) => [c.name, c.sqlType.type]),
    [
      ['TraceFlag', 'smallint'],
      ['Status', 'smallint'],
      ['Global', 'smallint'],
      ['Session', 'smallint'],
    ],
  );
  assert.deepEqual(t.rows, [
    [1117, 1, 1, 0],
    [3605, 1, 1, 0],
  ]);
});

it('lab/key-block draws 1, 2, ... from the NO CACHE sequence lab/common creates once, each draw a METADATA_SEQUENCE_GENERATOR write', async () => {
  const { model, session, run } = setup();
  assert.deepEqual(errorsOf(await run('lab/key-block')), [208]);
  model.createDatabase('lab');
  session.database = 'lab';
  await run('lab/common');
  assert.deepEqual(errorsOf(await run('lab/common')), [], 'guarded by OBJECT_ID(..., SO)');
  const latch = model.counters.latches.get('METADATA_SEQUENCE_GENERATOR')!;
  const before = latch.count;
  const draws = [];
  for (let i = 0; i < 3; i++) draws.push(sets(await run('lab/key-block'))[0].rows[0][0]);
  assert.deepEqual(draws, [1n, 2n, 3n]);
  assert.equal(latch.count - before, 3);
});

it('server/check: host and tier per version and platform, from the views each has', async () => {
  const row = async (opts: Partial<ModelOptions>, login = 'sa') => {
    const r = sets(await setup(opts, login).run('server/check', { '@db': 'master' }));
    const [major, , , engine, , , , , platform, distribution, , tier] = r[0].rows[0];
    return [major, engine, platform, distribution, tier];
  };
  // 2016 has no sys.dm_os_host_info (the file assumes Windows); 2022 asks VIEW SERVER PERFORMANCE STATE for it.
  assert.deepEqual(await row({ version: 13 }), [13, 3, 'Windows', null, null]);
  assert.deepEqual(await row({ version: 14 }), [14, 3, 'Windows', 'Simulated Windows Server 2022', null]);
  assert.deepEqual(await row({ version: 16 }, 'peek'), [16, 3, null, null, null]);
  assert.deepEqual(await row({ platform: 'managed-instance' }), [12, 8, 'Windows', 'Simulated Windows Server 2022', 'BusinessCritical']);
});
