// Stepping over the rows a procedure returns without reading their values: COLMETADATA ([MS-TDS] 2.2.7.4) gives each
// column's TYPE_INFO ([MS-TDS] 2.2.5.6), which says how its value is laid out in a ROW or NBCROW ([MS-TDS] 2.2.7.19,
// 2.2.7.13). Types whose layout is not handled here (text, ntext, image, xml, CLR types, Always Encrypted) are refused.
import { SpinlabError } from '../../shared/spinlabError';

/** A token or type the lean path does not step over: the session cannot go on (the server sent what it cannot read). */
export class LeanUnsupported extends SpinlabError {
  constructor(message: string) {
    super('server', message);
  }
}

/** How a column's value is laid out: a fixed width, or a 1-, 2- or 4-byte length before it, or PLP chunks. */
export type Column = { kind: 'fixed'; width: number } | { kind: 'len1' } | { kind: 'len2' } | { kind: 'len4' } | { kind: 'plp' };

/** Fixed-length types: no TYPE_INFO beyond the type byte. */
const FIXED: Record<number, number> = {
  0x1f: 0, // NULLTYPE
  0x30: 1, // INT1
  0x32: 1, // BIT
  0x34: 2, // INT2
  0x38: 4, // INT4
  0x3a: 4, // DATETIM4
  0x3b: 4, // FLT4
  0x3c: 8, // MONEY
  0x3d: 8, // DATETIME
  0x3e: 8, // FLT8
  0x7a: 4, // MONEY4
  0x7f: 8, // INT8
};
/** Byte-length types whose TYPE_INFO is one length byte. */
const LEN1_MAX = new Set([0x24, 0x26, 0x68, 0x6d, 0x6e, 0x6f]); // GUID, INTN, BITN, FLTN, MONEYN, DATETIMN
/** Byte-length types with scale only (time, datetime2, datetimeoffset) or nothing (date). */
const LEN1_SCALE = new Set([0x29, 0x2a, 0x2b]);
const DATEN = 0x28;
const DECIMALN = new Set([0x6a, 0x6c]); // DECIMALN, NUMERICN: length, precision, scale
/** Two-byte-length types: binary (max length only) and character (max length and a 5-byte collation). */
const LEN2_BINARY = new Set([0xa5, 0xad]); // BIGVARBIN, BIGBINARY
const LEN2_CHAR = new Set([0xa7, 0xaf, 0xe7, 0xef]); // BIGVARCHR, BIGCHAR, NVARCHAR, NCHAR
const SSVARIANT = 0x62;

/** Reads COLMETADATA after its token byte: the columns, and the offset after the token. */
export function readColumns(b: Buffer, o: number): { columns: Column[] | null; offset: number } {
  const count = b.readUInt16LE(o);
  o += 2;
  if (count === 0xffff) return { columns: null, offset: o }; // no metadata
  const columns: Column[] = [];
  for (let i = 0; i < count; i++) {
    const flags = b.readUInt16LE(o + 4); // after UserType (4 bytes)
    if (flags & 0x0800) throw new LeanUnsupported('an encrypted column (Always Encrypted)');
    o += 6;
    const type = b[o++];
    let col: Column;
    if (type in FIXED) col = { kind: 'fixed', width: FIXED[type] };
    else if (LEN1_MAX.has(type)) {
      o += 1;
      col = { kind: 'len1' };
    } else if (LEN1_SCALE.has(type)) {
      o += 1;
      col = { kind: 'len1' };
    } else if (type === DATEN) col = { kind: 'len1' };
    else if (DECIMALN.has(type)) {
      o += 3;
      col = { kind: 'len1' };
    } else if (LEN2_BINARY.has(type) || LEN2_CHAR.has(type)) {
      const max = b.readUInt16LE(o);
      o += 2 + (LEN2_CHAR.has(type) ? 5 : 0);
      col = max === 0xffff ? { kind: 'plp' } : { kind: 'len2' };
    } else if (type === SSVARIANT) {
      o += 4;
      col = { kind: 'len4' };
    } else throw new LeanUnsupported(`a result column of TDS type 0x${type.toString(16)} (text, ntext, image, xml or a CLR type)`);
    o += 1 + b[o] * 2; // ColName: B_VARCHAR
    columns.push(col);
  }
  return { columns, offset: o };
}

/** Steps over one ROW (or NBCROW, whose null bitmap leaves out the null columns' values) after its token byte. */
export function skipRow(b: Buffer, o: number, columns: readonly Column[], nbc: boolean): number {
  let bitmap = -1;
  if (nbc) {
    bitmap = o;
    o += (columns.length + 7) >> 3;
  }
  for (let i = 0; i < columns.length; i++) {
    if (nbc && b[bitmap + (i >> 3)] & (1 << (i & 7))) continue;
    const c = columns[i];
    switch (c.kind) {
      case 'fixed':
        o += c.width;
        break;
      case 'len1':
        o += 1 + b[o];
        break;
      case 'len2': {
        const n = b.readUInt16LE(o);
        o += 2 + (n === 0xffff ? 0 : n);
        break;
      }
      case 'len4':
        o += 4 + b.readUInt32LE(o);
        break;
      case 'plp': {
        // PLP_BODY: ULONGLONG total length (all ones = NULL), then chunks of a ULONG length until a zero one.
        const nullPlp = b.readUInt32LE(o) === 0xffffffff && b.readUInt32LE(o + 4) === 0xffffffff;
        o += 8;
        if (nullPlp) break;
        for (let n = b.readUInt32LE(o); ; n = b.readUInt32LE(o)) {
          o += 4 + n;
          if (n === 0) break;
        }
        break;
      }
    }
  }
  if (o > b.length) throw new LeanUnsupported('a row ran past the end of its message');
  return o;
}
