// CAST / CONVERT to the types a client reads back as themselves: date, time, datetimeoffset, money, smallmoney and
// uniqueidentifier (docs: "CAST and CONVERT", "Data types"). Text is parsed as SQL Server parses it in the default
// language (us_english, ISO formats); what it cannot convert fails with SQL Server's number.
import type { SqlType, Value } from '../../tds/contract';
import { err, SqlError } from '../errors';

const fail = (n: number, message: string): never => {
  throw new SqlError([err(n, message, 16, 1)]);
};
const DATE_FAILED = 'Conversion failed when converting date and/or time from character string.';
const GUID = /^\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}?$/i;
const OFFSET = /^(.*\S)\s*([+-])(\d{2}):(\d{2})$/;

/** An ISO date and/or time text as a UTC instant ('2024-05-01', '2024-05-01 10:00:00.123', '10:00:00'). */
function parseInstant(text: string, timeOnly: boolean): Date {
  const t = text.trim();
  const iso =
    timeOnly && /^\d{1,2}:\d{2}/.test(t) ? `1900-01-01T${t}` : /^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00:00` : t.replace(' ', 'T');
  // JavaScript keeps milliseconds: the simulator's dates carry no finer part.
  const d = new Date(iso.replace(/(\.\d{3})\d+/, '$1') + 'Z');
  return Number.isNaN(d.getTime()) ? fail(241, DATE_FAILED) : d;
}

const dayOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
const timeOf = (d: Date) => new Date(Date.UTC(1900, 0, 1) + (d.getTime() - dayOf(d).getTime()));

/** The value of `x` as `type`, one of the types above (NULL is handled by the caller). */
export function castMore(x: { v: Value; type: SqlType }, type: SqlType): Value {
  const v = x.v;
  const text = typeof v === 'string' ? v : null;
  switch (type.type) {
    case 'date':
      return dayOf(v instanceof Date ? v : text !== null ? parseInstant(text, false) : fail(529, explicit(x.type, 'date')));
    case 'time':
      return timeOf(v instanceof Date ? v : text !== null ? parseInstant(text, true) : fail(529, explicit(x.type, 'time')));
    case 'datetimeoffset': {
      if (v instanceof Date) return v;
      if (text === null) return fail(529, explicit(x.type, 'datetimeoffset'));
      const m = OFFSET.exec(text.trim());
      const local = parseInstant(m ? m[1] : text, false);
      if (m && (Number(m[3]) > 14 || Number(m[4]) > 59)) fail(241, DATE_FAILED);
      const iso = local.toISOString();
      return `${iso.slice(0, 10)} ${iso.slice(11, 23)}0000 ${m ? `${m[2]}${m[3]}:${m[4]}` : '+00:00'}`;
    }
    case 'money':
    case 'smallmoney': {
      const n = typeof v === 'bigint' ? Number(v) : typeof v === 'boolean' ? Number(v) : Number(text !== null ? text.trim() : v);
      if (v instanceof Date || Buffer.isBuffer(v)) return fail(529, explicit(x.type, type.type));
      if (!Number.isFinite(n)) return fail(235, `Cannot convert a char value to ${type.type}. The char value has incorrect syntax.`);
      // money's bound (922,337,203,685,477.5807) is beyond a double's exact range: compared as the double nearest it.
      const limit = type.type === 'money' ? 922337203685477.5 : 214748.3647;
      if (Math.abs(n) > limit) fail(8115, `Arithmetic overflow error converting expression to data type ${type.type}.`);
      return n.toFixed(4);
    }
    case 'uniqueidentifier': {
      if (Buffer.isBuffer(v) && v.length === 16) return guidText(v);
      const m = text === null ? null : GUID.exec(text.trim());
      if (!m) return fail(8169, 'Conversion failed when converting from a character string to uniqueidentifier.');
      return m[1].toUpperCase();
    }
    default:
      return fail(529, explicit(x.type, type.type));
  }
}

const explicit = (from: SqlType, to: string) => `Explicit conversion from data type ${from.type} to ${to} is not allowed.`;

/** binary(16) as a uniqueidentifier's text: the first three groups are stored little-endian. */
function guidText(b: Buffer): string {
  const h = (i: number, n: number, le: boolean) => {
    const part = b.subarray(i, i + n);
    return Buffer.from(le ? [...part].reverse() : part).toString('hex');
  };
  return `${h(0, 4, true)}-${h(4, 2, true)}-${h(6, 2, true)}-${h(8, 2, false)}-${h(10, 6, false)}`.toUpperCase();
}
