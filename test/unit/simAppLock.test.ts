// The simulator's application locks (sql/lab/lock-*.sql through the model, and the lock table itself): granted or -1
// at once, re-entrant with a count, released by sp_releaseapplock or with the session, scoped to the database,
// SQL Server's return codes and messages for the calls it refuses, and the holder as sys.dm_tran_locks shows it.
import assert from 'node:assert/strict';
import { ManualClock } from '../../tools/sim/model/clock';
import { ModelHandler } from '../../tools/sim/model/handler';
import { SimModel } from '../../tools/sim/model/instance';
import { getAppLock, releaseAppLock } from '../../tools/sim/model/applocks';
import { loadSqlFile } from '../../src/db/sqlFiles';
import type { ResponseItem, ResultSet, RpcParam, ServerMessage, SessionContext } from '../../tools/sim/tds/contract';

const sig = () => new AbortController().signal;
const p = (name: string, value: RpcParam['value']): RpcParam => ({
  name,
  value,
  sqlType: { type: 'nvarchar', length: 4000 },
  output: false,
});
const rs = (items: ResponseItem[]) => items.find((x) => x.kind === 'resultSet') as ResultSet;
const errors = (items: ResponseItem[]) => items.filter((x) => x.kind === 'error') as ServerMessage[];

function setup() {
  const model = new SimModel({
    password: 'pw',
    clock: new ManualClock(),
    seed: 7,
    logins: [{ name: 'peek', password: 'x', permissions: [] }],
  });
  const h = new ModelHandler(model);
  // The wire sessions as the TDS server lists them to the model (simulator.ts): sys.dm_exec_sessions' client columns.
  const live: SessionContext[] = [];
  model.connections = { list: () => live.map((s) => ({ ...s })), kill: () => false };
  const open = (spid: number, login = 'sa', database = 'master'): SessionContext => {
    model.sessionStarted(spid, login);
    const s: SessionContext = {
      spid,
      login,
      appName: 'Spinlock Lab',
      hostName: `host${spid}`,
      clientPid: 1000 + spid,
      encrypted: false,
      database,
      state: new Map(),
    };
    live.push(s);
    return s;
  };
  const run = (s: SessionContext, id: string, params: Record<string, RpcParam['value']>) => {
    const f = loadSqlFile(id);
    return h.rpc(
      s,
      'sp_executesql',
      [p('@stmt', f.batches[0]), p('@params', f.parameters), ...Object.entries(params).map(([k, v]) => p(`@${k}`, v))],
      sig(),
    );
  };
  const take = async (s: SessionContext, resource: string, mode = 'Exclusive') =>
    rs(await run(s, 'lab/lock-take', { resource, mode })).rows[0][0];
  const mode = async (s: SessionContext, resource: string) => rs(await run(s, 'lab/lock-mode', { resource })).rows[0][0];
  const holders = async (s: SessionContext, resource: string) => rs(await run(s, 'lab/lock-holder', { resource })).rows;
  return { model, h, open, run, take, mode, holders };
}

it('lab/lock-take: granted (0) to one session, -1 at once to another; re-entrant with a count; released by sp_releaseapplock', async () => {
  const { open, run, take, mode } = setup();
  const a = open(51);
  const b = open(52);
  assert.equal(await take(a, 'spinlab:lab:x'), 0);
  assert.equal(await take(b, 'spinlab:lab:x'), -1, 'timeout 0: refused at once');
  assert.equal(await mode(a, 'spinlab:lab:x'), 'Exclusive');
  assert.equal(await mode(b, 'spinlab:lab:x'), 'NoLock');
  assert.equal(await take(a, 'spinlab:lab:x'), 0, 'the holder asks again: granted, counted');
  assert.equal(rs(await run(a, 'lab/lock-release', { resource: 'spinlab:lab:x' })).rows[0][0], 0);
  assert.equal(await take(b, 'spinlab:lab:x'), -1, 'still held once');
  assert.equal(rs(await run(a, 'lab/lock-release', { resource: 'spinlab:lab:x' })).rows[0][0], 0);
  assert.equal(await take(b, 'spinlab:lab:x'), 0);
  assert.equal(await take(a, 'spinlab:lab:X'), 0, 'names are binary compared: another resource');
});

it('Shared is compatible with Shared and not with Exclusive; the mode held is the union of the requests', async () => {
  const { open, take, mode } = setup();
  const a = open(51);
  const b = open(52);
  assert.equal(await take(a, 'r', 'Shared'), 0);
  assert.equal(await take(b, 'r', 'Shared'), 0);
  assert.equal(await take(b, 'r', 'Exclusive'), -1, 'a conversion blocked by the other Shared holder');
  assert.equal(await mode(b, 'r'), 'Shared');
  const c = open(53);
  assert.equal(await take(c, 'q', 'Shared'), 0);
  assert.equal(await take(c, 'q', 'Exclusive'), 0);
  assert.equal(await mode(c, 'q'), 'Exclusive');
});

it('a session that ends (logout, lost connection, KILL) releases its locks; a new session with its id holds nothing', async () => {
  const { h, open, take } = setup();
  const a = open(51);
  const b = open(52);
  assert.equal(await take(a, 'r'), 0);
  h.sessionEnded(a);
  const again = open(51);
  assert.equal(await take(b, 'r'), 0);
  assert.equal(await take(again, 'r'), -1, 'the reused session id is not the old owner');
});

it('releasing a lock not held: -999 with Msg 1223; locks are per database', async () => {
  const { open, run, take, model } = setup();
  const a = open(51);
  const r = await run(a, 'lab/lock-release', { resource: 'nope' });
  assert.equal(rs(r).rows[0][0], -999);
  assert.deepEqual(
    errors(r).map((e) => [e.number, e.class]),
    [[1223, 16]],
  );
  assert.equal(
    errors(r)[0].message,
    "Cannot release the application lock (Database Principal: 'public', Resource: 'nope') because it is not currently held.",
  );
  model.createDatabase('other');
  const elsewhere = open(52, 'sa', 'other');
  assert.equal(await take(a, 'r'), 0);
  assert.equal(await take(elsewhere, 'r'), 0, 'the same name in another database is another resource');
});

it('lab/lock-holder names the holder (host, client pid, login time), not the caller; without VIEW SERVER STATE nobody', async () => {
  const { open, take, holders } = setup();
  const a = open(51);
  const b = open(52);
  const peek = open(53, 'peek');
  const long = `spinlab:lab:${'0123456789abcdef'}`;
  assert.equal(await take(a, long), 0);
  const rows = await holders(b, long);
  assert.equal(rows.length, 1);
  assert.deepEqual(rows[0].slice(0, 6), [51, 'X', 'host51', 1051, 'Spinlock Lab', 'sa']);
  assert.ok(rows[0][6] instanceof Date);
  assert.deepEqual(await holders(a, long), [], "the caller's own lock is left out");
  assert.deepEqual(await holders(peek, long), [], "other sessions' locks are not visible without VIEW SERVER STATE");
  assert.deepEqual(await holders(b, 'spinlab:lab:fedcba9876543210'), []);
});

it('refused calls: a bad mode (1225), no resource (1224), an unknown owner (15625), a transaction lock outside a transaction (15626)', async () => {
  const { model, open } = setup();
  const s = open(51);
  const base = { resource: 'r', mode: 'Exclusive', owner: 'Session', timeoutMs: 0, principal: 'public' };
  for (const [args, number] of [
    [{ mode: 'Bogus' }, 1225],
    [{ resource: null }, 1224],
    [{ owner: 'Bogus' }, 15625],
    [{ owner: 'Transaction' }, 15626],
  ] as const) {
    const r = await getAppLock(model, s, { ...base, ...args }, sig());
    assert.equal(r.result, -999);
    assert.deepEqual(
      r.messages.map((m) => m.number),
      [number],
    );
  }
  assert.equal(releaseAppLock(model, s, { resource: 'r', owner: 'Bogus', principal: 'public' }).messages[0].number, 15625);
});

it('a request with a timeout waits for the holder and returns 1 once granted; a cancelled wait returns -2', async () => {
  const { model, h, open } = setup();
  const a = open(51);
  const b = open(52);
  const base = { resource: 'r', mode: 'Exclusive', owner: 'Session', principal: 'public' };
  assert.equal((await getAppLock(model, a, { ...base, timeoutMs: 0 }, sig())).result, 0);
  const waiting = getAppLock(model, b, { ...base, timeoutMs: 60_000 }, sig());
  h.sessionEnded(a);
  assert.equal((await waiting).result, 1);
  const ac = new AbortController();
  const c = open(53);
  const cancelled = getAppLock(model, c, { ...base, timeoutMs: -1 }, ac.signal);
  ac.abort();
  assert.equal((await cancelled).result, -2);
});
