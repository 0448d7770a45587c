// CAST to the types a client reads back as themselves (date, time, datetimeoffset, money, smallmoney,
// uniqueidentifier): the executor types the column as SQL Server does and the wire layer has a codec for each.
import assert from 'node:assert/strict';
import type { ResponseItem } from '../../tools/sim/tds/contract';
import { execSetup } from '../helpers/simExec';
import { BufWriter } from '../../tools/sim/tds/bufwriter';
import { codecFor, writeValue } from '../../tools/sim/tds/encode';

function run(text: string): Promise<ResponseItem[]> {
  return execSetup().run(text);
}

async function one(expr: string) {
  const items = await run(`SELECT ${expr} AS x;`);
  const rs = items.find((i) => i.kind === 'resultSet');
  if (!rs || rs.kind !== 'resultSet') throw new Error(JSON.stringify(items));
  return { type: rs.columns[0].sqlType, value: rs.rows[0][0] };
}

async function error(expr: string): Promise<number | undefined> {
  const e = (await run(`SELECT ${expr} AS x;`)).find((i) => i.kind === 'error');
  return e && e.kind === 'error' ? e.number : undefined;
}

describe('simulator: CAST to date, time, datetimeoffset, money and uniqueidentifier', () => {
  it('types each column as the type cast to, with the value SQL Server gives', async () => {
    const d = await one("CAST('2024-05-01 10:11:12' AS date)");
    assert.deepEqual(d.type, { type: 'date' });
    assert.equal((d.value as Date).toISOString(), '2024-05-01T00:00:00.000Z');
    const t = await one("CAST('10:11:12.5' AS time(3))");
    assert.deepEqual(t.type, { type: 'time', scale: 3 });
    assert.equal((t.value as Date).toISOString().slice(11, 23), '10:11:12.500');
    const o = await one("CAST('2024-05-01 10:00:00 +02:00' AS datetimeoffset)");
    assert.deepEqual(o.type, { type: 'datetimeoffset', scale: 7 });
    assert.equal(o.value, '2024-05-01 10:00:00.0000000 +02:00');
    const m = await one('CAST(12.34567 AS money)');
    assert.deepEqual(m.type, { type: 'money' });
    assert.equal(m.value, '12.3457');
    assert.deepEqual((await one('CAST(1 AS smallmoney)')).type, { type: 'smallmoney' });
    const g = await one("CAST('6f9619ff-8b86-d011-b42d-00c04fc964ff' AS uniqueidentifier)");
    assert.deepEqual(g.type, { type: 'uniqueidentifier' });
    assert.equal(g.value, '6F9619FF-8B86-D011-B42D-00C04FC964FF');
    assert.equal((await one("CAST(CAST('2024-05-01' AS date) AS nvarchar(30))")).value, '2024-05-01');
  });

  it('refuses what SQL Server refuses: Msg 8169, 241, 8115', async () => {
    assert.equal(await error("CAST('not-a-guid' AS uniqueidentifier)"), 8169);
    assert.equal(await error("CAST('2024-13-45' AS date)"), 241);
    assert.equal(await error('CAST(300000 AS smallmoney)'), 8115);
  });

  it('encodes them on the wire with their own TDS types (MS-TDS 2.2.5.4.2, MONEYN)', () => {
    const bytes = (type: Parameters<typeof codecFor>[0], v: Parameters<typeof writeValue>[2]) => {
      const w = new BufWriter();
      const c = codecFor(type);
      writeValue(w, c, v);
      return { info: c.typeInfo.toString('hex'), value: w.buf.subarray(0, w.pos).toString('hex') };
    };
    // date: 3 bytes of days since 0001-01-01 (2024-05-01 is day 739,006 = 0x0B46BE).
    assert.deepEqual(bytes({ type: 'date' }, new Date('2024-05-01T00:00:00Z')), { info: '28', value: '03be460b' });
    // money 1.5: 15000 ten-thousandths, high int32 (0) then low uint32.
    assert.deepEqual(bytes({ type: 'money' }, '1.5000'), { info: '6e08', value: '0800000000983a0000' });
    assert.deepEqual(bytes({ type: 'smallmoney' }, '-1'), { info: '6e04', value: '04f0d8ffff' });
    // datetimeoffset(0) '2024-05-01 10:00:00 +02:00': 08:00 UTC in seconds, the day, then +120 minutes.
    const o = bytes({ type: 'datetimeoffset', scale: 0 }, '2024-05-01 10:00:00.0000000 +02:00');
    assert.equal(o.info, '2b00');
    assert.equal(o.value, '08' + '807000' + 'be460b' + '7800');
  });
});

describe('simulator: UNION, EXCEPT and INTERSECT take the result type', () => {
  it("converts an int operand's values to a bigint result, as data type precedence does", async () => {
    const rows = async (text: string) => {
      const rs = (await run(text)).find((i) => i.kind === 'resultSet');
      if (!rs || rs.kind !== 'resultSet') throw new Error(text);
      return { type: rs.columns[0].sqlType, values: rs.rows.map((r) => r[0]) };
    };
    const except = await rows('SELECT CAST(5 AS int) AS x EXCEPT SELECT CAST(6 AS bigint);');
    assert.deepEqual(except, { type: { type: 'bigint' }, values: [5n] });
    const union = await rows('SELECT CAST(7 AS bigint) AS x UNION ALL SELECT CAST(8 AS int);');
    assert.deepEqual(union.values, [7n, 8n]);
    assert.deepEqual((await rows('SELECT CAST(1 AS int) AS x UNION ALL SELECT CAST(2 AS int);')).values, [1, 2], 'int stays int');
  });
});
