// What a new connection's socket saw before the login: whether TCP connected, and whether the first bytes the server
// sent look like SQL Server's. SQL Server answers the client's PRELOGIN with a TDS packet (type 0x04); an HTTP or SSH
// server on that port answers with text the driver would wait on until its login timeout. The watching connector
// ends such a connection at its first reply, so the failure is told at once and in words about the port.
import type * as net from 'node:net';
import { connectInSequence } from 'tedious/lib/connector';
import type { WireFacts } from './connectErrors';

/** First bytes a SQL Server sends: a TDS reply (0x04) or PRELOGIN (0x12) packet, or a TLS record (handshake, alert). */
const TDS_FIRST = new Set([0x04, 0x12]);
const TLS_FIRST = new Set([0x15, 0x16]);

/** The first reply, as a person would recognise it: its first line when it is text, else its first bytes in hex. */
export function describeReply(chunk: Buffer): string {
  if (TLS_FIRST.has(chunk[0]) && chunk[1] === 0x03) return 'a TLS record';
  const line = chunk.subarray(0, 64).toString('latin1').split(/\r?\n/)[0];
  const what = /^HTTP\/\d/.test(line) ? 'an HTTP server: ' : /^SSH-/.test(line) ? 'an SSH server: ' : '';
  if (line.length >= 4 && /^[\x20-\x7e]+$/.test(line)) return `${what}"${line.slice(0, 48)}"`;
  return `bytes ${[...chunk.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}`;
}

/** Whether a first reply can be SQL Server's, for a connection with or without TDS 8 (strict) encryption. */
export function looksLikeTds(chunk: Buffer, strict: boolean): boolean {
  return TDS_FIRST.has(chunk[0]) || (strict && TLS_FIRST.has(chunk[0]));
}

type Lookup = Parameters<typeof connectInSequence>[1];
type Connector = (opts: { host: string; port: number; localAddress?: string }, lookup: Lookup, signal: AbortSignal) => Promise<net.Socket>;

/**
 * tedious's own connector (connectInSequence), noting in `facts` what happened on the wire. With strict encryption
 * TLS reads the socket from its first byte, so only the TCP connect is noted there.
 */
export function watchingConnector(facts: WireFacts, strict: boolean): Connector {
  return async (opts, lookup, signal) => {
    const socket = await connectInSequence(opts, lookup, signal);
    facts.tcpConnected = true;
    if (strict) return socket;
    facts.watched = true;
    // SQL Server sends nothing before the client's PRELOGIN, which tedious writes once it has piped this socket.
    socket.once('data', (chunk: Buffer) => {
      facts.replied = true;
      if (looksLikeTds(chunk, false)) return;
      facts.notTds = describeReply(chunk);
      socket.destroy(Object.assign(new Error(`the server's first reply is not TDS (${facts.notTds})`), { code: 'ENOTTDS' }));
    });
    return socket;
  };
}
