// Malformed and truncated input closes only the offending connection (with a log line); 128 concurrent sessions.

import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { startTestServer, TestServer } from '../helpers/tdsServer';
import { RawTdsClient } from '../helpers/rawTds';

describe('TDS robustness', () => {
  let t: TestServer;
  let pool: sql.ConnectionPool;
  before(async () => {
    t = await startTestServer();
    pool = await t.pool();
  });
  after(async () => {
    await t.close();
  });

  async function assertServerAlive(): Promise<void> {
    assert.equal((await pool.request().query('alive?')).recordset[0].text, 'alive?');
  }

  const cases: Array<[string, (c: RawTdsClient) => Promise<void>, RegExp]> = [
    ['garbage bytes', async (c) => c.write(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')), /unknown packet type/],
    ['a packet length below the header size', async (c) => c.write(Buffer.from([0x12, 0x01, 0x00, 0x04, 0, 0, 0, 0])), /bad packet length/],
    [
      'a PRELOGIN with a lying option table',
      async (c) => c.sendPacket(0x12, Buffer.from([0x00, 0x00, 0x40, 0x00, 0x06, 0xff])),
      /PRELOGIN option points past/,
    ],
    [
      'a truncated LOGIN7',
      async (c) => {
        await c.prelogin();
        c.sendPacket(0x10, RawTdsClient.login7('sa', 'pw').subarray(0, 60));
      },
      /LOGIN7 too short/,
    ],
    [
      'a LOGIN7 whose fields point past the end',
      async (c) => {
        await c.prelogin();
        const login = RawTdsClient.login7('sa', 'pw');
        login.writeUInt16LE(0xfff0, 40); // ibUserName
        c.sendPacket(0x10, login);
      },
      /points past the payload/,
    ],
    [
      'a truncated RPC after login',
      async (c) => {
        await c.prelogin();
        await c.login();
        // sp_executesql by id, one parameter '@' of type INTN(4) that claims 4 value bytes but carries 1.
        const body = [0xff, 0xff, 10, 0, 0, 0, 1, 0x40, 0x00, 0x00, 0x26, 4, 4, 1];
        const rpc = Buffer.concat([RawTdsClient.sqlBatch('').subarray(0, 22), Buffer.from(body)]);
        c.sendPacket(0x03, rpc);
      },
      /truncated payload/,
    ],
    [
      'a batch with a bad ALL_HEADERS length',
      async (c) => {
        await c.prelogin();
        await c.login();
        c.sendPacket(0x01, Buffer.from([0xff, 0xff, 0, 0, 0x41, 0]));
      },
      /bad ALL_HEADERS length/,
    ],
    [
      'a request before login',
      async (c) => {
        await c.prelogin();
        c.sendPacket(0x01, RawTdsClient.sqlBatch('select 1'));
      },
      /expected LOGIN7/,
    ],
  ];

  for (const [name, send, logPattern] of cases) {
    it(`closes the connection on ${name} and keeps serving others`, async () => {
      const before = t.logs.length;
      const c = await RawTdsClient.connect(t.port);
      await send(c);
      assert.ok(await c.waitClosed(), 'server closed the connection');
      const lines = t.logs.slice(before);
      assert.ok(
        lines.some((l) => logPattern.test(l)),
        `log lines: ${JSON.stringify(lines)}`,
      );
      await assertServerAlive();
    });
  }

  it('answers an RPC parameter of an unknown type with error 8009 and keeps the connection', async () => {
    const c = await RawTdsClient.connect(t.port);
    await c.prelogin();
    await c.login();
    const body = [0xff, 0xff, 10, 0, 0, 0, 1, 0x40, 0x00, 0x00, 0xf3, 0, 0, 0];
    c.sendPacket(0x03, Buffer.concat([RawTdsClient.sqlBatch('').subarray(0, 22), Buffer.from(body)]));
    const reply = await c.readMessage();
    assert.equal(reply.payload[0], 0xaa, 'ERROR token');
    assert.equal(reply.payload.readInt32LE(3), 8009);
    assert.match(reply.payload.toString('utf16le', 11), /Data type 0xF3 is unknown/);
    c.sendPacket(0x01, RawTdsClient.sqlBatch('next'));
    assert.equal((await c.readMessage()).payload[0], 0x81, 'COLMETADATA: the session still works');
    c.close();
  });

  it('survives a client that disconnects mid-packet and mid-call', async () => {
    const c = await RawTdsClient.connect(t.port);
    await c.prelogin();
    await c.login();
    c.sendPacket(0x01, RawTdsClient.sqlBatch('waitfor 2000'));
    await new Promise((r) => setTimeout(r, 50));
    c.write(Buffer.from([0x01, 0x00, 0x10])); // start of another header, then vanish
    c.close();
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(t.handler.aborted.length >= 1, 'the in-flight call was aborted when the client vanished');
    await assertServerAlive();
  });

  it('serves 128 concurrent connections doing calls', async () => {
    const big = await t.pool({ pool: { max: 128, min: 0, idleTimeoutMillis: 30000 } });
    const started = Date.now();
    // Each call holds its session for 1.5 s (longer than 128 logins take on a loaded 2-core machine, so no call ends
    // before the last connects and frees its session for another), so 128 in parallel need 128 sessions.
    const results = await Promise.all(Array.from({ length: 128 }, (_, i) => big.request().input('i', sql.Int, i).query('waitfor 1500')));
    assert.equal(results.length, 128);
    for (const r of results) assert.equal(r.recordset[0].waited, 1500);
    assert.ok(t.server.sessions().length >= 128, `sessions: ${t.server.sessions().length}`);
    const spids = new Set(t.server.sessions().map((s) => s.spid));
    assert.equal(spids.size, t.server.sessions().length, 'distinct spids');
    // In parallel, not one after another (128 x 1.5 s would be 192 s).
    assert.ok(Date.now() - started < 30_000, `${Date.now() - started} ms`);
    // And then many quick calls over those sessions.
    const quick = await Promise.all(Array.from({ length: 1000 }, (_, i) => big.request().query(`q${i}`)));
    assert.equal(quick[999].recordset[0].text, 'q999');
    await big.close();
  });
});
