// Token stream writers (MS-TDS 2.2.7). Each appends one token to a BufWriter.

import type { Column, ServerMessage, Value } from './contract';
import { BufWriter } from './bufwriter';
import { Codec, isNull, writeValue } from './encode';
import { Token } from './protocol';

/** Runs `body` after a 2-byte length placeholder and patches the length in. */
function withLength16(w: BufWriter, body: () => void): void {
  const at = w.skip(2);
  body();
  w.buf.writeUInt16LE(w.pos - at - 2, at);
}

export function writeLoginAck(
  w: BufWriter,
  tdsVersion: number,
  progName: string,
  v: { major: number; minor: number; build: number },
): void {
  w.u8(Token.LOGINACK);
  withLength16(w, () => {
    w.u8(1); // interface: SQL_TSQL
    w.u32be(tdsVersion);
    w.bVarchar(progName);
    w.u8(v.major);
    w.u8(v.minor);
    w.u8((v.build >> 8) & 0xff);
    w.u8(v.build & 0xff);
  });
}

export function writeEnvChangeString(w: BufWriter, type: number, newValue: string, oldValue: string): void {
  w.u8(Token.ENVCHANGE);
  withLength16(w, () => {
    w.u8(type);
    w.bVarchar(newValue);
    w.bVarchar(oldValue);
  });
}

export function writeEnvChangeBytes(w: BufWriter, type: number, newValue: Buffer, oldValue: Buffer): void {
  w.u8(Token.ENVCHANGE);
  withLength16(w, () => {
    w.u8(type);
    w.u8(newValue.length);
    w.bytes(newValue);
    w.u8(oldValue.length);
    w.bytes(oldValue);
  });
}

/** ERROR for class >= 11, INFO otherwise (SQL Server's rule, whatever kind the model said). */
export function writeMessage(w: BufWriter, m: ServerMessage, serverName: string): void {
  w.u8(m.class >= 11 ? Token.ERROR : Token.INFO);
  withLength16(w, () => {
    w.i32(m.number);
    w.u8(m.state & 0xff);
    w.u8(m.class & 0xff);
    w.usVarchar(m.message);
    w.bVarchar(serverName);
    w.bVarchar(m.procName ?? '');
    w.i32(m.line ?? 1);
  });
}

export function writeFeatureExtAck(w: BufWriter, features: Array<[number, Buffer]>): void {
  w.u8(Token.FEATUREEXTACK);
  for (const [id, data] of features) {
    w.u8(id);
    w.u32(data.length);
    w.bytes(data);
  }
  w.u8(0xff);
}

const FLAG_NULLABLE = 0x0001;
const FLAG_UPDATEABLE_UNKNOWN = 0x0008;

function writeColumnMeta(w: BufWriter, nullable: boolean, c: Codec): void {
  w.u32(0); // UserType
  w.u16((nullable ? FLAG_NULLABLE : 0) | FLAG_UPDATEABLE_UNKNOWN);
  w.bytes(c.typeInfo);
}

export function writeColMetadata(w: BufWriter, columns: Column[], codecs: Codec[]): void {
  w.u8(Token.COLMETADATA);
  w.u16(columns.length);
  for (let i = 0; i < columns.length; i++) {
    writeColumnMeta(w, columns[i].nullable !== false, codecs[i]);
    w.bVarchar(columns[i].name);
  }
}

/** ROW, or NBCROW (null bitmap, nulls omitted) when the row has a NULL, as SQL Server does. */
export function writeRow(w: BufWriter, codecs: Codec[], row: Value[]): void {
  const n = codecs.length;
  let nulls = 0;
  for (let i = 0; i < n; i++) if (isNull(row[i])) nulls++;
  if (nulls === 0) {
    w.u8(Token.ROW);
    for (let i = 0; i < n; i++) writeValue(w, codecs[i], row[i]);
    return;
  }
  w.u8(Token.NBCROW);
  const bitmapBytes = (n + 7) >> 3;
  const at = w.skip(bitmapBytes);
  w.buf.fill(0, at, at + bitmapBytes);
  for (let i = 0; i < n; i++) {
    if (isNull(row[i])) w.buf[at + (i >> 3)] |= 1 << (i & 7);
    else writeValue(w, codecs[i], row[i]);
  }
}

export function writeDone(w: BufWriter, token: number, status: number, curCmd: number, count: number): void {
  w.u8(token);
  w.u16(status);
  w.u16(curCmd);
  w.u64n(count);
}

export function writeReturnStatus(w: BufWriter, value: number): void {
  w.u8(Token.RETURNSTATUS);
  w.i32(value);
}

export function writeReturnValue(w: BufWriter, ordinal: number, name: string, c: Codec, value: Value): void {
  w.u8(Token.RETURNVALUE);
  w.u16(ordinal);
  w.bVarchar(name);
  w.u8(0x01); // status: output parameter
  writeColumnMeta(w, true, c);
  writeValue(w, c, value);
}
