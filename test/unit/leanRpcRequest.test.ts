// The lean path's request builder (src/db/lean/rpcRequest.ts): the bytes of an RPC are those tedious itself sends for
// the same procedure and parameters (its RpcRequestPayload, the ordinary driver's), per-call patches land in place
// (bigint halves, negatives), the transaction descriptor is set and cleared, and what it cannot send is refused.
import assert from 'node:assert/strict';
import { Request, TYPES } from 'tedious';
import { attentionPacket, LeanRpcRequest, leanRpcShape, type LeanParam } from '../../src/db/lean/rpcRequest';

// tedious's own payload writer, as the ordinary driver uses it (node_modules/tedious/lib/rpcrequest-payload.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const payloadModule = require('tedious/lib/rpcrequest-payload');
const RpcRequestPayload = (payloadModule.default ?? payloadModule) as new (
  procedure: string,
  parameters: unknown[],
  txn: Buffer,
  options: unknown,
  collation: undefined,
) => Iterable<Buffer>;

function tediousBytes(procedure: string, params: LeanParam[], txn = Buffer.alloc(8)): Buffer {
  const r = new Request(procedure, () => undefined);
  const types: Record<string, (typeof TYPES)[keyof typeof TYPES]> = {
    bigint: TYPES.BigInt,
    int: TYPES.Int,
    smallint: TYPES.SmallInt,
    tinyint: TYPES.TinyInt,
  };
  for (const p of params) r.addParameter(p.name, types[p.type], p.value);
  const payload = new RpcRequestPayload(
    procedure,
    (r as unknown as { parameters: unknown[] }).parameters,
    txn,
    { tdsVersion: '7_4' },
    undefined,
  );
  return Buffer.concat([...payload]);
}

const PARAMS: LeanParam[] = [
  { name: 'key_base', type: 'bigint', value: 30_000_000_000 },
  { name: 'offset', type: 'bigint', value: 0 },
  { name: 'batch_size', type: 'int', value: 1 },
];

describe('lean path: RPC request builder', () => {
  it('writes the bytes tedious writes for the same call, after an 8-byte RPC packet header with EOM', () => {
    const r = LeanRpcRequest.build('dbo.spinlab_disk_insert_batch', PARAMS);
    const b = r.bytes;
    assert.deepEqual([b[0], b[1]], [0x03, 0x01], 'RPC, end of message');
    assert.equal(b.readUInt16BE(2), b.length, 'length in the header, big-endian');
    assert.deepEqual(b.subarray(8), tediousBytes('dbo.spinlab_disk_insert_batch', PARAMS));
  });

  it('patches values in place: the same bytes as a request built with those values', () => {
    const r = LeanRpcRequest.build('p', PARAMS);
    const at = r.indexOf('offset');
    for (const v of [1, 4294967295, 4294967296, 2 ** 53 - 1, -1, -4294967297]) {
      r.set(at, v);
      const want = PARAMS.map((p) => (p.name === 'offset' ? { ...p, value: v } : p));
      assert.deepEqual(r.bytes.subarray(8), tediousBytes('p', want), `offset ${v}`);
    }
    r.set(r.indexOf('batch_size'), -7);
    assert.equal(r.bytes.readInt32LE(r.bytes.length - 4), -7);
  });

  it('carries the session transaction descriptor, and 0 again once it ends', () => {
    const r = LeanRpcRequest.build('p', PARAMS);
    const txn = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]);
    r.setTransaction(txn);
    assert.deepEqual(r.bytes.subarray(8), tediousBytes('p', PARAMS, txn));
    r.setTransaction(null);
    assert.deepEqual(r.bytes.subarray(8), tediousBytes('p', PARAMS));
  });

  it('refuses what it cannot send, saying why, so the caller keeps the driver', () => {
    assert.match(leanRpcShape('p', [{ name: 'who', type: 'nvarchar(16)', value: 'x' }], 4096)!, /@who is nvarchar\(16\)/);
    assert.match(leanRpcShape('p', [{ name: 'n', type: 'int', value: null }], 4096)!, /not an integer/);
    assert.match(leanRpcShape('p', [{ name: 'n', type: 'int', value: 2 ** 31 }], 4096)!, /out of range/);
    assert.match(leanRpcShape('p'.repeat(300), PARAMS, 512)!, /one TDS packet/);
    assert.equal(leanRpcShape('p', PARAMS, 4096), null);
    const r = LeanRpcRequest.build('p', PARAMS);
    assert.throws(() => r.set(r.indexOf('batch_size'), 2 ** 40), /out of range/);
    assert.throws(() => LeanRpcRequest.build('p', [{ name: 'x', type: 'float', value: 1 }]), /integer parameters only/);
  });

  it('ATTENTION is a bare header of type 6 with EOM', () => {
    assert.deepEqual([...attentionPacket()], [0x06, 0x01, 0x00, 0x08, 0x00, 0x00, 0x01, 0x00]);
  });
});
