// Every contract column type in both directions (rows out, RPC parameters in, OUTPUT parameters out), with NULLs and
// the max types, through mssql.

import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { startTestServer, TestServer } from '../helpers/tdsServer';
import { TYPE_COLUMNS, TYPE_ROWS } from '../helpers/echoHandler';

/** What mssql hands back for a value the model sent (tedious's JS mapping). */
function expectedFromDriver(v: unknown, type: string): unknown {
  if (v === null) return null;
  if (type === 'bigint') return String(v); // tedious returns bigint columns as strings
  if (type === 'decimal') return Number(v);
  return v;
}

describe('TDS types', () => {
  let t: TestServer;
  let pool: sql.ConnectionPool;
  before(async () => {
    t = await startTestServer();
    pool = await t.pool();
  });
  after(async () => {
    await t.close();
  });

  it('returns every column type, including NULLs and max values', async () => {
    const r = await pool.request().query('select types');
    assert.equal(r.recordset.length, TYPE_ROWS.length);
    const cols = r.recordset.columns;
    assert.equal(cols.c_decimal.precision, 18);
    assert.equal(cols.c_decimal.scale, 4);
    assert.equal(cols.c_datetime2.scale, 7);
    assert.equal(cols.c_nvarchar.length, 100); // TYPE_INFO max length is in bytes; mssql reports it as sent
    assert.equal(cols.c_int.nullable, true);
    for (let row = 0; row < TYPE_ROWS.length; row++) {
      TYPE_COLUMNS.forEach((c, i) => {
        const got = r.recordset[row][c.name];
        let want = expectedFromDriver(TYPE_ROWS[row][i], c.sqlType.type);
        if (c.sqlType.type === 'nchar' || c.sqlType.type === 'char') {
          want = want === null ? null : String(want).padEnd(c.sqlType.length as number, ' ');
        }
        if (c.sqlType.type === 'real' || c.sqlType.type === 'decimal') {
          if (want === null) assert.equal(got, null, c.name);
          else assert.ok(Math.abs((got as number) - (want as number)) <= Math.abs(want as number) * 1e-7, `${c.name}: ${got} vs ${want}`);
        } else {
          assert.deepEqual(got, want, `row ${row} ${c.name}`);
        }
      });
    }
  });

  it('decodes RPC parameters of every type (with NULLs) and echoes them back', async () => {
    const values: Array<[string, sql.ISqlType | (() => sql.ISqlType), unknown]> = [
      ['p_bit', sql.Bit, true],
      ['p_tinyint', sql.TinyInt, 200],
      ['p_smallint', sql.SmallInt, -300],
      ['p_int', sql.Int, 123456],
      ['p_bigint', sql.BigInt, '9007199254740993'],
      ['p_real', sql.Real, 2.5],
      ['p_float', sql.Float, -1.25e-200],
      ['p_decimal', sql.Decimal(18, 4), 1234.5678],
      ['p_nvarchar', sql.NVarChar(50), 'ünïcødé ✓'],
      ['p_nvarchar_max', sql.NVarChar(sql.MAX), 'y'.repeat(50000)],
      ['p_nchar', sql.NChar(4), 'ab'],
      ['p_varchar', sql.VarChar(50), 'plain €'],
      ['p_varchar_max', sql.VarChar(sql.MAX), 'v'.repeat(9000)],
      ['p_char', sql.Char(3), 'xyz'],
      ['p_datetime', sql.DateTime, new Date('2023-06-01T12:34:56.790Z')],
      ['p_datetime2', sql.DateTime2(7), new Date('2023-06-01T12:34:56.789Z')],
      ['p_varbinary', sql.VarBinary(50), Buffer.from('0102ff', 'hex')],
      ['p_varbinary_max', sql.VarBinary(sql.MAX), Buffer.alloc(70000, 9)],
      ['p_binary', (sql.Binary as unknown as (n: number) => sql.ISqlType)(2), Buffer.from('abcd', 'hex')], // typings lack the length
      ['p_guid', sql.UniqueIdentifier, '6F9619FF-8B86-D011-B42D-00C04FC964FF'],
      ['p_null_int', sql.Int, null],
      ['p_null_nvarchar_max', sql.NVarChar(sql.MAX), null],
      ['p_null_varbinary', sql.VarBinary(10), null],
      ['p_null_datetime2', sql.DateTime2(3), null],
      ['p_null_decimal', sql.Decimal(10, 2), null],
      ['p_null_guid', sql.UniqueIdentifier, null],
    ];
    const req = pool.request();
    for (const [name, type, value] of values) req.input(name, type as sql.ISqlType, value);
    const r = await req.query('echo');
    const row = r.recordset[0];
    for (const [name, , value] of values) {
      if (name === 'p_nchar') assert.equal(row[name], 'ab  ');
      else if (name === 'p_datetime') assert.equal((row[name] as Date).toISOString(), '2023-06-01T12:34:56.790Z');
      else assert.deepEqual(row[name], value, name);
    }
    const call = t.handler.calls.at(-1)!;
    assert.equal(call.text, 'sp_executesql');
    const byName = new Map(call.params!.map((p) => [p.name, p]));
    assert.deepEqual(byName.get('@p_nvarchar_max')?.sqlType, { type: 'nvarchar', length: 'max' });
    assert.deepEqual(byName.get('@p_nvarchar')?.sqlType, { type: 'nvarchar', length: 50 });
    assert.deepEqual(byName.get('@p_decimal')?.sqlType, { type: 'decimal', precision: 18, scale: 4 });
    assert.deepEqual(byName.get('@p_datetime2')?.sqlType, { type: 'datetime2', scale: 7 });
    assert.deepEqual(byName.get('@p_varbinary_max')?.sqlType, { type: 'varbinary', length: 'max' });
    assert.equal(byName.get('@p_bigint')?.value, 9007199254740993n, 'bigint arrives as bigint');
    assert.equal(byName.get('@p_decimal')?.value, 1234.5678);
    assert.equal(byName.get('@p_null_int')?.value, null);
    assert.equal(byName.get('@p_guid')?.value, '6F9619FF-8B86-D011-B42D-00C04FC964FF');
  });

  it('returns OUTPUT parameters of several types', async () => {
    const req = pool.request();
    req.output('o_int', sql.Int, 21);
    req.output('o_bigint', sql.BigInt, '5000000000');
    req.output('o_text', sql.NVarChar(sql.MAX), 'hi');
    req.output('o_float', sql.Float, 1.5);
    req.output('o_null', sql.VarChar(10), null);
    req.output('o_guid', sql.UniqueIdentifier, '00000000-0000-0000-0000-0000000000AB');
    const r = await req.query('echo');
    assert.equal(r.output.o_int, 42);
    assert.equal(r.output.o_bigint, '10000000000');
    assert.equal(r.output.o_text, 'hi!');
    assert.equal(r.output.o_float, 3);
    assert.equal(r.output.o_null, null);
    assert.equal(r.output.o_guid, '00000000-0000-0000-0000-0000000000AB');
  });

  it('splits large replies at a small negotiated packet size', async () => {
    const small = await startTestServer({ packetSize: 512 });
    try {
      const p = await small.pool();
      const r = await p.request().query('big 3000');
      assert.equal(r.recordset.length, 3000);
      assert.equal(r.recordset[2999].n, 2999);
      const types = await p.request().query('select types');
      assert.equal((types.recordset[0].c_varbinary_max as Buffer).length, 20000);
    } finally {
      await small.close();
    }
  });
});
