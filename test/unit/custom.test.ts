// Custom workloads without a server: GO splitting, the variables a batch binds, the conservative read-only test,
// CSV parameter rows and their types, the row picker, and the ostress command line translation.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { splitBatches, unboundVariables, writeReason } from '../../src/engine/custom/batch';
import { checkBinding, paramsFromCsv, parseCsv, ParamsError, RowPicker } from '../../src/engine/custom/params';
import { ErrorTally, describeError } from '../../src/engine/custom/tally';
import { translateOstress } from '../../src/cli/ostress';

describe('custom workload: batches', () => {
  it('splits on GO lines only', () => {
    assert.deepEqual(splitBatches('SELECT 1\nGO\nSELECT 2 -- go\n  go  \n\nGO\n'), ['SELECT 1', 'SELECT 2 -- go']);
    assert.deepEqual(splitBatches("SELECT 'GO'"), ["SELECT 'GO'"]);
  });
  it('finds the variables a batch uses but does not declare, skipping @@functions, strings and comments', () => {
    assert.deepEqual(unboundVariables("SELECT @@SPID, @Id, name FROM t WHERE x = @id AND y = '@no' -- @nor\n AND z = @Other"), [
      'id',
      'other',
    ]);
    assert.deepEqual(unboundVariables('DECLARE @n int = 1, @m int; SELECT @n + @m + @p'), ['p']);
  });
  it('calls only plain SELECT, WAITFOR and EXEC of read-only catalogue procedures read-only', () => {
    assert.equal(writeReason(['SELECT TOP 5 name FROM sys.dm_os_spinlock_stats WITH (NOLOCK) ORDER BY spins DESC']), null);
    assert.equal(writeReason(["WAITFOR DELAY '00:00:01'", 'EXEC sp_who2', "SELECT 'DELETE FROM t' AS s -- UPDATE"]), null);
    assert.match(writeReason(['SELECT * INTO #t FROM sys.objects'])!, /INTO/);
    assert.match(writeReason(['UPDATE dbo.t SET x = 1'])!, /UPDATE/);
    assert.match(writeReason(['EXEC dbo.usp_order @id = 1'])!, /procedure dbo.usp_order/);
    assert.match(writeReason(['WITH c AS (SELECT 1 AS x) DELETE FROM c'])!, /WITH/);
    assert.match(writeReason(['SET NOCOUNT ON; SELECT 1'])!, /SET/);
  });
});

describe('custom workload: parameters', () => {
  it('parses RFC 4180 CSV', () => {
    assert.deepEqual(parseCsv('a,b\r\n1,"x,""y"""\n2,\n'), [
      ['a', 'b'],
      ['1', 'x,"y"'],
      ['2', ''],
    ]);
    assert.throws(() => parseCsv('a\n"open'), ParamsError);
  });
  it('types each column from all its values; empty is NULL; @ in the header is optional', () => {
    const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-csv-')), 'p.csv');
    fs.writeFileSync(f, '@id,big,ratio,name\n1,3000000000,1.5,a\n2,1,2,\n');
    const t = paramsFromCsv(f);
    assert.deepEqual(t.columns, [
      { name: 'id', type: 'int' },
      { name: 'big', type: 'bigint' },
      { name: 'ratio', type: 'float' },
      { name: 'name', type: 'nvarchar(4000)' },
    ]);
    assert.deepEqual(t.rows, [
      [1, '3000000000', 1.5, 'a'],
      [2, '1', 2, null],
    ]);
  });
  it('refuses a variable the source lacks, naming it and the columns', () => {
    assert.throws(() => checkBinding(['id', 'x'], { columns: [{ name: 'id', type: 'int' }], rows: [[1]] }), /@x.*its columns: id/);
    assert.throws(() => checkBinding(['id'], null), /--params-csv/);
    checkBinding([], null);
  });
  it('round robin per session starts each session at its own row; shared walks one cursor; random stays in range', () => {
    const p = new RowPicker(3, 'round-robin', 'session');
    assert.deepEqual([p.next(0), p.next(0), p.next(0), p.next(0), p.next(1)], [0, 1, 2, 0, 1]);
    const s = new RowPicker(3, 'round-robin', 'shared');
    assert.deepEqual([s.next(0), s.next(1), s.next(0), s.next(2)], [0, 1, 2, 0]);
    const r = new RowPicker(3, 'random', 'session', () => 0.999);
    assert.equal(r.next(5), 2);
  });
});

describe('custom workload: errors', () => {
  it('counts by number and message, names deadlocks and timeouts, per session', () => {
    const t = new ErrorTally();
    t.add(2, { number: 1205, message: 'Transaction (Process ID 55) was deadlocked' }, new Date('2026-01-01T00:00:00Z'));
    t.add(4, { number: 1205, message: 'Transaction (Process ID 55) was deadlocked' }, new Date('2026-01-01T00:00:01Z'));
    t.add(1, { code: 'ETIMEOUT', message: 'Timeout: Request failed to complete in 5000ms' });
    const [dl, to] = t.list();
    assert.equal(dl.kind, 'deadlock');
    assert.deepEqual(
      [dl.count, dl.first, dl.last, dl.sessions],
      [2, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', { 2: 1, 4: 1 }],
    );
    assert.equal(to.kind, 'timeout');
    assert.match(describeError(dl), /^deadlock \(1205\) x2 in sessions 2, 4: /);
    assert.equal(t.failed, 3);
  });
});

describe('spinlab ostress', () => {
  it('translates the common options and never prints the password', () => {
    const t = translateOstress([
      '-S127.0.0.1,1433',
      '-Usa',
      '-PSecret!1',
      '-dSales',
      '-Q"SELECT 1"'.replace(/"/g, ''),
      '-n4',
      '-r25',
      '-t30',
      '-b',
      '-q',
      '-oout',
    ]);
    assert.equal(t.password, 'Secret!1');
    assert.doesNotMatch(t.line, /Secret/);
    assert.deepEqual(t.runArgs, [
      '-c',
      'Server=127.0.0.1,1433;Database=Sales;User ID=sa;Encrypt=Optional',
      '--sql',
      'SELECT 1',
      '--database',
      'Sales',
      '--threads',
      '4',
      '--iterations',
      '25',
      '--per-iteration',
      'all',
      '--warmup',
      '0s',
      '--query-timeout',
      '30s',
      '--stop-on-error',
      '--out',
      'out',
    ]);
    assert.ok(t.quiet);
  });
  it('takes values attached or separate, -m stress as a no-op, and passes --options through', () => {
    const t = translateOstress(['-S', 'srv', '-U', 'me', '-Q', 'SELECT 2', '-m', 'stress', '--assert', 'p99<5ms']);
    assert.deepEqual(t.runArgs.slice(-2), ['--assert', 'p99<5ms']);
    assert.equal(t.password, null);
  });
  it('refuses unsupported options by name, -E, and a missing query', () => {
    assert.throws(() => translateOstress(['-Ssrv', '-Usa', '-QSELECT 1', '-m', 'replay']), /-m replay .*not supported/);
    assert.throws(() => translateOstress(['-Ssrv', '-Usa', '-QSELECT 1', '-T1118']), /-T 1118 \(trace flags\) is not supported/);
    assert.throws(() => translateOstress(['-Ssrv', '-E', '-QSELECT 1']), /-E \(Windows authentication/);
    assert.throws(() => translateOstress(['-Ssrv', '-Usa']), /-Q/);
  });
});
