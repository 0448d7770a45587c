// LOGIN7 (MS-TDS 2.2.6.4): a 94-byte fixed part of flags and (offset, length) pairs into a variable part of
// UTF-16 strings, the obfuscated password, and (TDS 7.4) a pointer to the feature extension block.

import type { LoginRequest } from './contract';
import { FeatureId, ProtocolError } from './protocol';

const FIXED = 94;
const OPTION_FLAGS3_EXTENSION = 0x10;

export interface Login7 extends LoginRequest {
  /** Feature id -> data, from the FeatureExt block. */
  features: Map<number, Buffer>;
  /** OptionFlags2 bit: integrated (SSPI) security requested. */
  integratedSecurity: boolean;
}

/** The password bytes are nibble-swapped then XORed with 0xA5; undo both. */
export function unscramblePassword(b: Buffer): string {
  const out = Buffer.allocUnsafe(b.length);
  for (let i = 0; i < b.length; i++) {
    const x = b[i] ^ 0xa5;
    out[i] = ((x & 0x0f) << 4) | (x >> 4);
  }
  return out.toString('utf16le');
}

export function parseLogin7(p: Buffer): Login7 {
  if (p.length < FIXED) throw new ProtocolError(`LOGIN7 too short (${p.length} bytes)`);
  const declared = p.readUInt32LE(0);
  if (declared > p.length || declared < FIXED) throw new ProtocolError(`LOGIN7 length ${declared} != ${p.length}`);

  const str = (at: number, lenient = false): string => {
    const ib = p.readUInt16LE(at);
    const cch = p.readUInt16LE(at + 2);
    if (cch === 0) return '';
    if (ib + cch * 2 > declared) {
      // tedious writes a garbage length when it has no host name; everything else must be in bounds.
      if (lenient) return '';
      throw new ProtocolError(`LOGIN7 field at ${at} points past the payload`);
    }
    return p.toString('utf16le', ib, ib + cch * 2);
  };

  const ibPassword = p.readUInt16LE(44);
  const cchPassword = p.readUInt16LE(46);
  if (ibPassword + cchPassword * 2 > declared) throw new ProtocolError('LOGIN7 password points past the payload');

  const req: Login7 = {
    tdsVersion: p.readUInt32LE(4),
    packetSize: p.readUInt32LE(8),
    clientPid: p.readUInt32LE(16),
    hostName: str(36, true),
    userName: str(40),
    password: unscramblePassword(p.subarray(ibPassword, ibPassword + cchPassword * 2)),
    appName: str(48),
    serverName: str(52),
    language: str(64),
    database: str(68),
    features: new Map(),
    integratedSecurity: (p[25] & 0x80) !== 0,
  };

  if ((p[27] & OPTION_FLAGS3_EXTENSION) !== 0) {
    const ibExt = p.readUInt16LE(56);
    const cbExt = p.readUInt16LE(58);
    if (cbExt >= 4) {
      if (ibExt + 4 > declared) throw new ProtocolError('LOGIN7 extension pointer past the payload');
      parseFeatureExt(p, p.readUInt32LE(ibExt), declared, req.features);
    }
  }
  return req;
}

function parseFeatureExt(p: Buffer, at: number, end: number, out: Map<number, Buffer>): void {
  let i = at;
  for (;;) {
    if (i >= end) throw new ProtocolError('LOGIN7 FeatureExt without terminator');
    const id = p[i++];
    if (id === FeatureId.TERMINATOR) return;
    if (i + 4 > end) throw new ProtocolError('truncated LOGIN7 FeatureExt');
    const len = p.readUInt32LE(i);
    i += 4;
    if (i + len > end) throw new ProtocolError('LOGIN7 FeatureExt data past the payload');
    out.set(id, Buffer.from(p.subarray(i, i + len)));
    i += len;
  }
}
