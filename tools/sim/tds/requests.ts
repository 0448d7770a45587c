// SQL batch (MS-TDS 2.2.6.7) and RPC (2.2.6.6) request payloads, both prefixed by ALL_HEADERS in TDS 7.2+.

import type { RpcParam } from './contract';
import { BufReader } from './bufreader';
import { readTypedValue } from './decode';
import { ProtocolError, UnsupportedError, WELL_KNOWN_PROCS } from './protocol';

const PARAM_BY_REF = 0x01;
const BATCH_FLAG = 0xff;
const NO_EXEC_FLAG = 0xfe;
const BATCH_FLAG_71 = 0x80;

export interface RpcCall {
  procName: string;
  /** Set when the procedure was sent by well-known id. */
  procId?: number;
  /** fWithRecomp 0x01, fNoMetaData 0x02, fReuseMetaData 0x04. */
  optionFlags: number;
  params: RpcParam[];
}

/** Skips ALL_HEADERS; returns the offset of the request body. */
export function skipAllHeaders(p: Buffer): number {
  if (p.length < 4) throw new ProtocolError('request shorter than ALL_HEADERS');
  const total = p.readUInt32LE(0);
  if (total < 4 || total > p.length) throw new ProtocolError(`bad ALL_HEADERS length ${total}`);
  // Each header: length u32 (including itself), type u16, data. Validate the chain so garbage is caught early.
  let i = 4;
  while (i < total) {
    if (i + 6 > total) throw new ProtocolError('truncated ALL_HEADERS entry');
    const len = p.readUInt32LE(i);
    if (len < 6 || i + len > total) throw new ProtocolError('bad ALL_HEADERS entry length');
    i += len;
  }
  return total;
}

export function parseSqlBatch(p: Buffer): string {
  const at = skipAllHeaders(p);
  if ((p.length - at) & 1) throw new ProtocolError('SQL batch text has an odd byte count');
  return p.toString('utf16le', at);
}

/** A parameter the simulator cannot decode; the request is answered with SQL Server's error 8009. */
export class BadParamError extends UnsupportedError {
  constructor(
    readonly ordinal: number,
    readonly paramName: string,
    detail: string,
  ) {
    super(
      `The incoming tabular data stream (TDS) remote procedure call (RPC) protocol stream is incorrect. ` +
        `Parameter ${ordinal} ("${paramName}"): ${detail}`,
    );
  }
}

export function parseRpc(p: Buffer): RpcCall[] {
  const r = new BufReader(p, skipAllHeaders(p));
  const calls: RpcCall[] = [];
  for (;;) {
    calls.push(readOneRpc(r));
    if (r.remaining === 0) return calls;
    const flag = r.u8();
    if (flag !== BATCH_FLAG && flag !== NO_EXEC_FLAG && flag !== BATCH_FLAG_71) {
      throw new ProtocolError(`unexpected byte 0x${flag.toString(16)} after RPC parameters`);
    }
    if (r.remaining === 0) return calls;
  }
}

function readOneRpc(r: BufReader): RpcCall {
  const nameLen = r.u16();
  let procName: string;
  let procId: number | undefined;
  if (nameLen === 0xffff) {
    procId = r.u16();
    procName = WELL_KNOWN_PROCS[procId];
    if (!procName) throw new UnsupportedError(`Could not find stored procedure with id ${procId}.`);
  } else {
    procName = r.ucs2(nameLen * 2);
  }
  const optionFlags = r.u16();
  const params: RpcParam[] = [];
  while (r.remaining > 0) {
    const next = r.peek();
    if (next === BATCH_FLAG || next === NO_EXEC_FLAG || next === BATCH_FLAG_71) break;
    const name = r.bVarchar();
    const status = r.u8();
    let decoded;
    try {
      decoded = readTypedValue(r);
    } catch (err) {
      if (err instanceof UnsupportedError) throw new BadParamError(params.length + 1, name, err.message);
      throw err;
    }
    params.push({ name, sqlType: decoded.sqlType, value: decoded.value, output: (status & PARAM_BY_REF) !== 0 });
  }
  return { procName, procId, optionFlags, params };
}
