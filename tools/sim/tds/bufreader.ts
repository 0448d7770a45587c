// A bounds-checked little-endian reader over one request payload. Every read past the end throws ProtocolError, so a
// truncated or lying request closes its connection instead of producing garbage.

import { ProtocolError } from './protocol';

export class BufReader {
  constructor(
    readonly buf: Buffer,
    public pos = 0,
    readonly end = buf.length,
  ) {}

  get remaining(): number {
    return this.end - this.pos;
  }

  need(n: number): void {
    if (n < 0 || this.pos + n > this.end) {
      throw new ProtocolError(`truncated payload: need ${n} bytes at ${this.pos}, have ${this.end - this.pos}`);
    }
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  peek(): number {
    this.need(1);
    return this.buf[this.pos];
  }

  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16LE(this.pos);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  i32(): number {
    this.need(4);
    const v = this.buf.readInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  i64(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  u64(): bigint {
    this.need(8);
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  /** Unsigned little-endian integer of 1..8 bytes as a number (datetime2 time parts, lengths). */
  uintN(n: number): number {
    this.need(n);
    let v = 0;
    let mul = 1;
    for (let i = 0; i < n; i++) {
      v += this.buf[this.pos + i] * mul;
      mul *= 256;
    }
    this.pos += n;
    return v;
  }

  f32(): number {
    this.need(4);
    const v = this.buf.readFloatLE(this.pos);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  /** A view into the payload (valid only until the payload buffer is reused). */
  view(n: number): Buffer {
    this.need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** An owned copy (values handed to the model must outlive the reused payload buffer). */
  copy(n: number): Buffer {
    return Buffer.from(this.view(n));
  }

  ucs2(bytes: number): string {
    this.need(bytes);
    if (bytes & 1) throw new ProtocolError('odd byte count for UTF-16 text');
    const s = this.buf.toString('utf16le', this.pos, this.pos + bytes);
    this.pos += bytes;
    return s;
  }

  bVarchar(): string {
    return this.ucs2(this.u8() * 2);
  }

  usVarchar(): string {
    return this.ucs2(this.u16() * 2);
  }
}
