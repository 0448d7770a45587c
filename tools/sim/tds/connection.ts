// One client connection: PRELOGIN (+ TLS) -> LOGIN7 -> requests. Owns the socket, the packet reader, the reply
// buffer and the in-flight request's AbortController.

import type * as net from 'node:net';
import type { ResponseItem, ServerMessage, SessionContext, SimHandler } from './contract';
import { BufWriter } from './bufwriter';
import { parseLogin7 } from './login7';
import { writeLoginFailure, writeLoginSuccess } from './loginreply';
import { frameMessage, PacketReader } from './packets';
import { buildPreloginResponse, Encrypt, negotiateEncryption, parsePrelogin } from './prelogin';
import {
  DEFAULT_PACKET_SIZE,
  DoneStatus,
  MAX_PACKET_SIZE,
  MIN_PACKET_SIZE,
  PacketStatus,
  PacketType,
  ProtocolError,
  TDS_VERSION_7_4,
  TDS_VERSION_8,
  Token,
  UnsupportedError,
  EnvChange,
} from './protocol';
import { BadParamError, parseRpc, parseSqlBatch, RpcCall } from './requests';
import { writeReply } from './response';
import { TlsAdapter } from './tls';
import { parseTransactionRequest, TxnRequest, writeTxnEnvChange } from './txn';
import { writeDone, writeEnvChangeBytes } from './tokens';
import * as tls from 'node:tls';
import { Duplex } from 'node:stream';

/** What a connection needs from its server. */
export interface ConnectionHost {
  readonly handler: SimHandler;
  readonly serverName: string;
  readonly productVersion: { major: number; minor: number; build: number };
  readonly forcedPacketSize?: number;
  readonly responseDelayMs: number;
  secureContext(): tls.SecureContext;
  allocateSpid(wanted?: number): number;
  releaseSpid(spid: number): void;
  log(line: string): void;
  closed(conn: Connection): void;
}

const TLS_HANDSHAKE_RECORD = 0x16;

type Phase = 'prelogin' | 'tls' | 'login' | 'ready' | 'closed';
type Queued = { type: number; status: number; payload: Buffer };

/** A request's parsed form; parsing happens before any await because payloads are views into reused buffers. */
type Work =
  | { kind: 'batch'; text: string }
  | { kind: 'rpc'; calls: RpcCall[] }
  | { kind: 'txn'; req: TxnRequest }
  | { kind: 'fail'; error: ServerMessage; rpc: boolean };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export class Connection {
  phase: Phase = 'prelogin';
  spid = 0;
  session?: SessionContext;
  encrypted = false;
  busy = false;
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly connectedAt = new Date();
  private packetSize = DEFAULT_PACKET_SIZE;
  private loginDatabase = '';
  private readonly reader: PacketReader;
  private readonly out = new BufWriter(8192);
  private tls?: TlsAdapter;
  private abort?: AbortController;
  private queue: Queued[] = [];
  private txnCounter = 0;
  /** TDS 8 (strict): TLS from the first byte, every packet inside it (PRELOGIN included). */
  private strict?: tls.TLSSocket;
  private strictWire?: Duplex;
  private sawBytes = false;
  /** PRELOGIN settled on OFF: the client may encrypt the login alone, then speaks plain TDS. */
  private loginOnlyTls = false;
  private tlsDropped = false;

  constructor(
    readonly socket: net.Socket,
    private readonly host: ConnectionHost,
  ) {
    this.remoteAddress = socket.remoteAddress ?? '';
    this.remotePort = socket.remotePort ?? 0;
    this.reader = new PacketReader((t, s, p) => this.onMessage(t, s, p));
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.onSocketData(d));
    socket.on('error', () => this.destroy());
    socket.on('close', () => this.destroy());
  }

  /** Closes the socket now (faults, server shutdown, protocol errors). */
  destroy(reason?: string): void {
    if (this.phase === 'closed') return;
    if (reason) this.host.log(`spid ${this.spid || '-'} ${this.remoteAddress}:${this.remotePort}: ${reason}`);
    this.phase = 'closed';
    this.abort?.abort(new Error('connection closed'));
    this.queue = [];
    this.tls?.destroy();
    this.strict?.destroy();
    this.socket.destroy();
    if (this.session) {
      try {
        this.host.handler.sessionEnded?.(this.session);
      } catch (err) {
        this.host.log(`sessionEnded threw: ${String(err)}`);
      }
    }
    if (this.spid) this.host.releaseSpid(this.spid);
    this.host.closed(this);
  }

  /** Ends the connection after queued output (including TLS records still in the engine) has been written. */
  private endGracefully(): void {
    const force = setTimeout(() => this.socket.destroy(), 2000);
    force.unref();
    if (this.strict) this.strict.end(() => this.socket.end());
    else if (this.tls && this.tlsActive) this.tls.end(() => this.socket.end());
    else this.socket.end();
  }

  private get tlsActive(): boolean {
    return !!this.tls?.handshakeComplete && !this.tlsDropped;
  }

  private onSocketData(d: Buffer): void {
    if (this.phase === 'closed') return;
    if (this.strictWire) {
      this.strictWire.push(Buffer.from(d));
      return;
    }
    if (!this.sawBytes && this.phase === 'prelogin' && d.length > 0 && d[0] === TLS_HANDSHAKE_RECORD) return this.startStrict(d);
    this.sawBytes = true;
    if (this.tlsActive) return this.tls!.feedRecords(d);
    this.feed(d);
  }

  /**
   * TDS 8.0 strict encryption: the client opens with a TLS ClientHello (ALPN "tds/8.0") and sends PRELOGIN and
   * everything after it inside TLS. The TLS engine runs over a duplex we feed from the socket.
   */
  private startStrict(first: Buffer): void {
    this.sawBytes = true;
    const socket = this.socket;
    const wire = new Duplex({
      read() {},
      write(chunk: Buffer, _enc, cb) {
        if (!socket.destroyed) socket.write(chunk);
        cb();
      },
      final(cb) {
        socket.end();
        cb();
      },
    });
    this.strictWire = wire;
    const t = new tls.TLSSocket(wire as unknown as import('node:net').Socket, {
      isServer: true,
      secureContext: this.host.secureContext(),
      ALPNProtocols: ['tds/8.0'],
      requestCert: false,
    });
    this.strict = t;
    this.encrypted = true;
    t.on('data', (d: Buffer) => this.feed(d));
    t.on('error', (err) => this.destroy(`TLS (TDS 8 strict): ${err.message}`));
    wire.push(Buffer.from(first));
  }

  private feed(d: Buffer): void {
    try {
      this.reader.push(d);
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    const what = err instanceof ProtocolError ? 'malformed TDS' : 'internal error';
    this.destroy(`${what}: ${err instanceof Error ? err.message : String(err)}; closing connection`);
  }

  private send(type: number, w: BufWriter): void {
    if (this.phase === 'closed') return;
    const framed = frameMessage(type, w.buf, w.pos, this.packetSize, this.spid);
    if (this.strict) this.strict.write(framed);
    else if (this.tlsActive) this.tls!.write(framed);
    else this.socket.write(framed);
  }

  private onMessage(type: number, status: number, payload: Buffer): void {
    if (this.phase === 'closed') return;
    switch (this.phase) {
      case 'prelogin':
        if (type !== PacketType.PRELOGIN) throw new ProtocolError(`expected PRELOGIN, got packet type 0x${type.toString(16)}`);
        return this.onPrelogin(payload);
      case 'tls':
        if (type !== PacketType.PRELOGIN) throw new ProtocolError('expected TLS handshake in PRELOGIN packets');
        return this.tls!.feedHandshake(payload);
      case 'login':
        if (this.busy) throw new ProtocolError('message while the login is being processed');
        if (type === PacketType.PRELOGIN && this.loginOnlyTls && !this.tls) {
          // Encryption OFF on both sides: the client wraps its LOGIN7 in TLS (handshake in PRELOGIN packets).
          this.startTls();
          this.phase = 'tls';
          return this.tls!.feedHandshake(payload);
        }
        if (this.tls && this.loginOnlyTls) {
          // The login was the only encrypted message: both sides speak plain TDS from here on.
          this.tlsDropped = true;
        }
        if (type !== PacketType.LOGIN7) throw new ProtocolError(`expected LOGIN7, got packet type 0x${type.toString(16)}`);
        return this.onLogin(payload);
      case 'ready':
        if (type === PacketType.ATTENTION) return this.onAttention();
        if (this.busy) {
          this.queue.push({ type, status, payload: Buffer.from(payload) });
          return;
        }
        return this.onRequest(type, status, payload);
    }
  }

  private onPrelogin(payload: Buffer): void {
    const req = parsePrelogin(payload);
    const enc = negotiateEncryption(req.encryption);
    this.out.reset();
    this.out.bytes(buildPreloginResponse(this.host.productVersion, enc));
    this.send(PacketType.REPLY, this.out);
    if (enc !== Encrypt.ON || this.strict) {
      this.loginOnlyTls = enc === Encrypt.OFF && !this.strict;
      this.phase = 'login';
      return;
    }
    this.phase = 'tls';
    this.encrypted = true;
    this.startTls();
  }

  private startTls(): void {
    this.tls = new TlsAdapter(this.host.secureContext(), {
      sendHandshake: (flight) => {
        if (this.phase === 'closed') return;
        // Handshake flights are PRELOGIN messages; once the last one is out, the client speaks TLS records.
        this.out.reset();
        this.out.bytes(flight);
        this.socket.write(frameMessage(PacketType.PRELOGIN, this.out.buf, this.out.pos, this.packetSize, 0));
        if (this.tls?.handshakeComplete) this.phase = 'login';
      },
      sendRecords: (records) => {
        if (this.phase !== 'closed') this.socket.write(records);
      },
      cleartext: (data) => this.feed(data),
      error: (err) => this.destroy(`TLS: ${err.message}`),
    });
  }

  private onLogin(payload: Buffer): void {
    const req = parseLogin7(payload);
    // TDS 8 clients (strict encryption) send 0x08000000, which sorts below every 7.x version: it is valid only inside
    // a strict TLS session, and the token stream inside is TDS 7.4's (MS-TDS 2.2.6.4, TDSVersion).
    const tds8 = req.tdsVersion === TDS_VERSION_8 && this.strict !== undefined;
    if (!tds8 && req.tdsVersion < 0x72000000) throw new ProtocolError(`TDS version 0x${req.tdsVersion.toString(16)} not supported`);
    this.busy = true;
    const info = { encrypted: this.encrypted, remoteAddress: this.remoteAddress };
    Promise.resolve()
      .then(() => this.host.handler.login(req, info))
      .then((result) => {
        if (this.phase === 'closed') return;
        this.busy = false;
        this.out.reset();
        if (!result.ok) {
          writeLoginFailure(this.out, result.error, this.host.serverName);
          this.send(PacketType.REPLY, this.out);
          // SQL Server drops the connection after a failed login; let the reply drain first.
          this.phase = 'closed';
          this.endGracefully();
          this.host.closed(this);
          return;
        }
        this.spid = this.host.allocateSpid(result.spid);
        const requested = req.packetSize;
        this.packetSize =
          this.host.forcedPacketSize ?? (requested >= MIN_PACKET_SIZE && requested <= MAX_PACKET_SIZE ? requested : DEFAULT_PACKET_SIZE);
        this.loginDatabase = result.database;
        this.session = {
          spid: this.spid,
          login: req.userName,
          appName: req.appName,
          hostName: req.hostName,
          clientPid: req.clientPid,
          encrypted: this.encrypted,
          database: result.database,
          state: new Map(),
        };
        writeLoginSuccess(this.out, {
          req,
          database: result.database,
          language: req.language || 'us_english',
          packetSize: this.packetSize,
          tdsVersion: tds8 ? TDS_VERSION_7_4 : Math.min(req.tdsVersion, TDS_VERSION_7_4),
          serverName: this.host.serverName,
          productVersion: this.host.productVersion,
        });
        this.send(PacketType.REPLY, this.out);
        this.phase = 'ready';
        this.host.handler.sessionStarted?.(this.session);
      })
      .catch((err) => this.fail(err));
  }

  private parseWork(type: number, payload: Buffer): Work {
    const rpc = type === PacketType.RPC;
    try {
      if (type === PacketType.SQL_BATCH) return { kind: 'batch', text: parseSqlBatch(payload) };
      if (rpc) return { kind: 'rpc', calls: parseRpc(payload) };
      if (type === PacketType.TRANSACTION_MANAGER) return { kind: 'txn', req: parseTransactionRequest(payload) };
    } catch (err) {
      if (!(err instanceof UnsupportedError)) throw err;
      const number = err instanceof BadParamError ? 8009 : 2812;
      return { kind: 'fail', rpc, error: { kind: 'error', number, state: 1, class: 16, message: err.message } };
    }
    throw new ProtocolError(`unsupported packet type 0x${type.toString(16)} after login`);
  }

  private onRequest(type: number, status: number, payload: Buffer): void {
    const session = this.session!;
    if (status & PacketStatus.IGNORE) {
      // The client abandoned a partly sent request; answer it with an empty DONE.
      this.out.reset();
      writeDone(this.out, Token.DONE, DoneStatus.FINAL, 0, 0);
      return this.send(PacketType.REPLY, this.out);
    }
    const work = this.parseWork(type, payload);
    const reset = (status & (PacketStatus.RESET_CONNECTION | PacketStatus.RESET_CONNECTION_SKIP_TRAN)) !== 0;
    if (reset) {
      session.database = this.loginDatabase;
      session.noCount = false;
      this.host.handler.resetConnection?.(session, (status & PacketStatus.RESET_CONNECTION_SKIP_TRAN) !== 0);
    }
    const ac = new AbortController();
    this.abort = ac;
    this.busy = true;
    this.execute(work, ac, reset)
      .catch((err) => {
        if (!ac.signal.aborted) this.host.log(`spid ${this.spid}: handler failed: ${String(err)}`);
      })
      .finally(() => {
        if (this.abort === ac) this.abort = undefined;
        this.busy = false;
        this.drainQueue();
      });
  }

  private async execute(work: Work, ac: AbortController, reset: boolean): Promise<void> {
    const signal = ac.signal;
    const session = this.session!;
    const handler = this.host.handler;
    const w = this.out;
    const parts: Array<{ items: ResponseItem[]; call?: RpcCall }> = [];
    const handlerError = (err: unknown): ResponseItem[] => [
      { kind: 'error', number: 50000, state: 1, class: 16, message: err instanceof Error ? err.message : String(err) },
    ];
    if (work.kind === 'batch') {
      parts.push({ items: await handler.sqlBatch(session, work.text, signal).catch(handlerError) });
    } else if (work.kind === 'rpc') {
      for (const call of work.calls) {
        if (signal.aborted) break;
        parts.push({ call, items: await handler.rpc(session, call.procName, call.params, signal).catch(handlerError) });
      }
    } else if (work.kind === 'txn') {
      const run = handler.transaction ? handler.transaction(session, work.req, signal) : handler.sqlBatch(session, work.req.sql, signal);
      parts.push({ items: await run.catch(handlerError) });
    }
    if (this.host.responseDelayMs > 0 && !signal.aborted) await sleep(this.host.responseDelayMs, signal);
    if (signal.aborted || this.phase !== 'ready') return; // attention already answered, or connection gone

    w.reset();
    if (reset) writeEnvChangeBytes(w, EnvChange.RESET_CONNECTION_ACK, Buffer.alloc(0), Buffer.alloc(0));
    const serverName = this.host.serverName;
    if (work.kind === 'fail') {
      writeReply(w, [work.error], { serverName, session, mode: work.rpc ? 'rpc' : 'batch', last: true });
    } else if (work.kind === 'txn') {
      const items = parts[0].items;
      // A model with transaction() reports the ENVCHANGE itself (a 'transaction' item).
      if (!handler.transaction && !items.some((i) => i.kind === 'error' && i.class >= 11))
        writeTxnEnvChange(w, work.req, ++this.txnCounter);
      writeReply(w, items, { serverName, session, mode: 'batch', last: true });
    } else {
      const mode = work.kind === 'rpc' ? 'rpc' : 'batch';
      for (let i = 0; i < parts.length; i++) {
        const last = i === parts.length - 1;
        writeReply(w, parts[i].items, { serverName, session, mode, params: parts[i].call?.params, last });
      }
    }
    // Replied: an ATTENTION from now on only needs its acknowledgement (no extra message for this request).
    if (this.abort === ac) this.abort = undefined;
    this.send(PacketType.REPLY, w);
  }

  /**
   * ATTENTION: abort the in-flight call and acknowledge. tedious reads one more message for the interrupted request
   * and then expects the acknowledgement (DONE with the attention bit) in a message of its own.
   */
  private onAttention(): void {
    const inFlight = this.abort !== undefined && !this.abort.signal.aborted;
    this.queue = [];
    const w = this.out;
    if (inFlight) {
      this.abort!.abort(new Error('attention'));
      w.reset();
      writeDone(w, Token.DONE, DoneStatus.FINAL, 0, 0);
      this.send(PacketType.REPLY, w);
    }
    w.reset();
    writeDone(w, Token.DONE, DoneStatus.ATTN, 0, 0);
    this.send(PacketType.REPLY, w);
  }

  private drainQueue(): void {
    while (!this.busy && this.queue.length > 0 && this.phase === 'ready') {
      const next = this.queue.shift()!;
      try {
        this.onRequest(next.type, next.status, next.payload);
      } catch (err) {
        this.fail(err);
      }
    }
  }

  /** How `sessions()` shows this connection. */
  get state(): 'busy' | 'idle' {
    return this.busy ? 'busy' : 'idle';
  }
}
