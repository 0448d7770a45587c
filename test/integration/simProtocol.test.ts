// The protocol as SQL Server speaks it, through tedious (mssql) and FreeTDS's tsql: prepared statements,
// transactions (transaction-manager requests and T-SQL), session statements, multi-statement batches, PRINT and
// RAISERROR, SQL Server's error numbers and the types of literals and SERVERPROPERTY.
import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { connect, runFile, SIM_PASSWORD, withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { selfSignedCert } from '../../tools/sim/tds/cert';
import { Request as TediousRequest, TYPES } from 'tedious';
import { Encrypt, parsePrelogin } from '../../tools/sim/tds/prelogin';
import { RawTdsClient } from '../helpers/rawTds';
import { requireTsql, runTsql } from '../helpers/tsql';

describe('simulator protocol (tedious)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let pool: sql.ConnectionPool;
  let stop: () => void;
  before(async () => {
    await new Promise<void>((ready) => {
      void withSim({}, async (s) => {
        sim = s;
        pool = await connect(s);
        await runFile(pool, 'lab/create', { db: [sql.NVarChar(128), 'SpinlockLab'], mark: [sql.NVarChar(256), 'spinlab v1'] });
        const lab = await connect(s, 'sa', SIM_PASSWORD, 'SpinlockLab');
        await runFile(lab, 'lab/common');
        for (let b = 0; b < 3; b++) await runFile(lab, 'scenarios/disk-insert/deploy', {}, b);
        await lab.close();
        await new Promise<void>((done) => {
          stop = done;
          ready();
        });
        await pool.close();
      });
    });
  });
  after(() => stop());

  it('runs tedious prepared statements (sp_prepare, sp_execute, sp_unprepare)', async () => {
    const ps = new sql.PreparedStatement(pool);
    ps.input('n', sql.Int);
    await ps.prepare('SELECT @n + 1 AS next');
    const a = await ps.execute({ n: 1 });
    const b = await ps.execute({ n: 41 });
    await ps.unprepare();
    assert.equal(a.recordset[0].next, 2);
    assert.equal(b.recordset[0].next, 42);
  });

  it('answers an unknown prepared handle with Msg 8179', async () => {
    const err = await pool
      .request()
      .input('h', sql.Int, 999)
      .query('EXEC sp_execute @h')
      .catch((e) => e);
    assert.equal(err.number ?? err.originalError?.info?.number, 8179);
  });

  it('keeps @@TRANCOUNT through transaction-manager requests and T-SQL', async () => {
    const tx = new sql.Transaction(pool);
    await tx.begin();
    const inside = await new sql.Request(tx).query('SELECT @@TRANCOUNT AS t');
    const nested = await new sql.Request(tx).query('BEGIN TRAN; SELECT @@TRANCOUNT AS t; COMMIT; SELECT @@TRANCOUNT AS u');
    await tx.commit();
    const afterCommit = await pool.request().query('SELECT @@TRANCOUNT AS t');
    assert.equal(inside.recordset[0].t, 1);
    const nestedSets = nested.recordsets as unknown as Array<Array<Record<string, number>>>;
    assert.equal(nestedSets[0][0].t, 2);
    assert.equal(nestedSets[1][0].u, 1);
    assert.equal(afterCommit.recordset[0].t, 0);
    const tx2 = new sql.Transaction(pool);
    await tx2.begin();
    await tx2.rollback();
  });

  it('opens implicit transactions, and answers COMMIT without BEGIN with Msg 3902', async () => {
    const r = await pool
      .request()
      .query(
        'SET IMPLICIT_TRANSACTIONS ON; SELECT @@TRANCOUNT AS a; SELECT name FROM sys.databases; SELECT @@TRANCOUNT AS b; ROLLBACK; SET IMPLICIT_TRANSACTIONS OFF; SELECT @@TRANCOUNT AS c',
      );
    const sets = r.recordsets as unknown as Array<Array<Record<string, number>>>;
    assert.equal(sets[0][0].a, 0);
    assert.equal(sets[2][0].b, 1, 'a SELECT from a table opens the implicit transaction');
    assert.equal(sets[3][0].c, 0);
    const e = await pool
      .request()
      .query('COMMIT')
      .catch((x) => x);
    assert.equal(e.number ?? e.originalError?.info?.number, 3902);
  });

  it('binds procedure parameters sent without names by position, and reports 201 for a missing one', async () => {
    const r = await pool.request().query('USE SpinlockLab; EXEC dbo.spinlab_disk_insert_loop 7000000, 3, NULL, 1');
    assert.ok(Number(r.recordset[0].rows_done) >= 3);
    const e = await pool
      .request()
      .query('USE SpinlockLab; EXEC dbo.spinlab_disk_insert_loop 7000000')
      .catch((x) => x);
    assert.equal(e.number ?? e.originalError?.info?.number, 201);
    assert.match(e.message, /expects parameter '@rows', which was not supplied/);
    await pool.request().query('USE master');
  });

  it('runs multi-statement batches with SET, PRINT and RAISERROR (INFO for severity <= 10)', async () => {
    const infos: Array<{ number: number; class: number; message: string }> = [];
    const req = pool.request();
    req.on('info', (i: { number: number; class: number; message: string }) => infos.push(i));
    const r = await req.query(
      "SET NOCOUNT ON; SET ANSI_NULLS ON; SET TEXTSIZE 2147483647; SET LOCK_TIMEOUT 5000; SET DEADLOCK_PRIORITY LOW; SET TRANSACTION ISOLATION LEVEL SNAPSHOT; SET FMTONLY OFF; SELECT 1 AS one; PRINT 'hello'; RAISERROR('at %d', 10, 1, 7); SELECT 2 AS two",
    );
    const sets = r.recordsets as unknown as Array<Array<Record<string, number>>>;
    assert.equal(sets[0][0].one, 1);
    assert.equal(sets[1][0].two, 2);
    assert.deepEqual(
      infos.map((i) => [i.number, i.class, i.message]),
      [
        [0, 0, 'hello'],
        [50000, 0, 'at 7'],
      ],
    );
    const e = await pool
      .request()
      .query("RAISERROR('bad %s', 16, 1, 'thing')")
      .catch((x) => x);
    assert.equal(e.number ?? e.originalError?.info?.number, 50000);
    assert.equal(e.class ?? e.originalError?.info?.class, 16);
    assert.match(e.message, /bad thing/);
  });

  it('sends no DONEINPROC for a statement without rows under SET NOCOUNT ON in an RPC; a result set keeps its own', async () => {
    // One sp_executesql (an RPC): with NOCOUNT ON, SQL Server ends only the SELECT in a DONEINPROC (its count bit
    // off); with it OFF, the INSERTs end in DONEINPROCs carrying their counts too.
    // mssql's pool hands out its tedious connections (acquire/release are not in its typings).
    const raw = pool as unknown as { acquire(o: unknown): Promise<{ execSql(r: TediousRequest): void }>; release(c: unknown): void };
    const conn = await raw.acquire(pool);
    const dones = (text: string) =>
      new Promise<Array<number | undefined>>((resolve, reject) => {
        const seen: Array<number | undefined> = [];
        const req = new TediousRequest(text, (err) => (err ? reject(err) : resolve(seen)));
        req.addParameter('n', TYPES.Int, 5);
        req.on('doneInProc', (rowCount: number | undefined) => seen.push(rowCount));
        conn.execSql(req);
      });
    const body =
      'CREATE TABLE #nc (a int); INSERT INTO #nc (a) VALUES (@n); INSERT INTO #nc (a) VALUES (@n + 1); SELECT a FROM #nc; DROP TABLE #nc';
    try {
      assert.deepEqual(await dones(`SET NOCOUNT ON; ${body}`), [undefined]);
      assert.deepEqual(await dones(`SET NOCOUNT OFF; ${body}`), [1, 1, 2]);
    } finally {
      raw.release(conn);
    }
  });

  it('reports SQL Server error numbers and classes', async () => {
    const num = async (q: string) => {
      const e = await pool
        .request()
        .query(q)
        .catch((x) => x);
      return [e.number ?? e.originalError?.info?.number, e.class ?? e.originalError?.info?.class];
    };
    assert.deepEqual(await num('SELECT FROM sys.databases'), [156, 15]);
    assert.deepEqual(await num('SELECT 1,'), [102, 15]);
    assert.deepEqual(await num('SET NO_SUCH_OPTION ON'), [195, 15]);
    assert.deepEqual(await num('COMMIT TRAN extra words'), [102, 15]);
    assert.deepEqual(await num("SELECT 'unclosed"), [105, 15]);
    assert.deepEqual(await num('EXEC dbo.nope'), [2812, 16]);
    assert.deepEqual(await num('SELECT * FROM sys.no_such_view'), [208, 16]);
    assert.deepEqual(await num('SELECT no_such_column FROM sys.dm_os_spinlock_stats'), [207, 16]);
  });

  it('types literals, CAST to decimal and SERVERPROPERTY (sql_variant) as SQL Server does', async () => {
    const r = await pool
      .request()
      .query(
        "SELECT 1 AS i, 1.5 AS n, 'abc' AS v, N'abc' AS nv, 3000000000 AS big, CAST(2.25 AS decimal(5,2)) AS d, SERVERPROPERTY('ProductVersion') AS pv, SERVERPROPERTY('EngineEdition') AS ee",
      );
    const c = r.recordset.columns as unknown as Record<
      string,
      { type: { name: string }; precision?: number; scale?: number; length?: number; nullable: boolean }
    >;
    assert.equal(c.i.type.name, 'Int');
    assert.equal(c.i.nullable, false, 'SELECT 1 is a NOT NULL int');
    assert.deepEqual([c.n.type.name, c.n.precision, c.n.scale], ['Decimal', 2, 1]);
    assert.deepEqual([c.v.type.name, c.v.length], ['VarChar', 3]);
    assert.deepEqual([c.nv.type.name, c.nv.length], ['NVarChar', 6], 'nvarchar(3): 6 bytes on the wire');
    assert.deepEqual([c.big.type.name, c.big.precision, c.big.scale], ['Decimal', 10, 0]);
    assert.deepEqual([c.d.type.name, c.d.precision, c.d.scale], ['Decimal', 5, 2]);
    assert.equal(c.pv.type.name, 'Variant');
    const row = r.recordset[0];
    assert.equal(row.n, 1.5);
    assert.equal(row.big, 3000000000);
    assert.equal(row.d, 2.25);
    assert.match(String(row.pv), /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(row.ee, 3);
  });

  it('accepts TDS 8 strict encryption (TLS first, ALPN tds/8.0)', async () => {
    // Strict encryption always verifies the certificate: trust the simulator's self-signed one.
    const { cert } = await selfSignedCert();
    const strict = await new sql.ConnectionPool({
      server: sim.host,
      port: sim.port,
      user: 'sa',
      password: SIM_PASSWORD,
      options: { encrypt: 'strict' as unknown as boolean, cryptoCredentialsDetails: { ca: cert } } as sql.config['options'],
    }).connect();
    try {
      const r = await strict.request().query('SELECT @@SPID AS spid');
      const conn = sim.server.connections().find((c) => c.spid === r.recordset[0].spid);
      assert.equal(conn?.encrypted, true);
    } finally {
      await strict.close();
    }
  });
});

describe('simulator protocol (wire, FreeTDS tsql)', function () {
  this.timeout(60_000);

  it('answers PRELOGIN encryption OFF with OFF (login-only encryption) and NOT_SUP with NOT_SUP', () =>
    withSim({}, async (sim) => {
      // VERSION (6 bytes at 11) and ENCRYPTION (1 byte at 17), then the data.
      const prelogin = (enc: number) => Buffer.from([0x00, 0, 11, 0, 6, 0x01, 0, 17, 0, 1, 0xff, 16, 0, 0, 0, 0, 0, enc]);
      for (const [sent, wanted] of [
        [Encrypt.OFF, Encrypt.OFF],
        [Encrypt.NOT_SUP, Encrypt.NOT_SUP],
      ]) {
        const c = await RawTdsClient.connect(sim.port);
        try {
          c.sendPacket(0x12, prelogin(sent));
          const reply = await c.readMessage();
          assert.equal(parsePrelogin(reply.payload).encryption, wanted, `client ${sent}`);
        } finally {
          c.socket.destroy();
        }
      }
    }));

  it('lets FreeTDS encrypt the login alone, then runs a multi-statement batch with PRINT and RAISERROR', () => {
    requireTsql();
    return withSim({}, async (sim) => {
      // FreeTDS's default ("request") sends OFF; on OFF from the server it wraps LOGIN7 alone in TLS.
      const out = await runTsql(
        sim,
        "SET NOCOUNT ON; SELECT 10 AS ten; PRINT 'printed'; RAISERROR('raised %d', 16, 1, 5); SELECT 20 AS twenty\ngo\nexit\n",
      );
      assert.match(out, /ten\s+10/);
      assert.match(out, /printed/);
      assert.match(out, /Msg 50000 \(severity 16, state 1\)[^\n]*\n\s*"raised 5"/);
      assert.match(out, /twenty\s+20/);
    });
  });
});
