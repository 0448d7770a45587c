// TdsServer: a TDS 7.4 listener in front of a SimHandler (the simulated instance).

import * as net from 'node:net';
import type { SecureContext } from 'node:tls';
import type { SimHandler } from './contract';
import { selfSignedCert } from './cert';
import { Connection, ConnectionHost } from './connection';
import { TdsFaults } from './faults';
import { createSecureContext } from './tls';

export interface ProductVersion {
  major: number;
  minor: number;
  build: number;
}

export interface TdsServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  handler: SimHandler;
  /** Server name in ERROR/INFO tokens. Default 'SPINLAB-SIM'. */
  serverName?: string;
  /** Version in PRELOGIN and LOGINACK. Default 16.0.1000 (SQL Server 2022). */
  productVersion?: ProductVersion;
  /** Forces this packet size on every session; by default the client's requested size is accepted (512..32767). */
  packetSize?: number;
  /** PEM key and certificate for TLS; by default a self-signed one is generated at listen(). */
  tls?: { key: string; cert: string };
  /** Where log lines go (malformed packets, handler failures). Default: stderr. */
  log?: (line: string) => void;
}

export interface SessionInfo {
  spid: number;
  login: string;
  appName: string;
  hostName: string;
  /** The client's process id from LOGIN7. */
  clientPid?: number;
  database: string;
  remoteAddress: string;
  remotePort: number;
  encrypted: boolean;
  state: 'busy' | 'idle';
  connectedAt: Date;
}

const FIRST_SPID = 51;

export class TdsServer implements ConnectionHost {
  readonly handler: SimHandler;
  readonly serverName: string;
  readonly productVersion: ProductVersion;
  readonly forcedPacketSize?: number;
  responseDelayMs = 0;
  /** Wire-level fault injection (drop, refuse, delay). */
  readonly faults: TdsFaults;

  private readonly host: string;
  private port: number;
  private listener?: net.Server;
  private readonly conns = new Set<Connection>();
  private readonly usedSpids = new Set<number>();
  private context?: SecureContext;
  private readonly logFn: (line: string) => void;
  private closing = false;

  constructor(private readonly options: TdsServerOptions) {
    this.handler = options.handler;
    this.host = options.host ?? '127.0.0.1';
    this.port = options.port ?? 0;
    this.serverName = options.serverName ?? 'SPINLAB-SIM';
    this.productVersion = options.productVersion ?? { major: 16, minor: 0, build: 1000 };
    if (options.packetSize !== undefined) {
      if (!(options.packetSize >= 512 && options.packetSize <= 32767)) throw new RangeError('packetSize must be 512..32767');
      this.forcedPacketSize = options.packetSize;
    }
    this.logFn = options.log ?? ((line) => process.stderr.write(`[tds-sim] ${line}\n`));
    this.faults = new TdsFaults(this);
  }

  /** Starts listening (after preparing the TLS certificate); resolves with the bound address. */
  async listen(): Promise<{ host: string; port: number }> {
    if (!this.context) {
      const pair = this.options.tls ?? (await selfSignedCert());
      this.context = createSecureContext(pair.key, pair.cert);
    }
    await this.startListener();
    return { host: this.host, port: this.port };
  }

  get address(): { host: string; port: number } {
    return { host: this.host, port: this.port };
  }

  /** @internal used by faults: (re)open the listener on the same port. */
  startListener(): Promise<void> {
    if (this.listener) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const srv = net.createServer((socket) => this.accept(socket));
      srv.maxConnections = 10_000;
      srv.once('error', reject);
      srv.listen(this.port, this.host, () => {
        srv.off('error', reject);
        srv.on('error', (err) => this.log(`listener error: ${err.message}`));
        this.port = (srv.address() as net.AddressInfo).port;
        this.listener = srv;
        resolve();
      });
    });
  }

  /** @internal used by faults: stop accepting (new connects get ECONNREFUSED); live sessions stay. */
  stopListener(): Promise<void> {
    const srv = this.listener;
    this.listener = undefined;
    if (!srv) return Promise.resolve();
    // close() stops accepting at once but calls back only when every accepted socket is gone, and live sessions
    // are meant to stay: resolve on the next turn instead.
    srv.close();
    return new Promise((resolve) => setImmediate(resolve));
  }

  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** Closes the listener and every connection (in-flight calls see their AbortSignal fire). */
  async close(): Promise<void> {
    this.closing = true;
    this.faults.clearTimers();
    const stopped = this.stopListener();
    for (const c of [...this.conns]) c.destroy();
    await stopped;
  }

  /** Logged-in sessions. */
  sessions(): SessionInfo[] {
    const out: SessionInfo[] = [];
    for (const c of this.conns) {
      const s = c.session;
      if (!s || c.phase !== 'ready') continue;
      out.push({
        spid: s.spid,
        login: s.login,
        appName: s.appName,
        hostName: s.hostName,
        clientPid: s.clientPid,
        database: s.database,
        remoteAddress: c.remoteAddress,
        remotePort: c.remotePort,
        encrypted: c.encrypted,
        state: c.state,
        connectedAt: c.connectedAt,
      });
    }
    return out.sort((a, b) => a.spid - b.spid);
  }

  /** @internal every connection, logged in or not (faults). */
  connections(): Connection[] {
    return [...this.conns];
  }

  // ConnectionHost

  secureContext(): SecureContext {
    if (!this.context) throw new Error('TLS context not ready (listen() not called)');
    return this.context;
  }

  /** SQL Server hands out the lowest free session id above the system range (1..50). */
  allocateSpid(wanted?: number): number {
    if (wanted !== undefined && wanted > 0 && !this.usedSpids.has(wanted)) {
      this.usedSpids.add(wanted);
      return wanted;
    }
    let spid = FIRST_SPID;
    while (this.usedSpids.has(spid)) spid++;
    this.usedSpids.add(spid);
    return spid;
  }

  releaseSpid(spid: number): void {
    this.usedSpids.delete(spid);
  }

  log(line: string): void {
    this.logFn(line);
  }

  closed(conn: Connection): void {
    this.conns.delete(conn);
  }

  private accept(socket: net.Socket): void {
    if (this.closing) {
      socket.destroy();
      return;
    }
    this.conns.add(new Connection(socket, this));
  }
}
