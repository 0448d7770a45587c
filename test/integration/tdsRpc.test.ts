// Batches and RPCs: procedures by name and sp_executesql by id, OUTPUT parameters and return status, several result
// sets, errors and info messages, USE, transactions, handler failures.

import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { startTestServer, TestServer } from '../helpers/tdsServer';

describe('TDS batches and RPC', () => {
  let t: TestServer;
  let pool: sql.ConnectionPool;
  before(async () => {
    t = await startTestServer();
    pool = await t.pool();
  });
  after(async () => {
    await t.close();
  });

  it('runs a procedure by name with OUTPUT parameters and a return status', async () => {
    const req = pool.request();
    req.input('a', sql.Int, 5);
    req.input('label', sql.NVarChar(20), 'hello');
    req.output('doubled', sql.Int, 7);
    req.output('shout', sql.NVarChar(30), 'hey');
    const r = await req.execute('dbo.echo_params');
    assert.equal(r.returnValue, 42);
    assert.deepEqual(r.output, { doubled: 14, shout: 'hey!' });
    assert.deepEqual(r.recordset[0], { a: 5, label: 'hello', doubled: 7, shout: 'hey' });
    const call = t.handler.calls.at(-1)!;
    assert.equal(call.kind, 'rpc');
    assert.equal(call.text, 'dbo.echo_params');
    assert.deepEqual(
      call.params!.map((p) => [p.name, p.output]),
      [
        ['@a', false],
        ['@label', false],
        ['@doubled', true],
        ['@shout', true],
      ],
    );
  });

  it('sends parameterised queries as sp_executesql (well-known id 10)', async () => {
    const r = await pool.request().input('x', sql.Int, 3).query('echo');
    assert.deepEqual(r.recordset[0], { x: 3 });
    const call = t.handler.calls.at(-1)!;
    assert.equal(call.text, 'sp_executesql');
    assert.equal(call.params![0].value, 'echo');
    assert.equal(call.params![0].sqlType.type, 'nvarchar');
    assert.equal(call.params![1].value, '@x int');
    const plain = await pool.request().execute('dbo.no_status');
    assert.equal(plain.returnValue, 0, 'RETURNSTATUS 0 added when the model gives none');
  });

  it('returns several result sets and row counts from one batch', async () => {
    const r = await pool.request().query('multi');
    const sets = r.recordsets as unknown as sql.IRecordSet<Record<string, unknown>>[];
    assert.equal(sets.length, 3);
    assert.deepEqual(sets[0][0], { a: 1 });
    assert.deepEqual(
      sets[1].map((x) => x.b),
      ['x', 'y'],
    );
    assert.equal(sets[2].length, 0);
    assert.deepEqual(r.rowsAffected, [1, 3, 2, 0]);
  });

  it('reports errors (class 16) and info messages with number, state, class, line and procedure', async () => {
    const infos: Array<Record<string, unknown>> = [];
    const req = pool.request();
    req.on('info', (m) => infos.push(m));
    await assert.rejects(req.query('error'), (err: sql.RequestError & Record<string, unknown>) => {
      assert.equal(err.message, 'it failed');
      assert.equal(err.number, 50000);
      assert.equal(err.state, 2);
      assert.equal(err.class, 16);
      assert.equal(err.lineNumber, 8);
      assert.equal(err.procName, 'p_fail');
      assert.equal(err.serverName, 'SPINLAB-SIM');
      return true;
    });
    assert.equal(infos.length, 1);
    assert.equal(infos[0].message, 'about to fail');
    assert.equal(infos[0].number, 50001);
    assert.equal(infos[0].state, 3);
    assert.equal(infos[0].class, 0);
    assert.equal(infos[0].lineNumber, 7);

    const infoOnly: Array<Record<string, unknown>> = [];
    const ok = pool.request();
    ok.on('info', (m) => infoOnly.push(m));
    await ok.query('info');
    assert.deepEqual([infoOnly[0].number, infoOnly[0].class, infoOnly[0].message], [50002, 10, 'just saying']);
  });

  it('turns a throwing handler or an unencodable value into an error and keeps the session', async () => {
    await assert.rejects(pool.request().query('throw'), /handler exploded/);
    await assert.rejects(pool.request().query('bad value'), (err: sql.RequestError) => {
      assert.equal(err.number, 245);
      return true;
    });
    await assert.rejects(pool.request().execute('dbo.nope'), (err: sql.RequestError) => {
      assert.equal(err.number, 2812);
      assert.match(err.message, /Could not find stored procedure 'dbo.nope'/);
      return true;
    });
    const r = await pool.request().query('still alive');
    assert.equal(r.recordset[0].text, 'still alive');
  });

  it('changes database with an ENVCHANGE', async () => {
    await pool.request().batch('use tempdb');
    const r = await pool.request().query('select db_name()');
    assert.equal(r.recordset[0].db, 'tempdb');
    assert.equal(t.server.sessions()[0].database, 'tempdb');
    await pool.request().batch('use master');
  });

  it('maps transaction-manager requests onto T-SQL for the model', async () => {
    const tx = new sql.Transaction(pool);
    await tx.begin();
    await new sql.Request(tx).query('inside');
    await tx.commit();
    const tx2 = new sql.Transaction(pool);
    await tx2.begin();
    await tx2.rollback();
    // mssql's pool validates connections with 'SELECT 1;' on acquire; leave those out.
    const texts = t.handler.calls
      .map((c) => (c.kind === 'rpc' ? String(c.params?.[0]?.value) : c.text))
      .filter((x) => x !== 'SELECT 1;')
      .slice(-5);
    assert.deepEqual(texts, ['BEGIN TRANSACTION', 'inside', 'COMMIT TRANSACTION', 'BEGIN TRANSACTION', 'ROLLBACK TRANSACTION']);
  });
});
