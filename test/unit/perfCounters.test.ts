import assert from 'node:assert/strict';
import { CNTR_TYPE, findBase, findCounter, readCounter, readingValue } from '../../src/engine/perfCounters';
import { counter } from './samples';

const key = { objectSuffix: 'Databases', counter: 'Transactions/sec', instance: 'Lab' };

it('object matched by suffix on default and named instances; names trimmed; instance case-insensitive', () => {
  const rows = [counter('MSSQL$SQL2022:Databases', 'Transactions/sec', 'lab', 5, CNTR_TYPE.bulkCount)];
  assert.equal(findCounter(rows, key)?.value, 5);
  assert.equal(findCounter([counter('SQLServer:Databases', 'Transactions/sec', 'Lab', 6, 272696576)], key)?.value, 6);
  assert.equal(findCounter([counter('SQLServer:Database Replica', 'Transactions/sec', 'Lab', 6, 272696576)], key), undefined);
});

it('running totals (both types) are delta / seconds', () => {
  for (const type of [CNTR_TYPE.bulkCount, CNTR_TYPE.counter]) {
    const r = readCounter(
      [counter('SQLServer:Databases', 'Transactions/sec', 'Lab', 100, type)],
      [counter('SQLServer:Databases', 'Transactions/sec', 'Lab', 400, type)],
      key,
      1.5,
    );
    assert.deepEqual(r, { kind: 'rate', delta: 300, perSec: 200 });
  }
});

it('a row absent before counts from zero; absent now is missing', () => {
  const now = [counter('SQLServer:Databases', 'Transactions/sec', 'Lab', 50, CNTR_TYPE.bulkCount)];
  assert.deepEqual(readCounter([], now, key, 1), { kind: 'rate', delta: 50, perSec: 50 });
  const r = readCounter(now, [], key, 1);
  assert.equal(r.kind, 'missing');
  assert.equal(readingValue(r), 0);
});

it('average: delta value / delta base, base found by name; no movement is null, not NaN', () => {
  const k = { objectSuffix: 'Locks', counter: 'Average Wait Time (ms)', instance: '_Total' };
  const rows = (v: number, b: number) => [
    counter('SQLServer:Locks', 'Average Wait Time (ms)', '_Total', v, CNTR_TYPE.averageBulk),
    counter('SQLServer:Locks', 'Lock Requests/sec', '_Total', 1, CNTR_TYPE.bulkCount),
    counter('SQLServer:Locks', 'Average Wait Time Base', '_Total', b, CNTR_TYPE.rawBase),
  ];
  assert.deepEqual(readCounter(rows(100, 10), rows(160, 13), k, 1), { kind: 'average', value: 20 });
  assert.deepEqual(readCounter(rows(100, 10), rows(100, 10), k, 1), { kind: 'average', value: null });
  assert.equal(readCounter(rows(100, 10), rows(90, 12), k, 1).kind, 'reset');
});

it('fraction: value / base at this instant', () => {
  const k = { objectSuffix: 'Buffer Manager', counter: 'Buffer cache hit ratio', instance: '' };
  const rows = [
    counter('SQLServer:Buffer Manager', 'Buffer cache hit ratio', '', 990, CNTR_TYPE.rawFraction),
    counter('SQLServer:Buffer Manager', 'Buffer cache hit ratio base', '', 1000, CNTR_TYPE.rawBase),
  ];
  assert.equal(findBase(rows, rows[0])?.value, 1000);
  assert.deepEqual(readCounter([], rows, k, 1), { kind: 'fraction', value: 0.99 });
});

it('an unknown cntr_type is reported with its number', () => {
  const r = readCounter([], [counter('SQLServer:Databases', 'Transactions/sec', 'Lab', 1, 1234)], key, 1);
  assert.equal(r.kind, 'unsupported');
  assert.match(r.kind === 'unsupported' ? r.message : '', /cntr_type 1234/);
});

it('a lookup in a long list finds the first match, as a scan does; a suffix with its own prefix still matches exactly', () => {
  const rows = [
    counter('SQLServer:Databases', 'Log Flushes/sec', 'Lab', 1, CNTR_TYPE.bulkCount),
    counter('SQLServer:Databases  ', ' Transactions/sec ', 'LAB ', 7, CNTR_TYPE.bulkCount),
    counter('MSSQL$B:Databases', 'Transactions/sec', 'Lab', 8, CNTR_TYPE.bulkCount),
    counter('SQLServer: Databases', 'Transactions/sec', 'Other', 9, CNTR_TYPE.bulkCount),
  ];
  assert.equal(findCounter(rows, key)?.value, 7);
  assert.equal(findCounter(rows, { ...key, objectSuffix: 'MSSQL$B:Databases' })?.value, 8);
  // 'SQLServer: Databases' is not the Databases object (a space after the colon), with or without the index.
  assert.equal(findCounter(rows, { ...key, instance: 'Other' }), undefined);
  assert.equal(findCounter(rows, { ...key, counter: 'Nothing' }), undefined);
});

it('index keys made once are reused across samples and stay right after the kept keys are emptied (20,000 names)', () => {
  // The same names as other strings, padded or cased differently, in each new sample: each lookup still finds its row.
  for (let tick = 0; tick < 3; tick++) {
    const rows = [counter('SQLServer:Databases ', ` Transactions/sec`, tick % 2 ? 'LAB' : 'lab ', tick, CNTR_TYPE.bulkCount)];
    assert.equal(findCounter(rows, { ...key, instance: tick % 2 ? 'lab' : 'Lab' })?.value, tick);
  }
  // Names that keep changing pass the bound: keys are made again, never wrong.
  for (let i = 0; i < 25_000; i++) {
    const rows = [counter('SQLServer:Databases', 'Log Flushes/sec', `db${i}`, i, CNTR_TYPE.bulkCount)];
    assert.equal(findCounter(rows, { objectSuffix: 'Databases', counter: 'Log Flushes/sec', instance: `DB${i}` })?.value, i);
    assert.equal(findCounter(rows, { objectSuffix: 'Databases', counter: 'Log Flushes/sec', instance: `db${i + 1}` }), undefined);
  }
  assert.equal(findCounter([counter('SQLServer:Databases', 'Transactions/sec', 'Lab', 9, CNTR_TYPE.bulkCount)], key)?.value, 9);
});
