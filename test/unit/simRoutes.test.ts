// The simulator decides how to run a batch from its text alone (tools/sim/model/exec/route.ts): every batch of every
// sql/ file must be one the executor runs whole (so its answer comes from running it, with no handler knowing the
// file), and what is workload or a look at the spinlock statistics is read from the statements, not from a file name.
import assert from 'node:assert/strict';
import { listSqlFiles, loadSqlFile } from '../../src/db/sqlFiles';
import { executorBatch, isWorkload, readsView } from '../../tools/sim/model/exec/route';

const parsed = (text: string) => {
  const s = executorBatch(text);
  assert.ok(s, `the executor runs it whole: ${text}`);
  return s;
};

it('every batch of every sql/ file is run whole by the executor, with CRLF line ends too', () => {
  const ids = listSqlFiles();
  assert.ok(ids.length >= 40, `found ${ids.length} sql files`);
  const left: string[] = [];
  for (const id of ids)
    loadSqlFile(id).batches.forEach((b, i) => {
      if (!executorBatch(b) || !executorBatch(b.replace(/\n/g, '\r\n'))) left.push(`${id} batch ${i + 1}`);
    });
  assert.deepEqual(left, []);
});

it('leaves to the session layer what the executor does not run: options it does not model, sp_prepare and friends', () => {
  assert.equal(executorBatch('SET FMTONLY ON; SELECT 1'), null);
  assert.equal(executorBatch('SET ANSI_DEFAULTS ON'), null);
  assert.equal(executorBatch('EXEC sp_execute @h'), null);
  assert.equal(executorBatch("IF 1 = 1 BEGIN EXEC sp_prepare @h OUTPUT, N'', N'SELECT 1' END"), null);
  assert.equal(executorBatch('USE master'), null);
  parsed('SET NOCOUNT ON; SET IMPLICIT_TRANSACTIONS ON; SET ROWCOUNT 5; SET TEXTSIZE 2147483647; SELECT 1');
  parsed("EXEC sys.sp_executesql N'SELECT 1'");
});

it('tells workload from a look at the server by what the statements name', () => {
  assert.equal(isWorkload(parsed('SELECT name, spins FROM sys.dm_os_spinlock_stats')), false);
  assert.equal(isWorkload(parsed('WITH s AS (SELECT spins FROM sys.dm_os_spinlock_stats) SELECT * FROM s')), false, 'a CTE is no table');
  assert.equal(isWorkload(parsed('DECLARE @t TABLE (a int); INSERT INTO @t VALUES (1); SELECT a FROM @t')), false);
  assert.equal(isWorkload(parsed('SELECT COUNT(*) FROM dbo.orders')), true);
  assert.equal(isWorkload(parsed("WAITFOR DELAY '00:00:00.010'")), true);
  assert.equal(isWorkload(parsed('EXEC dbo.usp_insert @n = 1')), true);
  assert.equal(isWorkload(parsed("EXEC sys.sp_executesql N'SELECT 1'")), false);
});

it('finds a read of the spinlock statistics anywhere in the tree, whatever the case or brackets', () => {
  const names = ['sys.dm_os_spinlock_stats'];
  assert.equal(readsView(parsed('SELECT 1 AS x WHERE EXISTS (SELECT 1 FROM [sys].[DM_OS_SPINLOCK_STATS])'), names), true);
  assert.equal(readsView(parsed('IF 1 = 1 BEGIN SELECT spins FROM sys.dm_os_spinlock_stats END'), names), true);
  assert.equal(readsView(parsed('SELECT wait_type FROM sys.dm_os_wait_stats'), names), false);
});
