// DDL executed by the simulator (tools/sim/model/ddl/): objects stored in its catalog with SQL Server's errors, and
// procedures whose calls are read from their stored bodies, so a renamed procedure behaves the same and a changed
// body (BEGIN TRANSACTION moved, another slot-number source) behaves differently.
import assert from 'node:assert/strict';
import { loadSqlFile } from '../../src/db/sqlFiles';
import { ManualClock } from '../../tools/sim/model/clock';
import { ModelHandler } from '../../tools/sim/model/handler';
import { SimModel } from '../../tools/sim/model/instance';
import type { WorkloadProfile } from '../../tools/sim/model/contention';
import type { ResponseItem, ResultSet, RpcParam, ServerMessage, SessionContext } from '../../tools/sim/tds/contract';

const sig = () => new AbortController().signal;
const errors = (items: ResponseItem[]) => (items.filter((x) => x.kind === 'error') as ServerMessage[]).map((e) => e.number);
const p = (name: string, value: RpcParam['value']): RpcParam => ({ name, value, sqlType: { type: 'bigint' }, output: false });

interface Call {
  table: string;
  profile: WorkloadProfile;
  target: { rows: number | null; durationMs: number | null; perCall?: boolean };
}

/** A model with a lab database (XTP filegroup and container added by DDL); runWorkload records what it was asked. */
async function setup(opts: { filegroup?: boolean; fake?: boolean } = {}) {
  const clock = new ManualClock();
  const model = new SimModel({ password: 'pw', clock, seed: 7 });
  const h = new ModelHandler(model);
  const s: SessionContext = { spid: 51, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: 'master', state: new Map() };
  model.sessionStarted(51, 'sa');
  const calls: Call[] = [];
  if (opts.fake !== false) {
    model.runWorkload = async (_s, _db, table, profile, target) => {
      calls.push({ table, profile, target });
      return { rows: target.rows ?? 1000, txns: 1, elapsedMs: 1, aborted: false };
    };
  }
  const run = async (sql: string) => errors(await h.sqlBatch(s, sql, sig()));
  assert.deepEqual(await run('CREATE DATABASE lab;'), []);
  await h.sqlBatch(s, 'USE lab', sig());
  if (opts.filegroup !== false) {
    assert.deepEqual(await run('ALTER DATABASE lab ADD FILEGROUP lab_xtp CONTAINS MEMORY_OPTIMIZED_DATA;'), []);
    assert.deepEqual(await run("ALTER DATABASE lab ADD FILE (NAME = lab_c, FILENAME = N'/x/lab_xtp') TO FILEGROUP lab_xtp;"), []);
  }
  return { model, h, s, run, calls, clock };
}

const DISK = loadSqlFile('scenarios/disk-insert/deploy').batches;
const INMEM = loadSqlFile('scenarios/inmem-insert/procs').batches;
const INMEM_TABLE = `CREATE TABLE dbo.spinlab_inmem_insert (c1 bigint NOT NULL,
  CONSTRAINT PK_i PRIMARY KEY NONCLUSTERED HASH (c1) WITH (BUCKET_COUNT = 1024)) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY);`;

it('a renamed procedure with the same body is called the same way; the name decides nothing', async () => {
  const { h, s, run, calls } = await setup();
  for (const b of DISK) assert.deepEqual(await run(b), []);
  assert.deepEqual(await run(DISK[2].replace(/spinlab_disk_insert_loop/g, 'my_own_loop')), []);
  const args = [p('@key_base', 1n), p('@rows', 5000n), p('@run_ms', null), p('@batch_size', 10n)];
  const a = await h.rpc(s, 'dbo.spinlab_disk_insert_loop', args, sig());
  const b = await h.rpc(s, 'dbo.my_own_loop', args, sig());
  assert.deepEqual(calls[0], calls[1]);
  assert.deepEqual(calls[0].profile, {
    engine: 'disk',
    access: 'interpreted',
    operation: 'insert',
    rowsPerTxn: 10,
    slotSource: 'none',
    tableDurability: 'SCHEMA_AND_DATA',
  });
  assert.deepEqual(calls[0].target, { rows: 5000, durationMs: null });
  assert.deepEqual((a[0] as ResultSet).rows, [[5000n]]);
  assert.deepEqual(
    (b[0] as ResultSet).columns.map((c) => c.name),
    ['rows_done'],
  );
});

it('moving BEGIN TRANSACTION inside the loop makes each row its own transaction', async () => {
  const { h, s, run, calls } = await setup();
  assert.deepEqual(await run(DISK[0]), []);
  assert.deepEqual(await run(DISK[1]), []);
  const moved = DISK[1]
    .replace('dbo.spinlab_disk_insert_batch', 'dbo.moved')
    .replace(/BEGIN TRANSACTION;\s*WHILE @j < @batch_size\s*BEGIN/, 'WHILE @j < @batch_size\nBEGIN\nBEGIN TRANSACTION;')
    .replace(/SET @j \+= 1;\s*END;\s*COMMIT TRANSACTION;/, 'SET @j += 1;\nCOMMIT TRANSACTION;\nEND;');
  assert.notEqual(moved, DISK[1]);
  assert.deepEqual(await run(moved), []);
  const args = [p('@key_base', 1n), p('@offset', 0n), p('@batch_size', 8n)];
  await h.rpc(s, 'dbo.spinlab_disk_insert_batch', args, sig());
  await h.rpc(s, 'dbo.moved', args, sig());
  assert.equal(calls[0].profile.rowsPerTxn, 8);
  assert.equal(calls[1].profile.rowsPerTxn, 1);
  assert.deepEqual(
    [calls[0].target, calls[1].target],
    [
      { rows: 8, durationMs: null, perCall: true },
      { rows: 8, durationMs: null, perCall: true },
    ],
  );
});

it('native or interpreted, memory-optimized and durability come from the body and the catalog; a server loop calls through EXEC', async () => {
  const { h, s, run, calls } = await setup();
  assert.deepEqual(await run(INMEM_TABLE), []);
  for (const b of INMEM) assert.deepEqual(await run(b), []);
  await h.rpc(
    s,
    'dbo.spinlab_inmem_insert_loop_native',
    [p('@key_base', 1n), p('@rows', null), p('@run_ms', 2000n), p('@batch_size', 4n)],
    sig(),
  );
  await h.rpc(s, 'dbo.spinlab_inmem_insert_interpreted', [p('@key_base', 1n), p('@offset', 0n), p('@batch_size', 3n)], sig());
  assert.deepEqual(
    calls.map((c) => [c.table, c.profile.engine, c.profile.access, c.profile.rowsPerTxn, c.profile.tableDurability, c.target.durationMs]),
    [
      ['dbo.spinlab_inmem_insert', 'xtp', 'native', 4, 'SCHEMA_ONLY', 2000],
      ['dbo.spinlab_inmem_insert', 'xtp', 'interpreted', 3, 'SCHEMA_ONLY', null],
    ],
  );
});

it('ring buffer: the slot-number source is what the body draws (a sequence or an IDENTITY table); a step in push-pop mode makes two operations', async () => {
  const { h, s, run, calls } = await setup();
  const slots =
    'CREATE TABLE dbo.slots (slot_key bigint NOT NULL PRIMARY KEY, message_id bigint NOT NULL, pushed_at datetime2(7) NOT NULL, message nvarchar(100) NOT NULL, reference_count int NOT NULL);';
  assert.deepEqual(await run(slots), []);
  assert.deepEqual(await run('CREATE SEQUENCE dbo.spinlab_ring_push_seq AS bigint START WITH 0 INCREMENT BY 1 NO CACHE;'), []);
  assert.deepEqual(await run('CREATE SEQUENCE dbo.spinlab_ring_pop_seq AS bigint START WITH 0 INCREMENT BY 1 CACHE 50;'), []);
  const seq = loadSqlFile('scenarios/ring-buffer/procs-sequence').batches.map((b) => b.replace(/dbo\.spinlab_ring_slots/g, 'dbo.slots'));
  for (const b of [...seq, ...loadSqlFile('scenarios/ring-buffer/procs-loop').batches]) assert.deepEqual(await run(b), []);
  const step = await h.rpc(
    s,
    'dbo.spinlab_ring_step',
    [p('@slots', 64n), { ...p('@mode', 'push-pop'), sqlType: { type: 'nvarchar', length: 16 } }],
    sig(),
  );
  assert.equal(calls[0].profile.slotSource, 'sequence');
  assert.equal(calls[0].profile.operation, 'push');
  assert.equal(calls[0].target.rows, 2);
  assert.deepEqual(
    step.find((x) => x.kind === 'outputValue'),
    { kind: 'outputValue', name: '@ops', sqlType: { type: 'int' }, value: 2 },
  );
  await h.rpc(s, 'dbo.spinlab_ring_step', [p('@slots', 64n), { ...p('@mode', 'push'), sqlType: { type: 'nvarchar', length: 16 } }], sig());
  assert.equal(calls[1].target.rows, 1);
  // The identity generator: an IDENTITY table read through SCOPE_IDENTITY().
  assert.deepEqual(await run('DROP PROCEDURE dbo.spinlab_ring_push, dbo.spinlab_ring_pop;'), []);
  const ids =
    'CREATE TABLE dbo.spinlab_ring_push_ids (id bigint IDENTITY(1, 1) NOT NULL PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 1024)) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY);';
  assert.deepEqual(await run(ids), []);
  assert.deepEqual(await run(ids.replace(/push_ids/g, 'pop_ids')), []);
  const ident = loadSqlFile('scenarios/ring-buffer/procs-disk-identity').batches.map((b) =>
    b.replace(/dbo\.spinlab_ring_slots/g, 'dbo.slots'),
  );
  for (const b of ident) assert.deepEqual(await run(b), []);
  await h.rpc(
    s,
    'dbo.spinlab_ring_loop',
    [p('@rows', 100n), p('@run_ms', null), p('@slots', 64n), { ...p('@mode', 'push'), sqlType: { type: 'nvarchar', length: 16 } }],
    sig(),
  );
  assert.deepEqual([calls[2].profile.slotSource, calls[2].profile.engine, calls[2].target.rows], ['identity', 'disk', 100]);
});

it('a body the analysis does not read is refused at call time, clearly', async () => {
  const { h, s, run } = await setup();
  assert.deepEqual(await run('CREATE TABLE dbo.t (a int NOT NULL);'), []);
  assert.deepEqual(await run('CREATE PROCEDURE dbo.upd @n int AS BEGIN UPDATE dbo.t SET a = @n; END;'), []);
  const r = await h.rpc(s, 'dbo.upd', [p('@n', 1n)], sig());
  assert.equal(errors(r)[0], 50000);
  assert.match((r[0] as ServerMessage).message, /slot number/);
});

it('DDL errors: 2714, 3701, 3705, 111, 41337 without a container, 3729 for a schema-bound table', async () => {
  const { run } = await setup({ filegroup: false });
  assert.deepEqual(await run('CREATE TABLE dbo.t (a int NOT NULL);'), []);
  assert.deepEqual(await run('CREATE TABLE t (a int);'), [2714]);
  assert.deepEqual(await run('DROP TABLE dbo.nope;'), [3701]);
  assert.deepEqual(await run('DROP TABLE IF EXISTS dbo.nope;'), []);
  assert.deepEqual(await run('CREATE PROCEDURE dbo.p AS BEGIN SELECT 1; END;'), []);
  assert.deepEqual(await run('DROP TABLE dbo.p;'), [3705]);
  assert.deepEqual(await run('SET NOCOUNT ON;\nCREATE PROCEDURE dbo.q AS BEGIN SELECT 1; END;'), [111]);
  assert.deepEqual(await run(INMEM_TABLE), [41337]);
  assert.deepEqual(await run('ALTER DATABASE lab ADD FILEGROUP fx CONTAINS MEMORY_OPTIMIZED_DATA;'), []);
  assert.deepEqual(await run(INMEM_TABLE), [41337], 'a filegroup without a container is not enough');
  assert.deepEqual(await run("ALTER DATABASE lab ADD FILE (NAME = c, FILENAME = N'/x/c') TO FILEGROUP nope;"), [1921]);
  assert.deepEqual(await run("ALTER DATABASE lab ADD FILE (NAME = c, FILENAME = N'/x/c') TO FILEGROUP fx;"), []);
  assert.deepEqual(await run(INMEM_TABLE), []);
  assert.deepEqual(await run(INMEM[0]), []);
  assert.deepEqual(await run('DROP TABLE dbo.spinlab_inmem_insert;'), [3729]);
  assert.deepEqual(await run('DROP PROCEDURE dbo.spinlab_inmem_insert_native; DROP TABLE dbo.spinlab_inmem_insert;'), []);
  assert.deepEqual(await run('CREATE DATABASE lab;'), [1801]);
  assert.deepEqual(await run('DROP DATABASE nope;'), [3701]);
});

it('ALTER DATABASE SET DELAYED_DURABILITY / RECOVERY and ALTER SERVER CONFIGURATION change the model', async () => {
  const { model, run } = await setup();
  assert.deepEqual(await run('ALTER DATABASE lab SET DELAYED_DURABILITY = FORCED;'), []);
  assert.equal(model.database('lab')!.delayedDurability, 'FORCED');
  assert.deepEqual(await run('ALTER DATABASE [lab] SET RECOVERY SIMPLE;'), []);
  assert.equal(model.database('lab')!.recovery, 'SIMPLE');
  assert.deepEqual(await run('ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = 2 TO 5, 8;'), []);
  assert.equal(model.onlineCpus().length, 5);
  assert.deepEqual(await run('ALTER SERVER CONFIGURATION SET PROCESS AFFINITY NUMANODE = 1;'), []);
  assert.equal(model.affinityForm, 'NUMANODE');
  assert.deepEqual(await run('ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = AUTO;'), []);
  assert.equal(model.onlineCpus().length, 40);
  assert.deepEqual(await run('ALTER DATABASE nope SET DELAYED_DURABILITY = FORCED;'), [5011]);
});

it('the lab files run as sent: create (SIMPLE, marked), add the XTP filegroup once, list tables, refuse to drop an unmarked database', async () => {
  const { model, h, s } = await setup({ filegroup: false });
  const nv = (name: string, value: string): RpcParam => ({ name, value, sqlType: { type: 'nvarchar', length: 4000 }, output: false });
  const file = async (id: string, args: Record<string, string>) => {
    const f = loadSqlFile(id);
    const params = [nv('@stmt', f.batches[0]), nv('@params', f.parameters), ...Object.entries(args).map(([k, v]) => nv(k, v))];
    return h.rpc(s, 'sp_executesql', params, sig());
  };
  assert.deepEqual(errors(await file('lab/create', { '@db': 'L2', '@mark': 'v1' })), []);
  const db = model.database('L2')!;
  assert.deepEqual([db.recovery, db.properties.get('SpinlockLab'), db.hasXtpFilegroup], ['SIMPLE', 'v1', false]);
  assert.deepEqual(errors(await file('lab/create', { '@db': 'L2', '@mark': 'v1' })), [50001]);
  assert.deepEqual(errors(await file('lab/add-xtp-filegroup', { '@db': 'L2' })), []);
  assert.equal(db.hasXtpFilegroup, true);
  assert.deepEqual(errors(await file('lab/add-xtp-filegroup', { '@db': 'L2' })), [], 'a second run finds the filegroup');
  const none = await file('lab/tables', { '@db': 'missing' });
  assert.deepEqual((none[0] as ResultSet).rows, []);
  assert.deepEqual(errors(await file('lab/drop', { '@db': 'lab' })), [50004]);
  assert.deepEqual(errors(await file('lab/drop', { '@db': 'L2' })), []);
  assert.equal(model.database('L2'), undefined);
});
