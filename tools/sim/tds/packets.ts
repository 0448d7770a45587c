// Packet framing (MS-TDS 2.2.3): 8-byte header (type, status, length BE, SPID BE, packet id, window) + payload.
// Incoming bytes are reassembled into messages without per-packet concatenation; outgoing messages are framed into
// one buffer per reply (one socket write).

import { HEADER_LENGTH, PacketStatus, PacketType, ProtocolError } from './protocol';

const KNOWN_TYPES = new Set<number>(Object.values(PacketType));
/** A client message larger than this is treated as hostile (the simulator never needs more). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const MAX_PACKET_BYTES = 65535;

export type MessageSink = (type: number, status: number, payload: Buffer) => void;

/**
 * Splits a byte stream into TDS messages. `payload` passed to the sink is only valid during the call (it may be a view
 * into a reused buffer); the sink copies what it keeps.
 */
export class PacketReader {
  private buf = Buffer.allocUnsafe(8192);
  private start = 0;
  private end = 0;
  private msg: Buffer = Buffer.allocUnsafe(0);
  private msgLen = 0;
  private msgType = -1;
  private msgStatus = 0;

  constructor(private readonly sink: MessageSink) {}

  /** True while a multi-packet message is partially received. */
  get midMessage(): boolean {
    return this.msgType !== -1;
  }

  push(chunk: Buffer): void {
    if (this.start === this.end) {
      // Fast path: nothing buffered, parse straight from the chunk and keep only the tail.
      const used = this.parse(chunk, 0, chunk.length);
      this.start = this.end = 0;
      if (used < chunk.length) this.append(chunk, used);
      return;
    }
    this.append(chunk, 0);
    const used = this.parse(this.buf, this.start, this.end);
    this.start = used;
    if (this.start === this.end) this.start = this.end = 0;
  }

  private append(chunk: Buffer, from: number): void {
    const n = chunk.length - from;
    if (this.end + n > this.buf.length) {
      const live = this.end - this.start;
      if (live + n <= this.buf.length && this.start > 0) {
        this.buf.copyWithin(0, this.start, this.end);
      } else {
        const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, live + n));
        this.buf.copy(next, 0, this.start, this.end);
        this.buf = next;
      }
      this.start = 0;
      this.end = live;
    }
    chunk.copy(this.buf, this.end, from);
    this.end += n;
  }

  /** Parses whole packets in buf[from, to); returns the offset of the first unconsumed byte. */
  private parse(buf: Buffer, from: number, to: number): number {
    let p = from;
    while (to - p >= HEADER_LENGTH) {
      const type = buf[p];
      const status = buf[p + 1];
      const length = buf.readUInt16BE(p + 2);
      if (!KNOWN_TYPES.has(type)) throw new ProtocolError(`unknown packet type 0x${type.toString(16)}`);
      if (length < HEADER_LENGTH || length > MAX_PACKET_BYTES) throw new ProtocolError(`bad packet length ${length}`);
      if (to - p < length) break;
      const body = buf.subarray(p + HEADER_LENGTH, p + length);
      p += length;
      const eom = (status & PacketStatus.EOM) !== 0;
      if (this.msgType === -1) {
        if (eom) {
          this.sink(type, status, body);
          continue;
        }
        this.msgType = type;
        this.msgStatus = status;
        this.msgLen = 0;
      } else if (type !== this.msgType && type !== PacketType.ATTENTION) {
        throw new ProtocolError(`packet type 0x${type.toString(16)} inside a 0x${this.msgType.toString(16)} message`);
      } else if (type === PacketType.ATTENTION) {
        // An attention may follow a partially sent request that the client gave up on.
        this.msgType = -1;
        this.sink(type, status, body);
        continue;
      }
      this.addToMessage(body);
      if (eom) {
        const t = this.msgType;
        this.msgType = -1;
        this.sink(t, this.msgStatus, this.msg.subarray(0, this.msgLen));
      }
    }
    return p;
  }

  private addToMessage(body: Buffer): void {
    const need = this.msgLen + body.length;
    if (need > MAX_MESSAGE_BYTES) throw new ProtocolError(`message larger than ${MAX_MESSAGE_BYTES} bytes`);
    if (need > this.msg.length) {
      const next = Buffer.allocUnsafe(Math.max(need, this.msg.length * 2, 16384));
      this.msg.copy(next, 0, 0, this.msgLen);
      this.msg = next;
    }
    body.copy(this.msg, this.msgLen);
    this.msgLen = need;
  }
}

/**
 * Frames payload[0, len) as one message of packets no larger than packetSize. Returns a single buffer holding every
 * packet (so the reply is one socket write).
 */
export function frameMessage(type: number, payload: Buffer, len: number, packetSize: number, spid: number): Buffer {
  const chunk = packetSize - HEADER_LENGTH;
  const count = Math.max(1, Math.ceil(len / chunk));
  const out = Buffer.allocUnsafe(len + count * HEADER_LENGTH);
  let src = 0;
  let dst = 0;
  for (let i = 0; i < count; i++) {
    const n = Math.min(chunk, len - src);
    const last = i === count - 1;
    out[dst] = type;
    out[dst + 1] = last ? PacketStatus.EOM : 0;
    out.writeUInt16BE(n + HEADER_LENGTH, dst + 2);
    out.writeUInt16BE(spid & 0xffff, dst + 4);
    out[dst + 6] = (i + 1) & 0xff;
    out[dst + 7] = 0;
    payload.copy(out, dst + HEADER_LENGTH, src, src + n);
    src += n;
    dst += n + HEADER_LENGTH;
  }
  return out;
}
