// The lean client path: a connection that tedious opened and logged in (so every authentication method, TLS and the
// login rules stay tedious's) is taken over at the socket once the session is plaintext, and each client-loop call is
// one prebuilt RPC message written straight to it (rpcRequest.ts), its reply scanned without building tokens or rows
// (replyScanner.ts). Cancel and a request timeout send ATTENTION and wait for its acknowledgement, as tedious does; a
// dropped socket fails the call in flight as the driver's lost connection does. The connection is dedicated: after a
// takeover tedious never reads or writes it again, and close() ends it.
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { Connection as TdsConnection } from 'tedious';
import { DbError, wrapError } from '../dbError';
import { attentionPacket, LeanRpcRequest, type LeanParam } from './rpcRequest';
import { LeanUnsupported, ReplyScanner, type ReplyMessage, type ServerError } from './replyScanner';

/** tedious 19's connection internals the takeover reads and detaches (node_modules/tedious/lib/connection.js). */
interface TediousInternals {
  config: { options: { encrypt: boolean | 'strict'; tdsVersion: string } };
  state: unknown;
  STATE: { LOGGED_IN: unknown };
  request?: unknown;
  socket?: net.Socket;
  messageIo?: {
    securePair?: unknown;
    tlsNegotiationComplete: boolean;
    incomingMessageStream: NodeJS.WritableStream;
    outgoingMessageStream: NodeJS.ReadableStream & { unpipe(dest?: NodeJS.WritableStream): unknown };
    packetSize(): number;
  };
  transactionDescriptors?: Buffer[];
  _onSocketError?: (...a: unknown[]) => void;
  _onSocketClose?: (...a: unknown[]) => void;
  _onSocketEnd?: (...a: unknown[]) => void;
}

/** How long the server has to acknowledge an ATTENTION before the connection is given up (tedious's cancelTimeout). */
const ATTENTION_ACK_MS = 5_000;
const ATTENTION = attentionPacket();

/** Why this logged-in connection cannot be taken over, or null when it can. */
export function takeoverRefusal(conn: TdsConnection): string | null {
  const c = conn as unknown as TediousInternals;
  const io = c.messageIo;
  if (c.config?.options?.encrypt !== false) return 'the session is encrypted (encrypt is not false)';
  if (!io || io.securePair || io.tlsNegotiationComplete) return 'the session negotiated TLS';
  if (!(c.socket instanceof net.Socket) || c.socket instanceof tls.TLSSocket || c.socket.destroyed) return 'no plain TCP socket';
  if (c.state !== c.STATE?.LOGGED_IN || c.request) return 'the connection is busy or not logged in';
  if (!(c.config.options.tdsVersion >= '7_2')) return `TDS ${c.config.options.tdsVersion} (the lean path needs 7.2 or later)`;
  return null;
}

type Settle = { resolve: () => void; reject: (e: Error) => void };

export class LeanChannel {
  private readonly scanner = new ReplyScanner();
  private pending: Settle | null = null;
  private errors: ServerError[] = [];
  private doneError = false;
  /** Why the call in flight is being cancelled (ATTENTION sent), until the server acknowledges it. */
  private attention: Error | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lostReason: string | null = null;
  private signal: AbortSignal | null = null;
  private closed = false;
  private txn: Buffer | null;
  private readonly onAbort = () => this.sendAttention(new DbError('Canceled.', undefined, 'ECANCEL', undefined, undefined, []));

  private constructor(
    private readonly socket: net.Socket,
    readonly packetSize: number,
    txn: Buffer | undefined,
    private readonly onLost: () => void,
    private readonly onClosed: () => void,
  ) {
    this.txn = txn && txn.some((x) => x !== 0) ? txn : null;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => (this.lostReason ??= err.message));
    socket.on('end', () => (this.lostReason ??= 'socket hang up'));
    socket.on('close', () => this.onClose());
    socket.resume(); // unpipe paused it: a 'data' listener alone does not restart a paused stream
  }

  /** Takes the socket over from tedious (see takeoverRefusal for when it cannot); tedious's own listeners are removed. */
  static takeOver(conn: TdsConnection, onLost: () => void, onClosed: () => void): LeanChannel {
    const why = takeoverRefusal(conn);
    if (why) throw new Error(`lean path: ${why}`);
    const c = conn as unknown as TediousInternals;
    const socket = c.socket!;
    const io = c.messageIo!;
    io.outgoingMessageStream.unpipe(socket);
    socket.unpipe(io.incomingMessageStream);
    if (c._onSocketError) socket.removeListener('error', c._onSocketError);
    if (c._onSocketClose) socket.removeListener('close', c._onSocketClose);
    if (c._onSocketEnd) socket.removeListener('end', c._onSocketEnd);
    const descriptors = c.transactionDescriptors ?? [];
    return new LeanChannel(socket, io.packetSize(), descriptors[descriptors.length - 1], onLost, onClosed);
  }

  /** The request for one procedure and its integer parameters, built once; patch values with its set(). */
  prepare(procedure: string, params: readonly LeanParam[]): LeanRpcRequest {
    return LeanRpcRequest.build(procedure, params, this.packetSize);
  }

  /** The phase's signal: an abort cancels the call in flight with ATTENTION (one listener for the phase). */
  bind(signal: AbortSignal | null): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    this.signal = signal;
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  get open(): boolean {
    return this.lostReason === null && !this.socket.destroyed;
  }

  /** Sends the request as it stands; resolves when the server's reply ends, rejects with the driver's error. */
  call(request: LeanRpcRequest, timeoutMs = 0): Promise<void> {
    if (this.signal?.aborted) return Promise.reject(new DbError('cancelled', undefined, 'ECANCEL', undefined, undefined, []));
    if (!this.open) return Promise.reject(this.lostError());
    if (this.pending) return Promise.reject(new Error('lean path: a call is already in flight on this session'));
    return new Promise<void>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.errors = [];
      this.doneError = false;
      request.setTransaction(this.txn);
      if (timeoutMs > 0) {
        const err = new DbError(`Timeout: Request failed to complete in ${timeoutMs}ms`, undefined, 'ETIMEOUT', undefined, undefined, []);
        this.timer = setTimeout(() => this.sendAttention(err), timeoutMs);
      }
      this.socket.write(request.bytes);
    });
  }

  /** Ends the connection (it was dedicated to this path); a call in flight fails as lost. */
  close(): Promise<void> {
    this.bind(null);
    this.lostReason ??= 'closed by the client';
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.destroy();
    });
  }

  private sendAttention(why: Error): void {
    if (!this.pending || this.attention || !this.open) return;
    this.clearTimer();
    this.attention = why;
    this.socket.write(ATTENTION);
    // No acknowledgement in time: the connection is given up, as tedious gives it up.
    this.timer = setTimeout(() => {
      this.lostReason ??= 'the server did not acknowledge the cancel (ATTENTION) in time';
      this.socket.destroy();
    }, ATTENTION_ACK_MS);
  }

  private onData(chunk: Buffer): void {
    let messages: ReplyMessage[];
    try {
      messages = this.scanner.push(chunk);
    } catch (err) {
      // Nothing after an unreadable reply can be trusted: the session ends, and says why.
      const why = err instanceof LeanUnsupported ? `the reply holds ${err.message}` : (err as Error).message;
      this.lostReason ??= `lean path: ${why}; run with --client-path driver to read it`;
      this.settle(new DbError(this.lostReason, undefined, 'ELEAN', undefined, undefined, []));
      this.socket.destroy();
      return;
    }
    for (const m of messages) this.onMessage(m);
  }

  private onMessage(m: ReplyMessage): void {
    if (m.transaction !== undefined) this.txn = m.transaction;
    this.errors.push(...m.errors);
    this.doneError ||= m.doneError;
    if (this.attention) {
      if (!m.attentionAck) return; // the rest of the reply before the acknowledgement
      const err = this.attention;
      this.attention = null;
      this.settle(err);
      return;
    }
    this.settle(this.callError());
  }

  /** The error the ordinary driver reports for these tokens (tedious's RequestError through wrapError), or null. */
  private callError(): Error | null {
    const errs = this.errors;
    if (!errs.length) return this.doneError ? wrapError({ message: 'An unknown error has occurred.', code: 'UNKNOWN' }) : null;
    const last = errs[errs.length - 1];
    return wrapError({
      message: last.message,
      code: 'EREQUEST',
      number: last.number,
      state: last.state,
      class: last.class,
      lineNumber: last.lineNumber,
      precedingErrors: errs.slice(0, -1).map((e) => ({ number: e.number, message: e.message })),
    });
  }

  private settle(err: Error | null): void {
    this.clearTimer();
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    if (err) p.reject(err);
    else p.resolve();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private lostError(): Error {
    return wrapError({ message: `Connection lost - ${this.lostReason ?? 'socket closed'}`, code: 'ESOCKET' });
  }

  private onClose(): void {
    this.closed = true;
    const lost = this.lostReason !== 'closed by the client';
    this.lostReason ??= 'socket closed';
    this.attention = null;
    this.bind(null);
    if (this.pending) this.settle(this.lostError());
    if (lost) this.onLost();
    this.onClosed();
  }
}
