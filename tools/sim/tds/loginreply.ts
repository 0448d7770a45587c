// The token stream SQL Server answers a LOGIN7 with, in SQL Server's order.

import type { ServerMessage } from './contract';
import { BufWriter } from './bufwriter';
import type { Login7 } from './login7';
import { DEFAULT_COLLATION, DoneStatus, EnvChange, FeatureId, Token } from './protocol';
import { writeDone, writeEnvChangeBytes, writeEnvChangeString, writeFeatureExtAck, writeLoginAck, writeMessage } from './tokens';

export interface LoginReplyParams {
  req: Login7;
  database: string;
  language: string;
  packetSize: number;
  tdsVersion: number;
  serverName: string;
  productVersion: { major: number; minor: number; build: number };
}

const info = (number: number, state: number, message: string): ServerMessage => ({
  kind: 'info',
  number,
  state,
  class: 0,
  message,
  line: 1,
});

export function writeLoginSuccess(w: BufWriter, p: LoginReplyParams): void {
  writeEnvChangeString(w, EnvChange.DATABASE, p.database, 'master');
  writeMessage(w, info(5701, 2, `Changed database context to '${p.database}'.`), p.serverName);
  writeEnvChangeBytes(w, EnvChange.SQL_COLLATION, DEFAULT_COLLATION, Buffer.alloc(0));
  writeEnvChangeString(w, EnvChange.LANGUAGE, p.language, '');
  writeMessage(w, info(5703, 1, `Changed language setting to ${p.language}.`), p.serverName);
  writeLoginAck(w, p.tdsVersion, 'Microsoft SQL Server', p.productVersion);
  writeEnvChangeString(w, EnvChange.PACKET_SIZE, String(p.packetSize), String(p.packetSize));
  // Acknowledge only features the client asked for and we support (tedious rejects unknown acks).
  const acks: Array<[number, Buffer]> = [];
  if (p.req.features.has(FeatureId.UTF8_SUPPORT)) acks.push([FeatureId.UTF8_SUPPORT, Buffer.from([0x01])]);
  if (acks.length) writeFeatureExtAck(w, acks);
  writeDone(w, Token.DONE, DoneStatus.FINAL, 0, 0);
}

/** A failed login: its errors, then DONE with the error bit; the server then closes the connection. */
export function writeLoginFailure(w: BufWriter, error: ServerMessage | readonly ServerMessage[], serverName: string): void {
  for (const m of Array.isArray(error) ? error : [error]) writeMessage(w, m, serverName);
  writeDone(w, Token.DONE, DoneStatus.ERROR, 0, 0);
}
