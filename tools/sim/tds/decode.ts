// Client -> server type decoding: an RPC parameter's TYPE_INFO and value (MS-TDS 2.2.5.4-2.2.5.6), mapped onto the
// contract's SqlType. Covers what tedious and FreeTDS send for the contract's types, plus the fixed-length and legacy
// forms that map onto them (money, smalldatetime, date, datetimeoffset, text/ntext/image, xml).

import type { SqlType, Value } from './contract';
import { BufReader } from './bufreader';
import { ProtocolError, TypeId, UnsupportedError } from './protocol';
import {
  datetime2FromParts,
  datetimeFromParts,
  decodeCp1252,
  DAY_MS,
  EPOCH_0001,
  fromScaledBigInt,
  guidFromBytes,
  timeBytes,
} from './values';

const PLP_NULL = 0xffffffffffffffffn;

export interface Decoded {
  sqlType: SqlType;
  value: Value;
}

/** Reads PLP chunks into one owned buffer; null for PLP NULL. */
function readPlp(r: BufReader): Buffer | null {
  const total = r.u64();
  if (total === PLP_NULL) return null;
  const parts: Buffer[] = [];
  let n = 0;
  for (;;) {
    const len = r.u32();
    if (len === 0) break;
    parts.push(r.view(len));
    n += len;
  }
  return parts.length === 1 ? Buffer.from(parts[0]) : Buffer.concat(parts, n);
}

function readFixedNumber(r: BufReader, id: number, len: number): Value {
  switch (id) {
    case TypeId.INTN:
      if (len === 1) return r.u8();
      if (len === 2) return r.view(2).readInt16LE(0);
      if (len === 4) return r.i32();
      if (len === 8) return r.i64();
      break;
    case TypeId.BITN:
      if (len === 1) return r.u8() !== 0;
      break;
    case TypeId.FLTN:
      if (len === 4) return r.f32();
      if (len === 8) return r.f64();
      break;
    case TypeId.MONEYN:
      if (len === 4) return r.i32() / 10000;
      if (len === 8) {
        const hi = r.i32();
        const lo = r.u32();
        return fromScaledBigInt((BigInt(hi) << 32n) + BigInt(lo), 4);
      }
      break;
    case TypeId.DATETIMN:
      if (len === 8) {
        const days = r.i32();
        return datetimeFromParts(days, r.u32());
      }
      if (len === 4) {
        const days = r.u16();
        return new Date(datetimeFromParts(days, 0).getTime() + r.u16() * 60_000);
      }
      break;
    case TypeId.GUID:
      if (len === 16) return guidFromBytes(r.view(16), 0);
      break;
  }
  throw new ProtocolError(`bad value length ${len} for type 0x${id.toString(16)}`);
}

function nType(id: number, len: number): SqlType {
  switch (id) {
    case TypeId.INTN:
      return { type: len === 1 ? 'tinyint' : len === 2 ? 'smallint' : len === 8 ? 'bigint' : 'int' };
    case TypeId.BITN:
      return { type: 'bit' };
    case TypeId.FLTN:
      return { type: len === 4 ? 'real' : 'float' };
    case TypeId.MONEYN:
      return { type: 'decimal', precision: len === 4 ? 10 : 19, scale: 4 };
    case TypeId.DATETIMN:
      return { type: 'datetime' };
    default:
      return { type: 'uniqueidentifier' };
  }
}

/** Fixed-length types (no length byte at all): id -> [wire id of the nullable twin, length]. */
const FIXED: Record<number, [number, number]> = {
  [TypeId.INT1]: [TypeId.INTN, 1],
  [TypeId.INT2]: [TypeId.INTN, 2],
  [TypeId.INT4]: [TypeId.INTN, 4],
  [TypeId.INT8]: [TypeId.INTN, 8],
  [TypeId.BIT]: [TypeId.BITN, 1],
  [TypeId.FLT4]: [TypeId.FLTN, 4],
  [TypeId.FLT8]: [TypeId.FLTN, 8],
  [TypeId.MONEY4]: [TypeId.MONEYN, 4],
  [TypeId.MONEY]: [TypeId.MONEYN, 8],
  [TypeId.DATETIM4]: [TypeId.DATETIMN, 4],
  [TypeId.DATETIME]: [TypeId.DATETIMN, 8],
};

/** Reads TYPE_INFO followed by the value. Values are owned copies (the payload buffer is reused). */
export function readTypedValue(r: BufReader): Decoded {
  const id = r.u8();
  const fixed = FIXED[id];
  if (fixed) return { sqlType: nType(fixed[0], fixed[1]), value: readFixedNumber(r, fixed[0], fixed[1]) };
  switch (id) {
    case TypeId.NULL:
      return { sqlType: { type: 'int' }, value: null };
    case TypeId.INTN:
    case TypeId.BITN:
    case TypeId.FLTN:
    case TypeId.MONEYN:
    case TypeId.DATETIMN:
    case TypeId.GUID: {
      const max = r.u8();
      const len = r.u8();
      return { sqlType: nType(id, max), value: len === 0 ? null : readFixedNumber(r, id, len) };
    }
    case TypeId.DECIMALN:
    case TypeId.NUMERICN: {
      r.u8(); // max length
      const precision = r.u8();
      const scale = r.u8();
      if (precision < 1 || precision > 38 || scale > precision) throw new ProtocolError('bad decimal precision/scale');
      const len = r.u8();
      const sqlType: SqlType = { type: 'decimal', precision, scale };
      if (len === 0) return { sqlType, value: null };
      if (len < 2 || len > 17) throw new ProtocolError(`bad decimal length ${len}`);
      const positive = r.u8() === 1;
      const mag = r.view(len - 1);
      let n = 0n;
      for (let i = mag.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(mag[i]);
      return { sqlType, value: fromScaledBigInt(positive ? n : -n, scale) };
    }
    case TypeId.DATEN: {
      const len = r.u8();
      const sqlType: SqlType = { type: 'datetime2', scale: 0 };
      if (len === 0) return { sqlType, value: null };
      if (len !== 3) throw new ProtocolError(`bad date length ${len}`);
      return { sqlType, value: new Date(EPOCH_0001 + r.uintN(3) * DAY_MS) };
    }
    case TypeId.DATETIME2N:
    case TypeId.DATETIMEOFFSETN: {
      const scale = r.u8();
      if (scale > 7) throw new ProtocolError(`bad time scale ${scale}`);
      const len = r.u8();
      const sqlType: SqlType = { type: 'datetime2', scale };
      if (len === 0) return { sqlType, value: null };
      const tb = timeBytes(scale);
      const offset = id === TypeId.DATETIMEOFFSETN ? 2 : 0;
      if (len !== tb + 3 + offset) throw new ProtocolError(`bad datetime2 length ${len}`);
      const units = r.uintN(tb);
      const days = r.uintN(3);
      if (offset) r.u16(); // datetimeoffset values are sent in UTC; the offset only matters for display
      return { sqlType, value: datetime2FromParts(units, days, scale) };
    }
    case TypeId.NVARCHAR:
    case TypeId.NCHAR:
    case TypeId.BIGVARCHR:
    case TypeId.BIGCHAR:
    case TypeId.BIGVARBIN:
    case TypeId.BIGBINARY: {
      const max = r.u16();
      const unicode = id === TypeId.NVARCHAR || id === TypeId.NCHAR;
      const binary = id === TypeId.BIGVARBIN || id === TypeId.BIGBINARY;
      if (!binary) r.view(5); // collation: the simulator's single code page
      const isMax = max === 0xffff;
      const name = (
        {
          [TypeId.NVARCHAR]: 'nvarchar',
          [TypeId.NCHAR]: 'nchar',
          [TypeId.BIGVARCHR]: 'varchar',
          [TypeId.BIGCHAR]: 'char',
          [TypeId.BIGVARBIN]: 'varbinary',
          [TypeId.BIGBINARY]: 'binary',
        } as const
      )[id];
      const sqlType = { type: name, length: isMax ? 'max' : unicode ? max / 2 : max } as SqlType;
      let raw: Buffer | null;
      if (isMax) raw = readPlp(r);
      else {
        const len = r.u16();
        raw = len === 0xffff ? null : r.view(len);
      }
      if (raw === null) return { sqlType, value: null };
      const value = unicode
        ? (() => {
            if (raw.length & 1) throw new ProtocolError('odd UTF-16 length');
            return raw.toString('utf16le');
          })()
        : binary
          ? Buffer.from(raw)
          : decodeCp1252(raw, 0, raw.length);
      return { sqlType, value };
    }
    case TypeId.TEXT:
    case TypeId.NTEXT:
    case TypeId.IMAGE: {
      r.u32(); // declared max length
      if (id !== TypeId.IMAGE) r.view(5);
      const sqlType: SqlType =
        id === TypeId.IMAGE ? { type: 'varbinary', length: 'max' } : { type: id === TypeId.NTEXT ? 'nvarchar' : 'varchar', length: 'max' };
      const len = r.u32();
      if (len === 0xffffffff) return { sqlType, value: null };
      const raw = r.view(len);
      const value =
        id === TypeId.NTEXT ? raw.toString('utf16le') : id === TypeId.IMAGE ? Buffer.from(raw) : decodeCp1252(raw, 0, raw.length);
      return { sqlType, value };
    }
    case TypeId.XML: {
      if (r.u8() === 1) {
        r.bVarchar();
        r.bVarchar();
        r.usVarchar();
      }
      const raw = readPlp(r);
      return { sqlType: { type: 'nvarchar', length: 'max' }, value: raw === null ? null : raw.toString('utf16le') };
    }
    default:
      throw new UnsupportedError(`Data type 0x${id.toString(16).toUpperCase()} is unknown.`);
  }
}
