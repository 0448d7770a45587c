// Server -> client type encoding: TYPE_INFO for COLMETADATA/RETURNVALUE and the matching value bytes. A column's
// codec is computed once per result set; rows then go through one switch per cell (no per-row closures).

import type { SqlType, Value } from './contract';
import { BufWriter } from './bufwriter';
import { DEFAULT_COLLATION, TypeId, UnsupportedError } from './protocol';
import { datetime2Parts, datetimeParts, encodeCp1252, guidToBytes, timeBytes, toDate, toScaledBigInt } from './values';

export const K = {
  BIT: 0,
  INT1: 1,
  INT2: 2,
  INT4: 3,
  INT8: 4,
  FLT4: 5,
  FLT8: 6,
  DEC: 7,
  NSTR: 8,
  STR: 9,
  BIN: 10,
  DATETIME: 11,
  DATETIME2: 12,
  GUID: 13,
  VARIANT: 14,
  DATE: 15,
  TIME: 16,
  DTOFFSET: 17,
  MONEY: 18,
} as const;

export interface Codec {
  kind: number;
  typeInfo: Buffer;
  /** Values go as PLP (the max types). */
  plp: boolean;
  /** Declared length in characters (nchar/char padding) or bytes (binary); 0 when not fixed. */
  fixedLength: number;
  /** decimal value length, datetime2 scale. */
  size: number;
  scale: number;
}

const MAX = 0xffff;

function decimalLength(precision: number): number {
  return precision <= 9 ? 5 : precision <= 19 ? 9 : precision <= 28 ? 13 : 17;
}

export function codecFor(t: SqlType): Codec {
  const c = (kind: number, info: number[], extra: Partial<Codec> = {}): Codec => ({
    kind,
    typeInfo: Buffer.from(info),
    plp: false,
    fixedLength: 0,
    size: 0,
    scale: 0,
    ...extra,
  });
  switch (t.type) {
    case 'bit':
      return c(K.BIT, [TypeId.BITN, 1]);
    case 'tinyint':
      return c(K.INT1, [TypeId.INTN, 1]);
    case 'smallint':
      return c(K.INT2, [TypeId.INTN, 2]);
    case 'int':
      return c(K.INT4, [TypeId.INTN, 4]);
    case 'bigint':
      return c(K.INT8, [TypeId.INTN, 8]);
    case 'real':
      return c(K.FLT4, [TypeId.FLTN, 4]);
    case 'float':
      return c(K.FLT8, [TypeId.FLTN, 8]);
    case 'decimal': {
      const p = Math.min(Math.max(t.precision, 1), 38);
      const s = Math.min(Math.max(t.scale, 0), p);
      const len = decimalLength(p);
      return c(K.DEC, [TypeId.DECIMALN, len, p, s], { size: len, scale: s });
    }
    case 'datetime':
      return c(K.DATETIME, [TypeId.DATETIMN, 8]);
    case 'datetime2': {
      const s = Math.min(Math.max(t.scale ?? 7, 0), 7);
      return c(K.DATETIME2, [TypeId.DATETIME2N, s], { scale: s, size: timeBytes(s) + 3 });
    }
    case 'date':
      return c(K.DATE, [TypeId.DATEN]);
    case 'time':
    case 'datetimeoffset': {
      const s = Math.min(Math.max(t.scale ?? 7, 0), 7);
      const offset = t.type === 'datetimeoffset';
      return c(offset ? K.DTOFFSET : K.TIME, [offset ? TypeId.DATETIMEOFFSETN : TypeId.TIMEN, s], {
        scale: s,
        size: timeBytes(s) + (offset ? 5 : 0),
      });
    }
    case 'money':
    case 'smallmoney': {
      const len = t.type === 'money' ? 8 : 4;
      return c(K.MONEY, [TypeId.MONEYN, len], { size: len });
    }
    case 'uniqueidentifier':
      return c(K.GUID, [TypeId.GUID, 16]);
    case 'nvarchar':
    case 'nchar': {
      const id = t.type === 'nvarchar' ? TypeId.NVARCHAR : TypeId.NCHAR;
      const len = t.length === 'max' ? Infinity : t.length;
      const max = len > 4000;
      const bytes = max ? MAX : Math.max(1, len) * 2;
      const info = [id, bytes & 0xff, bytes >> 8, ...DEFAULT_COLLATION];
      return c(K.NSTR, info, { plp: max, fixedLength: t.type === 'nchar' && !max ? bytes / 2 : 0 });
    }
    case 'varchar':
    case 'char': {
      const id = t.type === 'varchar' ? TypeId.BIGVARCHR : TypeId.BIGCHAR;
      const len = t.length === 'max' ? Infinity : t.length;
      const max = len > 8000;
      const bytes = max ? MAX : Math.max(1, len);
      const info = [id, bytes & 0xff, bytes >> 8, ...DEFAULT_COLLATION];
      return c(K.STR, info, { plp: max, fixedLength: t.type === 'char' && !max ? bytes : 0 });
    }
    case 'varbinary':
    case 'binary': {
      const id = t.type === 'varbinary' ? TypeId.BIGVARBIN : TypeId.BIGBINARY;
      const len = t.length === 'max' ? Infinity : t.length;
      const max = len > 8000;
      const bytes = max ? MAX : Math.max(1, len);
      return c(K.BIN, [id, bytes & 0xff, bytes >> 8], { plp: max, fixedLength: t.type === 'binary' && !max ? bytes : 0 });
    }
    case 'sql_variant':
      // MaxLength 8009 (MS-TDS 2.2.5.5.4); each value then names its own base type.
      return c(K.VARIANT, [TypeId.SSVARIANT, 0x49, 0x1f, 0x00, 0x00]);
    default:
      throw new UnsupportedError(`unsupported column type ${(t as { type: string }).type}`);
  }
}

function toNumber(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint' || typeof v === 'string') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new UnsupportedError(`not a number: ${String(v)}`);
}

function toInt(v: Value, min: number, max: number, type: string): number {
  const n = toNumber(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UnsupportedError(`${type} value out of range: ${String(v)}`);
  return n;
}

function toText(v: Value): string {
  if (typeof v === 'string') return v;
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return String(v);
}

/** Writes a variable-length value as PLP (one chunk) or with a 2-byte length. */
function writeVarBytes(w: BufWriter, c: Codec, b: Buffer): void {
  if (c.plp) {
    w.u64n(b.length);
    if (b.length > 0) {
      w.u32(b.length);
      w.bytes(b);
    }
    w.u32(0);
  } else {
    w.u16(b.length);
    w.bytes(b);
  }
}

/** True when the cell would be written as NULL (for NBCROW's bitmap). */
export function isNull(v: Value | undefined): boolean {
  return v === null || v === undefined;
}

export function writeNull(w: BufWriter, c: Codec): void {
  if (c.plp) w.u64(0xffffffffffffffffn);
  else if (c.kind === K.VARIANT) w.u32(0);
  else if (c.kind === K.NSTR || c.kind === K.STR || c.kind === K.BIN) w.u16(0xffff);
  else w.u8(0);
}

export function writeValue(w: BufWriter, c: Codec, v: Value | undefined): void {
  if (v === null || v === undefined) return writeNull(w, c);
  switch (c.kind) {
    case K.BIT:
      w.u8(1);
      w.u8(v === true || (typeof v !== 'boolean' && toNumber(v) !== 0) ? 1 : 0);
      return;
    case K.INT1:
      w.u8(1);
      w.u8(toInt(v, 0, 255, 'tinyint'));
      return;
    case K.INT2:
      w.u8(2);
      w.ensure(2);
      w.pos = w.buf.writeInt16LE(toInt(v, -32768, 32767, 'smallint'), w.pos);
      return;
    case K.INT4:
      w.u8(4);
      w.i32(toInt(v, -2147483648, 2147483647, 'int'));
      return;
    case K.INT8: {
      const n = typeof v === 'bigint' ? v : BigInt(toInt(v, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'bigint'));
      if (n < -(2n ** 63n) || n >= 2n ** 63n) throw new UnsupportedError(`bigint out of range: ${n}`);
      w.u8(8);
      w.i64(n);
      return;
    }
    case K.FLT4:
    case K.FLT8: {
      const n = toNumber(v);
      if (!Number.isFinite(n)) throw new UnsupportedError(`float value not finite: ${String(v)}`);
      w.u8(c.kind === K.FLT4 ? 4 : 8);
      if (c.kind === K.FLT4) w.f32(n);
      else w.f64(n);
      return;
    }
    case K.DEC: {
      let n = toScaledBigInt(v, c.scale);
      w.u8(c.size);
      w.u8(n < 0n ? 0 : 1);
      if (n < 0n) n = -n;
      for (let i = 1; i < c.size; i++) {
        w.u8(Number(n & 0xffn));
        n >>= 8n;
      }
      if (n !== 0n) throw new UnsupportedError('decimal value exceeds its precision');
      return;
    }
    case K.NSTR: {
      let s = toText(v);
      if (c.fixedLength && s.length < c.fixedLength) s = s.padEnd(c.fixedLength, ' ');
      if (c.plp) {
        const n = s.length * 2;
        w.u64n(n);
        if (n > 0) {
          w.u32(n);
          w.ucs2(s);
        }
        w.u32(0);
      } else {
        w.u16(s.length * 2);
        w.ucs2(s);
      }
      return;
    }
    case K.STR: {
      let s = toText(v);
      if (c.fixedLength && s.length < c.fixedLength) s = s.padEnd(c.fixedLength, ' ');
      writeVarBytes(w, c, encodeCp1252(s));
      return;
    }
    case K.BIN: {
      let b = Buffer.isBuffer(v) ? v : Buffer.from(toText(v), 'utf8');
      if (c.fixedLength && b.length < c.fixedLength) b = Buffer.concat([b, Buffer.alloc(c.fixedLength - b.length)]);
      writeVarBytes(w, c, b);
      return;
    }
    case K.DATETIME: {
      const [days, ticks] = datetimeParts(toDate(v));
      w.u8(8);
      w.i32(days);
      w.u32(ticks);
      return;
    }
    case K.DATETIME2: {
      const [units, days] = datetime2Parts(toDate(v), c.scale);
      const tb = c.size - 3;
      w.u8(c.size);
      w.ensure(c.size);
      w.buf.writeUIntLE(units, w.pos, tb);
      w.buf.writeUIntLE(days, w.pos + tb, 3);
      w.pos += c.size;
      return;
    }
    case K.DATE: {
      const [, days] = datetime2Parts(toDate(v), 0);
      w.u8(3);
      w.ensure(3);
      w.pos = w.buf.writeUIntLE(days, w.pos, 3);
      return;
    }
    case K.TIME: {
      const [units] = datetime2Parts(toDate(v), c.scale);
      w.u8(c.size);
      w.ensure(c.size);
      w.pos = w.buf.writeUIntLE(units, w.pos, c.size);
      return;
    }
    case K.DTOFFSET: {
      // Sent as the UTC instant and the offset in minutes (MS-TDS 2.2.5.4.2): text keeps the offset it was written with.
      const { utc, minutes } = offsetParts(v);
      const [units, days] = datetime2Parts(utc, c.scale);
      const tb = c.size - 5;
      w.u8(c.size);
      w.ensure(c.size);
      w.buf.writeUIntLE(units, w.pos, tb);
      w.buf.writeUIntLE(days, w.pos + tb, 3);
      w.buf.writeInt16LE(minutes, w.pos + tb + 3);
      w.pos += c.size;
      return;
    }
    case K.MONEY: {
      // Ten-thousandths as an integer: money is its high 32 bits then its low 32 bits; smallmoney one int32.
      const n = toScaledBigInt(v, 4);
      w.u8(c.size);
      if (c.size === 4) {
        if (n < -(2n ** 31n) || n >= 2n ** 31n) throw new UnsupportedError(`smallmoney out of range: ${String(v)}`);
        w.i32(Number(n));
      } else {
        if (n < -(2n ** 63n) || n >= 2n ** 63n) throw new UnsupportedError(`money out of range: ${String(v)}`);
        const u = BigInt.asUintN(64, n);
        w.i32(Number(BigInt.asIntN(32, u >> 32n)));
        w.u32(Number(u & 0xffffffffn));
      }
      return;
    }
    case K.VARIANT:
      return writeVariant(w, v);
    case K.GUID:
      w.u8(16);
      w.ensure(16);
      guidToBytes(toText(v), w.buf, w.pos);
      w.pos += 16;
      return;
  }
}

/**
 * A sql_variant value (MS-TDS 2.2.5.5.4): total length, base type, property bytes, then the value. The base type
 * follows the JS value: text is nvarchar (nvarchar(128), as SERVERPROPERTY's strings, when it fits), whole numbers
 * int or bigint, others float, booleans bit, dates datetime, buffers varbinary.
 */
function writeVariant(w: BufWriter, v: Value): void {
  const head = (base: number, props: number[], dataLen: number) => {
    w.u32(2 + props.length + dataLen);
    w.u8(base);
    w.u8(props.length);
    for (const b of props) w.u8(b);
  };
  if (typeof v === 'string') {
    if (v.length > 4000) throw new UnsupportedError('sql_variant string longer than 4000 characters');
    const max = v.length <= 128 ? 256 : 8000;
    head(TypeId.NVARCHAR, [...DEFAULT_COLLATION, max & 0xff, max >> 8], v.length * 2);
    w.ucs2(v);
    return;
  }
  if (typeof v === 'boolean') {
    head(TypeId.BIT, [], 1);
    w.u8(v ? 1 : 0);
    return;
  }
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v) && (v < -2147483648 || v > 2147483647))) {
    head(TypeId.INT8, [], 8);
    w.i64(BigInt(v));
    return;
  }
  if (typeof v === 'number') {
    if (Number.isInteger(v)) {
      head(TypeId.INT4, [], 4);
      w.i32(v);
    } else {
      head(TypeId.FLT8, [], 8);
      w.f64(v);
    }
    return;
  }
  if (v instanceof Date) {
    const [days, ticks] = datetimeParts(v);
    head(TypeId.DATETIME, [], 8);
    w.i32(days);
    w.u32(ticks);
    return;
  }
  if (Buffer.isBuffer(v)) {
    head(TypeId.BIGVARBIN, [0x40, 0x1f], v.length);
    w.bytes(v);
    return;
  }
  throw new UnsupportedError(`cannot send ${String(v)} as sql_variant`);
}

/** A datetimeoffset value: the UTC instant and the offset in minutes ('2024-05-01 10:00:00.1234567 +02:00'). */
function offsetParts(v: Value): { utc: Date; minutes: number } {
  if (typeof v !== 'string') return { utc: toDate(v), minutes: 0 };
  const m = /^(.*\S)\s*([+-])(\d{2}):(\d{2})$/.exec(v.trim());
  if (!m) return { utc: toDate(v), minutes: 0 };
  const minutes = (m[2] === '-' ? -1 : 1) * (Number(m[3]) * 60 + Number(m[4]));
  const local = toDate(m[1].replace(' ', 'T') + 'Z');
  return { utc: new Date(local.getTime() - minutes * 60_000), minutes };
}
