// Server-side TLS for TDS 7.x. The handshake travels inside PRELOGIN packets (each client PRELOGIN message gets
// exactly one PRELOGIN message back, as tedious expects); once it completes, TLS records flow directly on the socket
// and carry the TDS packets. Node's TLS engine runs over an in-memory duplex that we feed and drain by hand.

import { Duplex } from 'node:stream';
import * as tls from 'node:tls';

/** The raw side of the TLS engine: we push the peer's records in, the engine's records come out via `onOutput`. */
class WireDuplex extends Duplex {
  constructor(private readonly onOutput: (chunk: Buffer) => void) {
    super();
  }

  override _read(): void {
    // Data is pushed by feed(); nothing to pull.
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.onOutput(chunk);
    cb();
  }

  override _final(cb: (err?: Error | null) => void): void {
    cb();
  }
}

export interface TlsEvents {
  /** One handshake flight, to be wrapped in a PRELOGIN message. */
  sendHandshake(flight: Buffer): void;
  /** TLS records after the handshake, written straight to the socket. */
  sendRecords(records: Buffer): void;
  /** Decrypted application bytes (TDS packets). */
  cleartext(data: Buffer): void;
  error(err: Error): void;
}

export class TlsAdapter {
  private readonly wire: WireDuplex;
  readonly socket: tls.TLSSocket;
  private pending: Buffer[] = [];
  /** True once the final handshake flight has gone out: from then on records go straight to the socket. */
  private raw = false;

  constructor(
    context: tls.SecureContext,
    private readonly ev: TlsEvents,
  ) {
    this.wire = new WireDuplex((chunk) => this.onEngineOutput(chunk));
    this.socket = new tls.TLSSocket(this.wire, { isServer: true, secureContext: context, requestCert: false });
    this.socket.on('data', (d: Buffer) => ev.cleartext(d));
    this.socket.on('error', (err) => ev.error(err));
  }

  get handshakeComplete(): boolean {
    return this.raw;
  }

  /** Handshake bytes unwrapped from a client PRELOGIN message. */
  feedHandshake(data: Buffer): void {
    this.wire.push(Buffer.from(data));
  }

  /** Raw TLS records from the socket (after the handshake). */
  feedRecords(data: Buffer): void {
    this.wire.push(data);
  }

  write(data: Buffer): void {
    this.socket.write(data);
  }

  /** Sends close_notify and calls `done` once the engine has flushed everything to the wire. */
  end(done: () => void): void {
    this.wire.once('finish', done);
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
    this.wire.destroy();
  }

  private onEngineOutput(chunk: Buffer): void {
    if (this.raw) {
      this.ev.sendRecords(chunk);
      return;
    }
    // A flight may reach us in several writes (even across event-loop turns); send it as one PRELOGIN message once
    // its last record is in, which is what the client waits for.
    this.pending.push(Buffer.from(chunk));
    const buf = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [buf];
    const end = flightEnd(buf);
    if (end === 'open') return;
    this.pending = [];
    if (end === 'final') this.raw = true;
    this.ev.sendHandshake(buf);
  }
}

const REC_CCS = 0x14;
const REC_ALERT = 0x15;
const REC_HANDSHAKE = 0x16;
const HS_SERVER_HELLO_DONE = 14;

/**
 * Where a server flight stands (TLS 1.2): 'first' when it ends with ServerHelloDone, 'final' when a handshake record
 * (the encrypted Finished) follows ChangeCipherSpec, 'alert' on an alert, else 'open' (wait for more bytes).
 */
export function flightEnd(b: Buffer): 'open' | 'first' | 'final' | 'alert' {
  let off = 0;
  let sawCcs = false;
  const hs: Buffer[] = [];
  while (off + 5 <= b.length) {
    const type = b[off];
    const len = b.readUInt16BE(off + 3);
    if (off + 5 + len > b.length) break;
    const body = b.subarray(off + 5, off + 5 + len);
    off += 5 + len;
    if (type === REC_ALERT) return 'alert';
    if (type === REC_CCS) sawCcs = true;
    else if (type === REC_HANDSHAKE) {
      if (sawCcs) return 'final';
      hs.push(body);
    }
  }
  // Walk the plaintext handshake messages (they may span records) looking for ServerHelloDone.
  const msgs = Buffer.concat(hs);
  let i = 0;
  while (i + 4 <= msgs.length) {
    if (msgs[i] === HS_SERVER_HELLO_DONE) return 'first';
    i += 4 + msgs.readUIntBE(i + 1, 3);
  }
  return 'open';
}

/** TDS 7.x clients (tedious caps itself at TLS 1.2) expect a TLS 1.2 handshake inside PRELOGIN. */
export function createSecureContext(key: string, cert: string): tls.SecureContext {
  return tls.createSecureContext({ key, cert, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' });
}
