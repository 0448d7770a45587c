// Wire-level faults: what a network or a restarting instance does to clients. Used by tests and CLI flags.

import type { Connection } from './connection';

/** The part of TdsServer the faults drive. */
export interface FaultTarget {
  responseDelayMs: number;
  readonly listening: boolean;
  startListener(): Promise<void>;
  stopListener(): Promise<void>;
  connections(): Connection[];
  log(line: string): void;
}

export class TdsFaults {
  private readonly timers = new Set<NodeJS.Timeout>();
  private refusing = false;

  constructor(private readonly server: FaultTarget) {}

  /**
   * Drops one session's TCP connection (no TDS goodbye, like a network cut) after `afterMs`. Returns false when no
   * session has that spid now.
   */
  dropSession(spid: number, afterMs = 0): boolean {
    const conn = this.server.connections().find((c) => c.spid === spid && c.phase === 'ready');
    if (!conn) return false;
    const drop = () => {
      this.server.log(`fault: dropping spid ${spid}`);
      conn.destroy();
    };
    if (afterMs <= 0) drop();
    else {
      const t = setTimeout(() => {
        this.timers.delete(t);
        drop();
      }, afterMs);
      this.timers.add(t);
    }
    return true;
  }

  /** Drops every connection now (an instance restart as clients see it). Returns how many were dropped. */
  dropAll(): number {
    const conns = this.server.connections();
    if (conns.length) this.server.log(`fault: dropping all ${conns.length} connections`);
    for (const c of conns) c.destroy();
    return conns.length;
  }

  /**
   * true: close the listening socket, so new connections get a real ECONNREFUSED (live sessions are kept).
   * false: listen again on the same port.
   */
  async refuseConnections(refuse: boolean): Promise<void> {
    this.refusing = refuse;
    if (refuse) await this.server.stopListener();
    else await this.server.startListener();
  }

  get refusingConnections(): boolean {
    return this.refusing;
  }

  /** Holds every reply back by `ms` (0 turns it off). An ATTENTION still cancels promptly. */
  setResponseDelay(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('delay must be >= 0');
    this.server.responseDelayMs = ms;
  }

  get responseDelay(): number {
    return this.server.responseDelayMs;
  }

  /** @internal pending dropSession timers are cancelled when the server closes. */
  clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
