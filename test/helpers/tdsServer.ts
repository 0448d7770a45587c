// Starts a TdsServer with the echo handler and builds mssql/tedious configs pointing at it.

import * as sql from 'mssql';
import { Connection as TediousConnection } from 'tedious';
import { TdsServer, TdsServerOptions } from '../../tools/sim/tds/server';
import { createEchoHandler, EchoHandler } from './echoHandler';

export interface TestServer {
  server: TdsServer;
  handler: EchoHandler;
  port: number;
  logs: string[];
  /** An mssql config; encryption off unless overridden. */
  config(overrides?: Partial<sql.config> & { options?: sql.config['options'] }): sql.config;
  /** Connects a pool (max 1 connection by default). */
  pool(overrides?: Partial<sql.config>): Promise<sql.ConnectionPool>;
  close(): Promise<void>;
}

export async function startTestServer(opts: Partial<TdsServerOptions> = {}): Promise<TestServer> {
  const handler = createEchoHandler();
  const logs: string[] = [];
  const server = new TdsServer({ handler, log: (l) => logs.push(l), ...opts });
  const { port } = await server.listen();
  const pools: sql.ConnectionPool[] = [];
  const config = (overrides: Partial<sql.config> = {}): sql.config => ({
    server: '127.0.0.1',
    port,
    user: 'sa',
    password: 'pw',
    database: 'master',
    connectionTimeout: 5000,
    requestTimeout: 15000,
    pool: { max: 1, min: 0, idleTimeoutMillis: 30000 },
    ...overrides,
    options: { encrypt: false, trustServerCertificate: true, ...(overrides.options ?? {}) },
  });
  return {
    server,
    handler,
    port,
    logs,
    config,
    async pool(overrides) {
      const p = new sql.ConnectionPool(config(overrides));
      pools.push(p);
      p.on('error', () => undefined);
      await p.connect();
      return p;
    },
    async close() {
      await Promise.all(pools.map((p) => p.close().catch(() => undefined)));
      await server.close();
    },
  };
}

/** A raw tedious connection as sa to a test server, for what mssql does not expose (reset, cancel by hand). */
export async function tediousConnect(port: number): Promise<TediousConnection> {
  const conn = new TediousConnection({
    server: '127.0.0.1',
    authentication: { type: 'default', options: { userName: 'sa', password: 'pw' } },
    options: { port, encrypt: false, trustServerCertificate: true },
  });
  await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
  return conn;
}
