// ATTENTION (request.cancel()) while the handler is busy, and the RESETCONNECTION bit.

import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { Request as TediousRequest } from 'tedious';
import { startTestServer, TestServer, tediousConnect } from '../helpers/tdsServer';
import { sleep } from '../helpers/common';
import { RawTdsClient } from '../helpers/rawTds';

describe('TDS attention and reset', () => {
  let t: TestServer;
  let pool: sql.ConnectionPool;
  before(async () => {
    t = await startTestServer();
    pool = await t.pool();
  });
  after(async () => {
    await t.close();
  });

  it('cancels a long batch promptly and the connection stays usable', async () => {
    const spid = (await pool.request().query('select @@spid')).recordset[0].spid;
    const req = pool.request();
    const started = Date.now();
    const running = req.query('waitfor 5000');
    await sleep(200);
    assert.equal(t.server.sessions().find((s) => s.spid === spid)?.state, 'busy');
    req.cancel();
    await assert.rejects(running, (err: sql.RequestError) => {
      assert.equal(err.code, 'ECANCEL');
      return true;
    });
    const took = Date.now() - started;
    assert.ok(took < 1500, `cancel took ${took} ms`);
    assert.ok(t.handler.aborted.includes(spid), 'the handler saw its AbortSignal fire');
    const again = await pool.request().query('select @@spid');
    assert.equal(again.recordset[0].spid, spid, 'same session after the cancel');
    assert.equal(t.server.sessions().find((s) => s.spid === spid)?.state, 'idle');
  });

  it('cancels an RPC the same way', async () => {
    const req = pool.request();
    req.input('ms', sql.Int, 4000);
    const running = req.execute('dbo.slow');
    await sleep(150);
    const started = Date.now();
    req.cancel();
    await assert.rejects(running, (err: sql.RequestError) => err.code === 'ECANCEL');
    assert.ok(Date.now() - started < 1000);
    assert.equal((await pool.request().query('after rpc cancel')).recordset[0].text, 'after rpc cancel');
  });

  it('cancels while a reply is held back by the response-delay fault', async () => {
    // Raw tedious: mssql's pool would first run its (equally delayed) validation query.
    const conn = await tediousConnect(t.port);
    t.server.faults.setResponseDelay(3000);
    try {
      const started = Date.now();
      const done = new Promise<Error | undefined>((resolve) => {
        const r = new TediousRequest('delayed', (err) => resolve(err ?? undefined));
        conn.execSql(r);
        setTimeout(() => conn.cancel(), 150);
      });
      const err = await done;
      assert.equal((err as { code?: string } | undefined)?.code, 'ECANCEL');
      assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
    } finally {
      t.server.faults.setResponseDelay(0);
      conn.close();
    }
  });

  it('acknowledges an ATTENTION that arrives when nothing is running', async () => {
    const raw = await RawTdsClient.connect(t.port);
    await raw.prelogin();
    await raw.login();
    raw.sendPacket(0x06, Buffer.alloc(0));
    const ack = await raw.readMessage();
    assert.equal(ack.payload[0], 0xfd);
    assert.equal(ack.payload.readUInt16LE(1) & 0x20, 0x20, 'DONE with the attention bit');
    raw.close();
  });

  it('calls resetConnection when the RESETCONNECTION bit is set (tedious reset) and acks it', async () => {
    const conn = await tediousConnect(t.port);
    const spid = await new Promise<number>((resolve, reject) => {
      let v = 0;
      const r = new TediousRequest('select @@spid', (err) => (err ? reject(err) : resolve(v)));
      r.on('row', (cols) => (v = cols[0].value));
      conn.execSql(r);
    });
    let acked = false;
    conn.on('resetConnection', () => (acked = true));
    const before = t.handler.resets.length;
    await new Promise<void>((resolve, reject) => conn.reset((err) => (err ? reject(err) : resolve())));
    assert.equal(t.handler.resets.length, before + 1);
    assert.equal(t.handler.resets.at(-1), spid);
    assert.ok(acked, 'ENVCHANGE RESETCONNECTION ack received');
    conn.close();
  });

  it('keeps the same session across mssql pool reuse', async () => {
    const a = (await pool.request().query('select @@spid')).recordset[0].spid;
    const b = (await pool.request().query('select @@spid')).recordset[0].spid;
    assert.equal(a, b);
  });
});
