// The simulated instance without the wire: affinity, permissions, counters that only grow, workloads that hold their
// session for the modelled time and stop on ATTENTION, restart, and the small SELECT engine.
import assert from 'node:assert/strict';
import { ManualClock } from '../../tools/sim/model/clock';
import { ModelHandler } from '../../tools/sim/model/handler';
import { SimModel } from '../../tools/sim/model/instance';
import { loadSqlFile } from '../../src/db/sqlFiles';
import type { LoginResult, ResponseItem, ResultSet, RpcParam, ServerMessage, SessionContext } from '../../tools/sim/tds/contract';

function session(spid: number, login = 'sa', database = 'master'): SessionContext {
  return { spid, login, appName: 'test', hostName: 'h', encrypted: false, database, state: new Map() };
}
const sig = () => new AbortController().signal;
const rs = (items: ResponseItem[], i = 0) => items.filter((x) => x.kind === 'resultSet')[i] as ResultSet;
const errors = (items: ResponseItem[]) => items.filter((x) => x.kind === 'error') as ServerMessage[];
const p = (name: string, value: RpcParam['value'], type: RpcParam['sqlType'] = { type: 'nvarchar', length: 4000 }): RpcParam => ({
  name,
  value,
  sqlType: type,
  output: false,
});
function execSql(h: ModelHandler, s: SessionContext, id: string, params: Record<string, RpcParam['value']> = {}, batch = 0) {
  const f = loadSqlFile(id);
  return h.rpc(
    s,
    'sp_executesql',
    [p('@stmt', f.batches[batch]), p('@params', f.parameters), ...Object.entries(params).map(([k, v]) => p(k, v))],
    sig(),
  );
}
function setup(opts: ConstructorParameters<typeof SimModel>[0] = {}) {
  const clock = new ManualClock();
  const model = new SimModel({ password: 'pw', clock, seed: 7, ...opts });
  const h = new ModelHandler(model);
  const s = session(51);
  model.sessionStarted(51, 'sa');
  return { clock, model, h, s };
}

it('affinity: excluded CPUs go VISIBLE OFFLINE, MANUAL; AUTO brings all back; bad ids give Msg 5832', async () => {
  const { h, s, model } = setup();
  assert.deepEqual(errors(await execSql(h, s, 'knobs/affinity-cpu', { '@cpu_ranges': '2 TO 11' })), []);
  const sched = rs(await h.sqlBatch(s, 'SELECT cpu_id, status FROM sys.dm_os_schedulers WHERE scheduler_id < 1048576', sig()));
  assert.equal(sched.rows.filter((r) => r[1] === 'VISIBLE ONLINE').length, 10);
  assert.equal(sched.rows.find((r) => r[0] === 0)?.[1], 'VISIBLE OFFLINE');
  assert.equal(rs(await h.sqlBatch(s, 'SELECT affinity_type_desc FROM sys.dm_os_sys_info', sig())).rows[0][0], 'MANUAL');
  const bad = errors(await execSql(h, s, 'knobs/affinity-cpu', { '@cpu_ranges': '0 TO 63' }));
  assert.equal(bad[0].number, 5832);
  assert.equal(model.onlineCpus().length, 10, 'a failed change leaves affinity as it was');
  await execSql(h, s, 'knobs/affinity-numa', { '@node_ranges': '1' });
  assert.deepEqual(
    model.onlineCpus(),
    Array.from({ length: 20 }, (_, i) => 20 + i),
  );
  await h.sqlBatch(s, loadSqlFile('knobs/affinity-auto').batches[0], sig());
  assert.equal(model.onlineCpus().length, 40);
  assert.equal(model.affinity.type, 'AUTO');
});

it('hyperthread siblings are adjacent: CPUs 0 and 1 are core 0 of node 0', () => {
  const { model } = setup();
  assert.deepEqual(model.machine.core0Cpus(), [0, 1]);
  assert.equal(model.machine.cpus[20].node, 1);
});

it('a login without VIEW SERVER STATE gets Msg 300 then 297; 2022+ names VIEW SERVER PERFORMANCE STATE', async () => {
  for (const [version, perm] of [
    [16, 'VIEW SERVER PERFORMANCE STATE'],
    [15, 'VIEW SERVER STATE'],
  ] as const) {
    const { h, model } = setup({ version, logins: [{ name: 'lab', password: 'x', permissions: [] }] });
    const s = session(52, 'lab');
    model.sessionStarted(52, 'lab');
    const e = errors(await h.sqlBatch(s, 'SELECT * FROM sys.dm_os_wait_stats', sig()));
    assert.deepEqual(
      e.map((x) => [x.number, x.class]),
      [
        [300, 14],
        [297, 16],
      ],
    );
    assert.equal(e[0].message, `${perm} permission was denied on object 'server', database 'master'.`);
    const aff = errors(await execSql(h, s, 'knobs/affinity-auto'));
    assert.equal(aff[0].number, 15247);
  }
});

/** A login as sa that the handler refuses. */
const refusedLogin = (h: ModelHandler, password: string, database: string) =>
  h.login({
    userName: 'sa',
    password,
    database,
    appName: '',
    hostName: '',
    serverName: '',
    language: '',
    clientPid: 1,
    packetSize: 4096,
    tdsVersion: 0x74000004,
  }) as LoginResult & { ok: false };

it('wrong password: Msg 18456, state 1 on the wire', () => {
  const { h } = setup();
  const r = refusedLogin(h, 'nope', '');
  assert.equal(r.ok, false);
  const [e] = [r.error].flat();
  assert.deepEqual([e.number, e.state, e.class, e.message], [18456, 1, 14, "Login failed for user 'sa'."]);
});

it('a login to a database that does not exist gets Msg 4060 and then 18456, as SQL Server sends them', () => {
  const r = refusedLogin(new ModelHandler(new SimModel({ password: 'pw' })), 'pw', 'NoSuchDb');
  assert.deepEqual(
    [r.error].flat().map((m) => [m.number, m.class]),
    [
      [4060, 11],
      [18456, 14],
    ],
  );
});

async function deployDisk(h: ModelHandler, s: SessionContext) {
  await execSql(h, s, 'lab/create', { '@db': 'SpinlockLab', '@mark': 'v1' });
  await h.sqlBatch(s, 'USE SpinlockLab', sig());
  for (let b = 0; b < 3; b++)
    assert.deepEqual(errors(await h.sqlBatch(s, loadSqlFile('scenarios/disk-insert/deploy').batches[b], sig())), []);
}

it('a workload call holds its session for the modelled time, counters grow meanwhile, ATTENTION keeps what was counted', async () => {
  const { h, s, model, clock } = setup();
  await deployDisk(h, s);
  assert.equal(s.database, 'SpinlockLab');
  const before = model.counters.spinlocks.get('LOGCACHE_ACCESS')!.spins;
  let done: ResponseItem[] | null = null;
  const call = h
    .rpc(s, 'dbo.spinlab_disk_insert_loop', [p('@key_base', 1n), p('@rows', null), p('@run_ms', 2000), p('@batch_size', 1)], sig())
    .then((r) => (done = r));
  clock.advance(1000);
  await Promise.resolve();
  assert.equal(done, null, 'still running after 1 s of a 2 s call');
  model.advance();
  const mid = model.counters.spinlocks.get('LOGCACHE_ACCESS')!.spins;
  assert.ok(mid > before);
  clock.advance(1001);
  await call;
  const rowsDone = Number(rs(done!).rows[0][0] as bigint);
  assert.ok(rowsDone > 10_000, `rows ${rowsDone}`);
  // ATTENTION
  const ac = new AbortController();
  const aborted = h.rpc(
    s,
    'dbo.spinlab_disk_insert_loop',
    [p('@key_base', 2n), p('@rows', null), p('@run_ms', null), p('@batch_size', 1)],
    ac.signal,
  );
  clock.advance(500);
  ac.abort();
  assert.deepEqual(await aborted, []);
  const after = model.counters.table('SpinlockLab', 'dbo.spinlab_disk_insert').inserts;
  assert.ok(after > rowsDone, 'rows of the cancelled call stay counted');
});

it('counters only grow between reads; restart resets them and the clocks but keeps databases and durability', async () => {
  const { h, s, model, clock } = setup();
  await deployDisk(h, s);
  await execSql(h, s, 'knobs/delayed-durability', { '@db': 'SpinlockLab', '@mode': 'FORCED' });
  const read = async () =>
    rs(await h.sqlBatch(s, 'SELECT wait_type, wait_time_ms FROM sys.dm_os_wait_stats', sig())).rows.map((r) => Number(r[1]));
  const a = await read();
  clock.advance(5000);
  const b = await read();
  assert.ok(b.every((v, i) => v >= a[i]));
  assert.ok(b.reduce((x, y) => x + y) > a.reduce((x, y) => x + y));
  await execSql(h, s, 'knobs/affinity-cpu', { '@cpu_ranges': '2 TO 11' });
  const t0 = model.startTime.getTime();
  clock.advance(60_000);
  model.restart();
  assert.ok(model.startTime.getTime() > t0);
  assert.ok(model.msTicks() < 1000);
  assert.equal(model.onlineCpus().length, 40, 'affinity back to its startup value');
  assert.equal(model.database('SpinlockLab')?.delayedDurability, 'FORCED');
  assert.ok(model.findObject(model.database('SpinlockLab')!, 'dbo.spinlab_disk_insert_loop'));
  assert.equal(model.counters.spinlocks.get('LOGCACHE_ACCESS')!.spins < 2000, true);
});

it('an undeployed procedure is Msg 2812; an unsupported statement is a clear error; a fault fails a file', async () => {
  const { h, s } = setup();
  const e = errors(await h.rpc(s, 'dbo.spinlab_disk_insert_loop', [], sig()));
  assert.equal(e[0].number, 2812);
  assert.equal(e[0].message, "Could not find stored procedure 'dbo.spinlab_disk_insert_loop'.");
  const u = errors(await h.sqlBatch(s, 'DELETE FROM t', sig()));
  assert.match(u[0].message, /Spinlock Lab simulator .* does not support/);
  h.faults.failBatches(loadSqlFile('server/identity').batches, { number: 1205, message: 'deadlock victim', times: 1 });
  assert.equal(errors(await h.sqlBatch(s, loadSqlFile('server/identity').batches[0], sig()))[0].number, 1205);
  assert.equal(errors(await h.sqlBatch(s, loadSqlFile('server/identity').batches[0], sig())).length, 0);
});

it('simple SELECTs: TOP, WHERE with IN / LIKE / IS NULL / AND / OR, ORDER BY, performance counters space padded', async () => {
  const { h, s } = setup();
  const r = rs(
    await h.sqlBatch(
      s,
      "SELECT TOP 3 wait_type AS w FROM sys.dm_os_wait_stats WHERE wait_type IN ('WRITELOG', 'LATCH_SH', 'CXPACKET') OR wait_type LIKE 'PAGEIO%' ORDER BY wait_type DESC",
      sig(),
    ),
  );
  assert.deepEqual(
    r.columns.map((c) => c.name),
    ['w'],
  );
  assert.deepEqual(
    r.rows.map((x) => x[0]),
    ['WRITELOG', 'PAGEIOLATCH_UP', 'PAGEIOLATCH_SH'],
  );
  const pc = rs(
    await h.sqlBatch(
      s,
      "SELECT object_name, counter_name FROM sys.dm_os_performance_counters WHERE counter_name = 'Batch Requests/sec'",
      sig(),
    ),
  );
  assert.equal((pc.rows[0][0] as string).length, 128);
  assert.deepEqual(pc.columns[0].sqlType, { type: 'nchar', length: 128 });
  const n = rs(await h.sqlBatch(s, 'SELECT name FROM sys.databases WHERE database_id > 2 AND name IS NOT NULL ORDER BY name', sig()));
  assert.deepEqual(
    n.rows.map((x) => x[0]),
    ['model', 'msdb'],
  );
});
