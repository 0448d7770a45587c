// PRELOGIN, TLS and LOGIN7 through the real driver (mssql over tedious) and a raw client.

import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { Connection as TediousConnection } from 'tedious';
import { startTestServer, TestServer } from '../helpers/tdsServer';
import { sleep } from '../helpers/common';
import { RawTdsClient } from '../helpers/rawTds';

describe('TDS login', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('logs in without encryption and lists the session', async () => {
    const pool = await t.pool();
    const r = await pool.request().query('select @@spid');
    const spid = r.recordset[0].spid as number;
    assert.ok(spid >= 51, `spid ${spid} should be >= 51`);
    const s = t.server.sessions().find((x) => x.spid === spid);
    assert.ok(s, 'session listed');
    assert.equal(s.login, 'sa');
    assert.equal(s.appName, 'node-mssql');
    assert.equal(s.encrypted, false);
    assert.equal(s.state, 'idle');
    assert.equal(s.remoteAddress, '127.0.0.1');
    await pool.close();
  });

  it('negotiates TLS when the client asks and trusts the certificate', async () => {
    const pool = await t.pool({ options: { encrypt: true, trustServerCertificate: true } });
    const r = await pool.request().query('select @@spid');
    const s = t.server.sessions().find((x) => x.spid === r.recordset[0].spid);
    assert.equal(s?.encrypted, true);
    const types = await pool.request().query('big 2000'); // many packets through TLS records
    assert.equal(types.recordset.length, 2000);
    assert.equal(types.recordset[1999].s, 'row 1999');
    await pool.close();
  });

  it('fails with the self-signed certificate error when the client does not trust it', async () => {
    const pool = new sql.ConnectionPool(t.config({ options: { encrypt: true, trustServerCertificate: false } }));
    await assert.rejects(pool.connect(), (err: Error) => {
      assert.match(err.message, /self[- ]signed certificate/i);
      return true;
    });
    await pool.close().catch(() => undefined);
    // The server is unaffected.
    const ok = await t.pool();
    assert.equal((await ok.request().query('select @@spid')).recordset.length, 1);
    await ok.close();
  });

  it('rejects a bad password with error 18456 and closes the connection', async () => {
    const pool = new sql.ConnectionPool(t.config({ password: 'wrong' }));
    await assert.rejects(pool.connect(), (err: sql.ConnectionError) => {
      assert.equal(err.code, 'ELOGIN');
      assert.equal(err.message, "Login failed for user 'sa'.");
      return true;
    });
    await pool.close().catch(() => undefined);

    // Raw tedious shows the ERROR token's number and class.
    const conn = new TediousConnection({
      server: '127.0.0.1',
      authentication: { type: 'default', options: { userName: 'sa', password: 'nope' } },
      options: { port: t.port, encrypt: false, trustServerCertificate: true },
    });
    const seen: Array<{ number: number; class: number; state: number }> = [];
    conn.on('errorMessage', (m) => seen.push({ number: m.number, class: m.class, state: m.state }));
    const err = await new Promise<Error | undefined>((resolve) => conn.connect(resolve));
    assert.ok(err);
    assert.deepEqual(seen, [{ number: 18456, class: 14, state: 1 }]);
    conn.close();

    const raw = await RawTdsClient.connect(t.port);
    await raw.prelogin();
    const reply = await raw.login('sa', 'bad');
    assert.equal(reply.payload[0], 0xaa, 'ERROR token first');
    assert.ok(await raw.waitClosed(), 'server closes the connection after a failed login');
    await sleep(20);
    assert.equal(t.server.sessions().filter((s) => s.appName === 'raw-test').length, 0);
  });

  it('puts the SPID in packet headers and answers LOGIN7 like SQL Server', async () => {
    const raw = await RawTdsClient.connect(t.port);
    const pre = await raw.prelogin();
    assert.equal(pre.type, 0x04);
    assert.equal(pre.spid, 0, 'no SPID before login');
    const reply = await raw.login();
    const s = t.server.sessions().find((x) => x.appName === 'raw-test');
    assert.ok(s);
    assert.equal(reply.spid, s.spid, 'header SPID = session id');
    const text = reply.payload.toString('utf16le') + reply.payload.toString('utf16le', 1);
    assert.match(text, /Changed database context to 'master'\./);
    assert.match(text, /Microsoft SQL Server/);
    assert.ok(reply.payload.includes(0xad), 'LOGINACK present');
    // The last token is a final DONE.
    assert.equal(reply.payload[reply.payload.length - 13], 0xfd);
    raw.sendPacket(0x01, RawTdsClient.sqlBatch('hello'));
    const batch = await raw.readMessage();
    assert.equal(batch.spid, s.spid);
    raw.close();
  });

  it('hands out the lowest free SPID from 51 and reuses freed ones', async () => {
    const a = await RawTdsClient.connect(t.port);
    await a.prelogin();
    const ra = await a.login();
    const b = await RawTdsClient.connect(t.port);
    await b.prelogin();
    const rb = await b.login();
    assert.ok(ra.spid >= 51 && rb.spid >= 51 && ra.spid !== rb.spid);
    const freed = ra.spid;
    a.close();
    await sleep(50);
    const c = await RawTdsClient.connect(t.port);
    await c.prelogin();
    const rc = await c.login();
    assert.equal(rc.spid, freed);
    b.close();
    c.close();
  });
});
