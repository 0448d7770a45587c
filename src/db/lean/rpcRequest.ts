// The lean client path's request: one RPC message ([MS-TDS] 2.2.6.6) built once per session and procedure, whose
// integer parameter values are patched in place before each call. Only what a client-loop call needs: a procedure by
// name, integer parameters (INTNTYPE, [MS-TDS] 2.2.5.4.3), no output parameters, one packet. Anything else is
// refused here (leanRpcShape says why) and the caller keeps the ordinary driver.

/** An integer parameter of the lean path: its declared T-SQL type decides the INTN width. */
export interface LeanParam {
  name: string;
  type: string;
  value: unknown;
}

const INT_WIDTH: Record<string, number> = { tinyint: 1, smallint: 2, int: 4, bigint: 8 };
const PACKET_HEADER = 8;
/** ALL_HEADERS with the one transaction descriptor header ([MS-TDS] 2.2.5.3): 4 + 18 bytes. */
const ALL_HEADERS = 22;
const TDS_RPC = 0x03;
const TDS_ATTENTION = 0x06;
const STATUS_EOM = 0x01;
const INTNTYPE = 0x26;

const LIMITS: Record<number, [number, number]> = {
  1: [0, 255],
  2: [-32768, 32767],
  4: [-2147483648, 2147483647],
  8: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** Why these parameters cannot take the lean path, or null when they can (every one a non-null integer in range). */
export function leanRpcShape(procedure: string, params: readonly LeanParam[], packetSize: number): string | null {
  for (const p of params) {
    const width = INT_WIDTH[p.type.trim().toLowerCase()];
    if (!width) return `parameter @${p.name} is ${p.type}: the lean path sends integer parameters only`;
    const why = valueProblem(p.value, width);
    if (why) return `parameter @${p.name}: ${why}`;
  }
  if (!procedure || procedure.length > 1000) return 'the procedure name is empty or too long';
  if (requestLength(procedure, params) > packetSize) return 'the request does not fit in one TDS packet';
  return null;
}

function valueProblem(v: unknown, width: number): string | null {
  if (typeof v !== 'number' || !Number.isInteger(v)) return `the value ${String(v)} is not an integer (NULL goes through the driver)`;
  const [lo, hi] = LIMITS[width];
  return v < lo || v > hi ? `the value ${v} is out of range for its type` : null;
}

function requestLength(procedure: string, params: readonly LeanParam[]): number {
  let n = PACKET_HEADER + ALL_HEADERS + 2 + procedure.length * 2 + 2;
  for (const p of params) n += 1 + (p.name.length + 1) * 2 + 1 + 2 + 1 + INT_WIDTH[p.type.trim().toLowerCase()];
  return n;
}

/** The bytes of one call: `set` patches a parameter's value (by its index); `bytes` is what goes on the wire. */
export class LeanRpcRequest {
  private constructor(
    readonly bytes: Buffer,
    /** Each parameter's value offset and width in `bytes`. */
    private readonly slots: { offset: number; width: number; name: string }[],
    private readonly descriptorAt: number,
  ) {}

  /** Builds the message; throws with leanRpcShape's reason when the parameters cannot take this path. */
  static build(procedure: string, params: readonly LeanParam[], packetSize = 4096): LeanRpcRequest {
    const why = leanRpcShape(procedure, params, packetSize);
    if (why) throw new Error(`lean path: ${why}`);
    const buf = Buffer.alloc(requestLength(procedure, params));
    let o = 0;
    o = buf.writeUInt8(TDS_RPC, o);
    o = buf.writeUInt8(STATUS_EOM, o);
    o = buf.writeUInt16BE(buf.length, o);
    o = buf.writeUInt16BE(0, o); // SPID: the client sends 0
    o = buf.writeUInt8(1, o); // PacketID: the first (and only) packet of the message
    o = buf.writeUInt8(0, o); // Window: unused
    // ALL_HEADERS: total length, then the transaction descriptor header (type 2): descriptor, outstanding requests 1.
    o = buf.writeUInt32LE(ALL_HEADERS, o);
    o = buf.writeUInt32LE(18, o);
    o = buf.writeUInt16LE(2, o);
    const descriptorAt = o;
    o += 8; // transaction descriptor: 0, none open (set by setTransaction)
    o = buf.writeUInt32LE(1, o);
    // NameLenProcID as US_VARCHAR (length in characters, UCS-2), then OptionFlags 0.
    o = buf.writeUInt16LE(procedure.length, o);
    o += buf.write(procedure, o, 'utf16le');
    o = buf.writeUInt16LE(0, o);
    const slots: { offset: number; width: number; name: string }[] = [];
    for (const p of params) {
      const width = INT_WIDTH[p.type.trim().toLowerCase()];
      const name = `@${p.name}`;
      o = buf.writeUInt8(name.length, o); // B_VARCHAR: length in characters
      o += buf.write(name, o, 'utf16le');
      o = buf.writeUInt8(0, o); // StatusFlags: an input parameter
      o = buf.writeUInt8(INTNTYPE, o);
      o = buf.writeUInt8(width, o); // TYPE_INFO's maximal length
      o = buf.writeUInt8(width, o); // this value's length (never NULL here)
      slots.push({ offset: o, width, name: p.name });
      o += width;
    }
    const r = new LeanRpcRequest(buf, slots, descriptorAt);
    params.forEach((p, i) => r.set(i, p.value as number));
    return r;
  }

  /** The index of a parameter by name, or -1. */
  indexOf(name: string): number {
    return this.slots.findIndex((s) => s.name === name);
  }

  /** Patches parameter `index`'s value; throws on a value its type cannot hold (the call must not send a wrong one). */
  set(index: number, value: number): void {
    const s = this.slots[index];
    const why = valueProblem(value, s.width);
    if (why) throw new Error(`lean path: parameter @${s.name}: ${why}`);
    const b = this.bytes;
    if (s.width === 1) b[s.offset] = value;
    else if (s.width === 2) b.writeInt16LE(value, s.offset);
    else if (s.width === 4) b.writeInt32LE(value, s.offset);
    else {
      // Two 32-bit halves: no BigInt per call. The high half is the floor, so negative values come out two's complement.
      const high = Math.floor(value / 4294967296);
      b.writeUInt32LE(value - high * 4294967296, s.offset);
      b.writeInt32LE(high, s.offset + 4);
    }
  }

  /** The transaction descriptor the server last gave this session (ENVCHANGE 8), or 0 outside a transaction. */
  setTransaction(descriptor: Buffer | null): void {
    if (descriptor && descriptor.length === 8) descriptor.copy(this.bytes, this.descriptorAt);
    else this.bytes.fill(0, this.descriptorAt, this.descriptorAt + 8);
  }
}

/** An ATTENTION message ([MS-TDS] 2.2.1.7): a header and no data. */
export function attentionPacket(): Buffer {
  return Buffer.from([TDS_ATTENTION, STATUS_EOM, 0, PACKET_HEADER, 0, 0, 1, 0]);
}
