// A raw TDS client for wire-level tests (packet headers, malformed input). Valid PRELOGIN/LOGIN7 payloads come from
// tedious's own payload builders so the bytes are exactly what the real driver sends.

import * as net from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const PreloginPayload = require('tedious/lib/prelogin-payload');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Login7Payload = require('tedious/lib/login7-payload');

export interface RawMessage {
  type: number;
  status: number;
  spid: number;
  payload: Buffer;
}

export class RawTdsClient {
  private buf = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static connect(port: number): Promise<RawTdsClient> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(new RawTdsClient(s)));
      s.once('error', reject);
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  write(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  sendPacket(type: number, payload: Buffer, status = 0x01): void {
    const h = Buffer.alloc(8);
    h[0] = type;
    h[1] = status;
    h.writeUInt16BE(payload.length + 8, 2);
    h[6] = 1;
    this.write(Buffer.concat([h, payload]));
  }

  /** Reads one whole message; rejects if the server closes first or after timeoutMs. */
  async readMessage(timeoutMs = 3000): Promise<RawMessage> {
    const deadline = Date.now() + timeoutMs;
    const parts: Buffer[] = [];
    let first: { type: number; status: number; spid: number } | undefined;
    for (;;) {
      while (this.buf.length >= 8 && this.buf.length >= this.buf.readUInt16BE(2)) {
        const len = this.buf.readUInt16BE(2);
        const pkt = this.buf.subarray(0, len);
        this.buf = this.buf.subarray(len);
        first ??= { type: pkt[0], status: pkt[1], spid: pkt.readUInt16BE(4) };
        parts.push(pkt.subarray(8));
        if (pkt[1] & 0x01) return { ...first, payload: Buffer.concat(parts) };
      }
      if (this.closed) throw new Error('connection closed by server');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timeout waiting for a message');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Resolves true when the server closes the connection within timeoutMs. */
  async waitClosed(timeoutMs = 3000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.closed;
  }

  async prelogin(): Promise<RawMessage> {
    const p = new PreloginPayload({ encrypt: false, version: { major: 19, minor: 0, build: 0, subbuild: 0 } });
    this.sendPacket(0x12, p.data);
    return this.readMessage();
  }

  static login7(user: string, password: string, packetSize = 4096): Buffer {
    const p = new Login7Payload({
      tdsVersion: 0x74000004,
      packetSize,
      clientProgVer: 0,
      clientPid: process.pid,
      connectionId: 0,
      clientTimeZone: 0,
      clientLcid: 0x409,
    });
    p.userName = user;
    p.password = password;
    p.hostname = 'rawhost';
    p.appName = 'raw-test';
    p.serverName = '127.0.0.1';
    p.libraryName = 'raw';
    p.database = 'master';
    return p.toBuffer();
  }

  async login(user = 'sa', password = 'pw'): Promise<RawMessage> {
    this.sendPacket(0x10, RawTdsClient.login7(user, password));
    return this.readMessage();
  }

  /** A SQL batch with the ALL_HEADERS tedious sends. */
  static sqlBatch(text: string): Buffer {
    const headers = Buffer.alloc(22);
    headers.writeUInt32LE(22, 0);
    headers.writeUInt32LE(18, 4);
    headers.writeUInt16LE(2, 8);
    headers.writeUInt32LE(1, 18);
    return Buffer.concat([headers, Buffer.from(text, 'utf16le')]);
  }

  close(): void {
    this.socket.destroy();
  }
}
