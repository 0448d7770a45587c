// The executor's control of flow, procedures and dynamic SQL (tools/sim/model/exec/control.ts, procs.ts, sysprocs.ts),
// run as a batch arrives: each test pins what SQL Server answers for one construct.
import assert from 'node:assert/strict';
import { sessionState } from '../../tools/sim/model/sessionState';
import type { ResponseItem, Value } from '../../tools/sim/tds/contract';
import { execSetup } from '../helpers/simExec';

const setup = execSetup;

const rows = (items: ResponseItem[]): Value[][] => items.flatMap((i) => (i.kind === 'resultSet' ? i.rows : []));
const errors = (items: ResponseItem[]) => items.filter((i) => i.kind === 'error').map((i) => (i.kind === 'error' ? i.number : 0));
const infos = (items: ResponseItem[]) => items.filter((i) => i.kind === 'info').map((i) => (i.kind === 'info' ? i.message : ''));

describe('simulator executor: control of flow', () => {
  it('IF / ELSE and BEGIN...END choose by the condition; variables span the statements', async () => {
    const { run } = setup();
    const r = await run(`DECLARE @a int = 2; IF @a > 1 BEGIN SET @a = @a + 10; SELECT @a AS a; END ELSE SELECT 0 AS a;
      IF @a < 0 SELECT 1 ELSE IF @a = 12 SELECT 2 ELSE SELECT 3;`);
    assert.deepEqual(rows(r), [[12], [2]]);
  });

  it('WHILE with BREAK and CONTINUE', async () => {
    const { run } = setup();
    const r = await run(`DECLARE @i int = 0, @s int = 0;
      WHILE @i < 10 BEGIN SET @i = @i + 1; IF @i = 3 CONTINUE; IF @i = 6 BREAK; SET @s = @s + @i; END
      SELECT @i, @s;`);
    assert.deepEqual(rows(r), [[6, 1 + 2 + 4 + 5]]);
    assert.deepEqual(errors(await run('BREAK;')), [135]);
  });

  it('TRY...CATCH: the error does not reach the client and ERROR_*() describe it; outside CATCH they are NULL', async () => {
    const { run } = setup();
    const r = await run(`BEGIN TRY SELECT 1/0; SELECT 99; END TRY
      BEGIN CATCH SELECT ERROR_NUMBER(), ERROR_MESSAGE(), ERROR_SEVERITY(), ERROR_STATE(); END CATCH
      SELECT ERROR_NUMBER();`);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(rows(r), [[8134, 'Divide by zero error encountered.', 16, 1], [null]]);
  });

  it('a deferred name resolution error in the TRY scope is not caught; the same in dynamic SQL is', async () => {
    const { run } = setup();
    assert.deepEqual(errors(await run('BEGIN TRY SELECT * FROM dbo.nope; END TRY BEGIN CATCH SELECT 1; END CATCH')), [208]);
    const r = await run(`BEGIN TRY EXEC sys.sp_executesql N'SELECT * FROM dbo.nope'; END TRY BEGIN CATCH SELECT ERROR_NUMBER(); END CATCH`);
    assert.deepEqual([errors(r), rows(r)], [[], [[208]]]);
  });

  it('THROW ends the batch (class 16); bare THROW in CATCH re-raises; outside CATCH it is Msg 10704', async () => {
    const { run } = setup();
    const r = await run(`THROW 50013, N'no', 3; SELECT 1;`);
    assert.deepEqual(rows(r), []);
    const e = r.find((i) => i.kind === 'error');
    assert.deepEqual(e && e.kind === 'error' ? [e.number, e.class, e.state, e.message] : [], [50013, 16, 3, 'no']);
    const re = await run(`BEGIN TRY SELECT 1/0; END TRY BEGIN CATCH THROW; END CATCH; SELECT 2;`);
    assert.deepEqual([errors(re), rows(re)], [[8134], []]);
    assert.deepEqual(errors(await run('THROW;')), [10704]);
    assert.deepEqual(errors(await run('THROW 49999, N"x", 1;'.replace(/"/g, "'"))), [35100]);
  });

  it('RAISERROR substitutes %s %d %i %u; severity 16 lets the batch go on; 10 is a message', async () => {
    const { run } = setup();
    const r = await run(`RAISERROR(N'%s has %d (%i, %u)', 16, 2, N'x', 5, -1, 7); RAISERROR('note', 10, 1) WITH NOWAIT; SELECT 1;`);
    const e = r.find((i) => i.kind === 'error');
    assert.deepEqual(e && e.kind === 'error' ? [e.number, e.class, e.state, e.message] : [], [50000, 16, 2, 'x has 5 (-1, 7)']);
    assert.deepEqual(infos(r), ['note']);
    assert.deepEqual(rows(r), [[1]]);
  });

  it('PRINT and RETURN: RETURN ends the batch', async () => {
    const { run } = setup();
    const r = await run(`PRINT N'a' + N'b'; RETURN; PRINT 'never';`);
    assert.deepEqual(infos(r), ['ab']);
  });

  it('table variables: DECLARE, INSERT, SELECT, DELETE; INSERT ... EXEC sp_executesql', async () => {
    const { run } = setup();
    const r = await run(`DECLARE @t TABLE (name sysname NOT NULL, n int);
      INSERT INTO @t (name, n) VALUES (N'a', 1), (N'b', 2);
      INSERT INTO @t (name, n) EXEC sys.sp_executesql N'SELECT N''c'', 3';
      DELETE FROM @t WHERE n = 2;
      SELECT t.name, t.n FROM @t AS t ORDER BY t.n;`);
    assert.deepEqual(rows(r), [
      ['a', 1],
      ['c', 3],
    ]);
    assert.deepEqual(errors(await run('SELECT * FROM @nope')), [1087]);
    assert.deepEqual(errors(await run(`DECLARE @t TABLE (a int); INSERT INTO @t EXEC sys.sp_executesql N'SELECT 1, 2'`)), [213]);
  });

  it('sp_executesql: its own variable scope, OUTPUT values copied back, EXEC (@sql)', async () => {
    const { run } = setup();
    const r = await run(`DECLARE @x int = 1, @y int, @sql nvarchar(100) = N'SELECT @b = @a * 10;';
      EXEC sys.sp_executesql @sql, N'@a int, @b int OUTPUT', @a = @x, @b = @y OUTPUT;
      SELECT @y;
      EXEC (N'SELECT 7');
      EXEC sys.sp_executesql N'SELECT @x';`);
    assert.deepEqual(rows(r), [[10], [7]]);
    assert.deepEqual(errors(r), [137]);
    assert.deepEqual(errors(await run(`EXEC sys.sp_executesql N'SELECT @a', N'@a int'`)), [8178]);
  });

  it('EXEC @rc = sys.sp_getapplock / sp_releaseapplock with named arguments; APPLOCK_MODE sees the lock', async () => {
    const { run } = setup();
    const r = await run(`DECLARE @rc int;
      EXEC @rc = sys.sp_getapplock @Resource = N'r1', @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 0;
      SELECT @rc, APPLOCK_MODE(N'public', N'r1', N'Session');
      EXEC @rc = sys.sp_releaseapplock @Resource = N'r1', @LockOwner = 'Session';
      SELECT @rc, APPLOCK_MODE(N'public', N'r1', N'Session');
      EXEC @rc = sys.sp_releaseapplock @Resource = N'r1', @LockOwner = 'Session';`);
    assert.deepEqual(rows(r), [
      [0, 'Exclusive'],
      [0, 'NoLock'],
    ]);
    assert.deepEqual(errors(r), [1223]);
  });

  it('EXEC of a model procedure with positional and OUTPUT arguments and its return status', async () => {
    const { model, run } = setup();
    const db = model.database('master')!;
    model.addObject(db, {
      name: 'dbo.p',
      type: 'P',
      params: [
        { name: '@a', type: 'int', output: false, hasDefault: false },
        { name: '@b', type: 'int', output: true, hasDefault: true },
      ],
      run: async (c) => [
        { kind: 'outputValue', name: '@b', sqlType: { type: 'int' }, value: Number(c.params.get('@a')?.value) + 1, ordinal: 1 },
        { kind: 'returnStatus', value: 5 },
      ],
    });
    const r = await run('DECLARE @o int, @rc int; EXEC @rc = dbo.p 41, @o OUTPUT; SELECT @o, @rc; EXEC dbo.nope;');
    assert.deepEqual(rows(r), [[42, 5]]);
    assert.deepEqual(errors(r), [2812]);
  });

  it('transactions: BEGIN/SAVE/ROLLBACK TRAN and @@TRANCOUNT; a name that is neither is Msg 6401', async () => {
    const { run, session } = setup();
    const r = await run(`BEGIN TRAN t1; SAVE TRAN s1; BEGIN TRAN; SELECT @@TRANCOUNT; ROLLBACK TRAN s1; ROLLBACK TRAN other;
      SELECT @@TRANCOUNT; COMMIT; COMMIT; SELECT @@TRANCOUNT; COMMIT;`);
    assert.deepEqual(rows(r), [[2], [2], [0]]);
    assert.deepEqual(errors(r), [6401, 3902]);
    assert.equal(sessionState(session).tranCount, 0);
  });

  it('WAITFOR DELAY waits, and a cancel ends it', async () => {
    const { run } = setup();
    let t = Date.now();
    await run(`WAITFOR DELAY '00:00:00.200';`);
    assert.ok(Date.now() - t >= 180);
    const ac = new AbortController();
    t = Date.now();
    setTimeout(() => ac.abort(), 50);
    await run(`WAITFOR DELAY '00:00:10'; SELECT 1;`, new Map(), '', ac.signal);
    assert.ok(Date.now() - t < 2000);
  });
});
