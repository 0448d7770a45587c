// A growable little-endian byte writer. One per connection, reset between responses, so building a reply costs no
// allocations once the buffer has grown to the connection's usual reply size.

export class BufWriter {
  buf: Buffer;
  pos = 0;

  constructor(initial = 4096) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  reset(): void {
    this.pos = 0;
  }

  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  u16(v: number): void {
    this.ensure(2);
    this.pos = this.buf.writeUInt16LE(v, this.pos);
  }

  u16be(v: number): void {
    this.ensure(2);
    this.pos = this.buf.writeUInt16BE(v, this.pos);
  }

  u32(v: number): void {
    this.ensure(4);
    this.pos = this.buf.writeUInt32LE(v >>> 0, this.pos);
  }

  u32be(v: number): void {
    this.ensure(4);
    this.pos = this.buf.writeUInt32BE(v >>> 0, this.pos);
  }

  i32(v: number): void {
    this.ensure(4);
    this.pos = this.buf.writeInt32LE(v | 0, this.pos);
  }

  i64(v: bigint): void {
    this.ensure(8);
    this.pos = this.buf.writeBigInt64LE(v, this.pos);
  }

  u64(v: bigint): void {
    this.ensure(8);
    this.pos = this.buf.writeBigUInt64LE(v, this.pos);
  }

  /** A 64-bit unsigned count from a JS number (row counts, PLP lengths). */
  u64n(v: number): void {
    this.ensure(8);
    this.buf.writeUInt32LE(v % 0x100000000, this.pos);
    this.buf.writeUInt32LE(Math.floor(v / 0x100000000), this.pos + 4);
    this.pos += 8;
  }

  f32(v: number): void {
    this.ensure(4);
    this.pos = this.buf.writeFloatLE(v, this.pos);
  }

  f64(v: number): void {
    this.ensure(8);
    this.pos = this.buf.writeDoubleLE(v, this.pos);
  }

  bytes(b: Buffer | Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** UTF-16LE text with no length prefix; returns the byte count. */
  ucs2(s: string): number {
    const n = s.length * 2;
    this.ensure(n);
    this.buf.write(s, this.pos, n, 'utf16le');
    this.pos += n;
    return n;
  }

  /** B_VARCHAR: 1-byte character count + UTF-16LE. */
  bVarchar(s: string): void {
    if (s.length > 255) s = s.slice(0, 255);
    this.u8(s.length);
    this.ucs2(s);
  }

  /** US_VARCHAR: 2-byte character count + UTF-16LE. */
  usVarchar(s: string): void {
    if (s.length > 65535) s = s.slice(0, 65535);
    this.u16(s.length);
    this.ucs2(s);
  }

  /** Reserve n bytes (e.g. a length to patch later); returns their offset. */
  skip(n: number): number {
    this.ensure(n);
    const at = this.pos;
    this.pos += n;
    return at;
  }
}
