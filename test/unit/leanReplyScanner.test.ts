// The lean path's reply scanner (src/db/lean/replyScanner.ts, rowSkipper.ts): a reply read the same whether it comes
// in one chunk, split into several TDS packets, or byte by byte; ERROR tokens with every field the driver reports;
// DONE status bits (error, more, attention acknowledged); transaction descriptors from ENVCHANGE; rows stepped over
// by their metadata (NBCROW nulls, PLP values); and what it cannot step over refused rather than misread.
import assert from 'node:assert/strict';
import { LeanUnsupported, ReplyScanner, type ReplyMessage } from '../../src/db/lean/replyScanner';

const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const ucs2 = (s: string) => Buffer.from(s, 'utf16le');
const bVarchar = (s: string) => Buffer.concat([Buffer.from([s.length]), ucs2(s)]);
const usVarchar = (s: string) => Buffer.concat([u16(s.length), ucs2(s)]);

const done = (token: number, status: number, rows = 0) => Buffer.concat([Buffer.from([token]), u16(status), u16(0xc1), u32(rows), u32(0)]);
const DONE = 0xfd;
const DONEPROC = 0xfe;
const DONEINPROC = 0xff;
const returnStatus = (v: number) => Buffer.concat([Buffer.from([0x79]), u32(v)]);

function errorToken(token: 0xaa | 0xab, number: number, state: number, cls: number, msg: string, proc: string, line: number): Buffer {
  const body = Buffer.concat([u32(number), Buffer.from([state, cls]), usVarchar(msg), bVarchar('SIM'), bVarchar(proc), u32(line)]);
  return Buffer.concat([Buffer.from([token]), u16(body.length), body]);
}

function envChange(type: number, next: Buffer, old: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from([type, next.length]), next, Buffer.from([old.length]), old]);
  return Buffer.concat([Buffer.from([0xe3]), u16(body.length), body]);
}

/** A payload as TDS tabular-result packets of at most `size` bytes each, EOM on the last. */
function packets(payload: Buffer, size = 4096): Buffer {
  const out: Buffer[] = [];
  for (let o = 0; o < payload.length || o === 0; o += size - 8) {
    const part = payload.subarray(o, o + size - 8);
    const last = o + size - 8 >= payload.length;
    const h = Buffer.from([0x04, last ? 0x01 : 0x00, 0, 0, 0, 55, out.length + 1, 0]);
    h.writeUInt16BE(part.length + 8, 2);
    out.push(h, part);
    if (last) break;
  }
  return Buffer.concat(out);
}

function scanAll(chunks: Buffer[]): ReplyMessage[] {
  const s = new ReplyScanner();
  return chunks.flatMap((c) => s.push(c));
}

/** Every way to hand `wire` over: whole, in 7-byte pieces, and byte by byte. */
function everySplit(wire: Buffer): ReplyMessage[][] {
  const pieces = (n: number) => Array.from({ length: Math.ceil(wire.length / n) }, (_, i) => wire.subarray(i * n, i * n + n));
  return [scanAll([wire]), scanAll(pieces(7)), scanAll(pieces(1))];
}

const OK_REPLY = Buffer.concat([done(DONEINPROC, 0x11, 1), returnStatus(0), done(DONEPROC, 0x00)]);

describe('lean path: reply scanner', () => {
  it('reads a procedure call reply: return status, final DONEPROC, no error', () => {
    const [m] = scanAll([packets(OK_REPLY)]);
    assert.deepEqual(m, { errors: [], returnStatus: 0, doneError: false, attentionAck: false, final: true, transaction: undefined });
  });

  it('reads the same message over split packets and split socket chunks', () => {
    const info = errorToken(0xab, 5701, 2, 0, 'Changed database context.', '', 1);
    const payload = Buffer.concat([info, OK_REPLY, info, OK_REPLY]);
    const want = scanAll([packets(payload)]);
    assert.equal(want.length, 1);
    for (const size of [16, 21, 64])
      for (const got of everySplit(packets(payload, size))) assert.deepEqual(got, want, `packets of ${size}`);
  });

  it('returns each message of a chunk that holds two, and keeps a partial third for the next chunk', () => {
    const one = packets(OK_REPLY);
    const wire = Buffer.concat([one, one, one]);
    const s = new ReplyScanner();
    assert.equal(s.push(wire.subarray(0, one.length * 2 + 5)).length, 2);
    assert.equal(s.push(wire.subarray(one.length * 2 + 5)).length, 1);
  });

  it('reads an ERROR token with number, state, class, message, procedure and line; DONE_ERROR marks the call', () => {
    const payload = Buffer.concat([
      errorToken(0xaa, 1205, 51, 13, 'Transaction (Process ID 55) was deadlocked.', 'spinlab_disk_insert_batch', 12),
      done(DONEPROC, 0x02),
    ]);
    for (const [m] of everySplit(packets(payload, 20))) {
      assert.deepEqual(m.errors, [
        {
          number: 1205,
          state: 51,
          class: 13,
          message: 'Transaction (Process ID 55) was deadlocked.',
          serverName: 'SIM',
          procName: 'spinlab_disk_insert_batch',
          lineNumber: 12,
        },
      ]);
      assert.equal(m.doneError, true);
    }
  });

  it('tells DONE_MORE from the final DONE, and sees an attention acknowledgement', () => {
    const [more] = scanAll([packets(done(DONE, 0x01))]);
    assert.equal(more.final, false);
    const [ack] = scanAll([packets(done(DONE, 0x20))]);
    assert.equal(ack.attentionAck, true);
    assert.equal(ack.final, true);
    const [plain] = scanAll([packets(OK_REPLY)]);
    assert.equal(plain.attentionAck, false);
  });

  it('follows the transaction descriptor: ENVCHANGE 8 gives it, 9 and 10 clear it', () => {
    const txn = Buffer.from([9, 8, 7, 6, 5, 4, 3, 2]);
    const [begun] = scanAll([packets(Buffer.concat([envChange(8, txn, Buffer.alloc(0)), OK_REPLY]))]);
    assert.deepEqual(begun.transaction, txn);
    for (const type of [9, 10]) {
      const [ended] = scanAll([packets(Buffer.concat([envChange(type, Buffer.alloc(0), txn), OK_REPLY]))]);
      assert.equal(ended.transaction, null);
    }
  });

  it('steps over rows of every common type (NBCROW nulls, PLP values) without losing its place', () => {
    const col = (typeInfo: Buffer, name: string) => Buffer.concat([u32(0), u16(0x0009), typeInfo, bVarchar(name)]);
    const collation = Buffer.from([0x09, 0x04, 0xd0, 0x00, 0x34]);
    const meta = Buffer.concat([
      Buffer.from([0x81]),
      u16(7),
      col(Buffer.from([0x26, 4]), 'n'), // INTN(4)
      col(Buffer.concat([Buffer.from([0xe7]), u16(100), collation]), 's'), // nvarchar(50)
      col(Buffer.concat([Buffer.from([0xe7]), u16(0xffff), collation]), 'big'), // nvarchar(max): PLP
      col(Buffer.from([0x6a, 9, 18, 2]), 'd'), // decimal(18,2)
      col(Buffer.from([0x2a, 7]), 't'), // datetime2(7)
      col(Buffer.from([0x38]), 'i4'), // INT4, fixed
      col(Buffer.concat([Buffer.from([0xa5]), u16(8)]), 'b'), // varbinary(8)
    ]);
    const plp = (s: string) =>
      Buffer.concat([u32(s.length * 2), u32(0), u32(4), ucs2(s.slice(0, 2)), u32(s.length * 2 - 4), ucs2(s.slice(2)), u32(0)]);
    const row = Buffer.concat([
      Buffer.from([0xd1]),
      Buffer.from([4]),
      u32(7),
      u16(4),
      ucs2('ab'),
      plp('hello'),
      Buffer.from([5, 1, 0x39, 0x30, 0, 0]),
      Buffer.from([8, 1, 2, 3, 4, 5, 6, 7, 8]),
      u32(42),
      u16(2),
      Buffer.from([0xca, 0xfe]),
    ]);
    // NBCROW: columns 1 (s), 2 (big) and 6 (b) are NULL and have no bytes at all.
    const nbc = Buffer.concat([
      Buffer.from([0xd2, 0b01000110]),
      Buffer.from([4]),
      u32(8),
      Buffer.from([5, 1, 0, 0, 0, 0]),
      Buffer.from([8, 1, 2, 3, 4, 5, 6, 7, 8]),
      u32(1),
    ]);
    const nullPlp = Buffer.concat([Buffer.from([0xd1, 0]), u16(0xffff), Buffer.alloc(8, 0xff), Buffer.from([0, 0]), u32(3), u16(0xffff)]);
    const payload = Buffer.concat([meta, row, nbc, nullPlp, done(DONEINPROC, 0x11, 3), returnStatus(0), done(DONEPROC, 0)]);
    for (const [m] of everySplit(packets(payload, 40))) {
      assert.equal(m.returnStatus, 0);
      assert.equal(m.final, true);
      assert.deepEqual(m.errors, []);
    }
  });

  it('refuses a column type it cannot step over, and a token it does not read, by name', () => {
    const text = Buffer.concat([
      Buffer.from([0x81]),
      u16(1),
      u32(0),
      u16(0),
      Buffer.from([0x23]),
      u32(100),
      Buffer.alloc(5),
      u16(0),
      bVarchar('t'),
    ]);
    assert.throws(
      () => scanAll([packets(text)]),
      (e: Error) => e instanceof LeanUnsupported && /0x23/.test(e.message),
    );
    const returnValue = Buffer.from([0xac, 0, 0]);
    assert.throws(
      () => scanAll([packets(returnValue)]),
      (e: Error) => e instanceof LeanUnsupported && /0xac/.test(e.message),
    );
    const login = Buffer.from([0x03, 0x01, 0x00, 0x08, 0, 0, 1, 0]);
    assert.throws(() => scanAll([login]), /type 0x3/);
  });
});
