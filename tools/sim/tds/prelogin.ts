// PRELOGIN (MS-TDS 2.2.6.5): option table of (token, offset BE, length BE) + 0xFF, then option data.

import { BufWriter } from './bufwriter';
import { ProtocolError } from './protocol';

const Opt = { VERSION: 0, ENCRYPTION: 1, INSTOPT: 2, THREADID: 3, MARS: 4, TERMINATOR: 0xff } as const;

export const Encrypt = { OFF: 0, ON: 1, NOT_SUP: 2, REQ: 3 } as const;

export interface PreloginRequest {
  encryption: number;
  mars: boolean;
  clientVersion?: string;
}

export function parsePrelogin(p: Buffer): PreloginRequest {
  const req: PreloginRequest = { encryption: Encrypt.NOT_SUP, mars: false };
  let i = 0;
  for (;;) {
    if (i >= p.length) throw new ProtocolError('PRELOGIN option table without terminator');
    const token = p[i];
    if (token === Opt.TERMINATOR) break;
    if (i + 5 > p.length) throw new ProtocolError('truncated PRELOGIN option table');
    const off = p.readUInt16BE(i + 1);
    const len = p.readUInt16BE(i + 3);
    if (off + len > p.length) throw new ProtocolError('PRELOGIN option points past the payload');
    if (token === Opt.ENCRYPTION && len >= 1) req.encryption = p[off];
    if (token === Opt.MARS && len >= 1) req.mars = p[off] === 1;
    if (token === Opt.VERSION && len >= 6) {
      req.clientVersion = `${p[off]}.${p[off + 1]}.${p.readUInt16BE(off + 2)}.${p.readUInt16BE(off + 4)}`;
    }
    i += 5;
  }
  return req;
}

/**
 * What the server answers, as SQL Server without "force encryption" does: ON when the client wants or requires
 * encryption (full TLS), OFF when the client says OFF (the client then encrypts the LOGIN7 alone, or, like tedious
 * with encrypt false, sends it in the clear; both are accepted), NOT_SUP to a client without TLS.
 */
export function negotiateEncryption(client: number): number {
  if (client === Encrypt.ON || client === Encrypt.REQ) return Encrypt.ON;
  return client === Encrypt.OFF ? Encrypt.OFF : Encrypt.NOT_SUP;
}

export function buildPreloginResponse(version: { major: number; minor: number; build: number }, encryption: number): Buffer {
  const options: Array<[number, number[]]> = [
    [Opt.VERSION, [version.major & 0xff, version.minor & 0xff, (version.build >> 8) & 0xff, version.build & 0xff, 0, 0]],
    [Opt.ENCRYPTION, [encryption]],
    [Opt.INSTOPT, [0]],
    [Opt.THREADID, []],
    [Opt.MARS, [0]],
  ];
  const w = new BufWriter(64);
  let dataOff = options.length * 5 + 1;
  for (const [token, data] of options) {
    w.u8(token);
    w.u16be(dataOff);
    w.u16be(data.length);
    dataOff += data.length;
  }
  w.u8(Opt.TERMINATOR);
  for (const [, data] of options) for (const b of data) w.u8(b);
  return Buffer.from(w.buf.subarray(0, w.pos));
}
