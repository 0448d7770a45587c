// Wire-level faults: drop one session, refuse connections (real ECONNREFUSED), delay replies, drop everything.

import assert from 'node:assert/strict';
import * as net from 'node:net';
import * as sql from 'mssql';
import { Connection as TediousConnection, Request as TediousRequest } from 'tedious';
import { startTestServer, TestServer, tediousConnect } from '../helpers/tdsServer';
import { sleep } from '../helpers/common';

function tcpConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

function tediousQuery(conn: TediousConnection, text: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let v: unknown;
    const r = new TediousRequest(text, (err) => (err ? reject(err) : resolve(v)));
    r.on('row', (cols) => (v = cols[0].value));
    conn.execSql(r);
  });
}

describe('TDS wire faults', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('dropSession cuts one session mid-call; mssql reports a connection error; others are untouched', async () => {
    const victim = await t.pool();
    const bystander = await t.pool();
    const spid = (await victim.request().query('select @@spid')).recordset[0].spid;
    const other = (await bystander.request().query('select @@spid')).recordset[0].spid;
    assert.equal(t.server.faults.dropSession(spid, 150), true);
    const started = Date.now();
    await assert.rejects(victim.request().query('waitfor 3000'), (err: sql.RequestError) => {
      assert.match(String(err.code), /ECONNCLOSED|ECONNRESET|ESOCKET/);
      return true;
    });
    assert.ok(Date.now() - started < 2000);
    await sleep(20);
    assert.ok(!t.server.sessions().some((s) => s.spid === spid), 'dropped session is gone');
    assert.ok(t.handler.ended.includes(spid), 'sessionEnded called');
    assert.ok(t.handler.aborted.includes(spid), 'the in-flight call was aborted');
    assert.equal((await bystander.request().query('select @@spid')).recordset[0].spid, other);
    assert.equal(t.server.faults.dropSession(9999), false, 'unknown spid');
  });

  it('refuseConnections gives ECONNREFUSED, keeps live sessions, and listens again on the same port', async () => {
    // A raw tedious connection for the live session: on acquire, mssql's pool (tarn) also starts creating a
    // connection, and with the listener closed that create failure fails the request.
    const live = await tediousConnect(t.port);
    await t.server.faults.refuseConnections(true);
    try {
      assert.equal(await tcpConnect(t.port), 'ECONNREFUSED');
      // The driver's own view (tedious: one attempt; mssql's pool would retry until its acquire timeout).
      const conn = new TediousConnection({
        server: '127.0.0.1',
        authentication: { type: 'default', options: { userName: 'sa', password: 'pw' } },
        options: { port: t.port, encrypt: false, connectTimeout: 3000 },
      });
      type RefusedError = { cause?: { errors?: Array<{ code?: string }> } };
      const err = await new Promise<RefusedError>((resolve) => conn.connect((e) => resolve(e as unknown as RefusedError)));
      assert.ok(err, 'connect fails');
      assert.deepEqual(
        err.cause?.errors?.map((e) => e.code),
        ['ECONNREFUSED'],
      );
      assert.equal(await tediousQuery(live, 'still here'), 'still here');
    } finally {
      await t.server.faults.refuseConnections(false);
      live.close();
    }
    assert.equal(t.server.address.port, t.port);
    const again = await t.pool();
    assert.equal((await again.request().query('back')).recordset[0].text, 'back');
  });

  it('setResponseDelay holds every reply back measurably', async () => {
    const p = await t.pool();
    await p.request().query('warm');
    const time = async () => {
      const s = Date.now();
      await p.request().batch('timed');
      return Date.now() - s;
    };
    const fast = await time();
    t.server.faults.setResponseDelay(250);
    let slow: number;
    try {
      slow = await time();
    } finally {
      t.server.faults.setResponseDelay(0);
    }
    assert.ok(slow >= 240, `delayed call took ${slow} ms`);
    assert.ok(fast < 200, `undelayed call took ${fast} ms`);
    assert.ok((await time()) < 200, 'delay removed');
  });

  it('dropAll drops every connection (an instance restart) and clients can reconnect', async () => {
    const pools = await Promise.all([t.pool(), t.pool(), t.pool()]);
    for (const p of pools) await p.request().query('up');
    const before = t.server.sessions().length;
    assert.ok(before >= 3);
    assert.equal(t.server.faults.dropAll(), before);
    await sleep(50);
    assert.equal(t.server.sessions().length, 0);
    // mssql's pool notices the dead connection and opens a new one on the next request.
    const r = await pools[0]
      .request()
      .query('reconnected')
      .catch((e: Error) => e);
    const after = r instanceof Error ? await pools[0].request().query('reconnected') : r;
    assert.equal(after.recordset[0].text, 'reconnected');
  });
});
