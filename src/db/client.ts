// The one module that touches the SQL driver (mssql over tedious). Everything else speaks in SqlFile ids,
// procedure names and plain values, so the engine can be read and tested without the driver's types. What needs no
// driver lives beside it: the target (target.ts), errors (dbError.ts), parameter declarations (params.ts), rows (rows.ts).
import * as sql from 'mssql';
import { Request as TdsRequest, TYPES as TDS_TYPES, type Connection as TdsConnection } from 'tedious';
import { loadSqlFile, type SqlFile } from './sqlFiles';
import { explainConnectFailure, noWireFacts } from './connectErrors';
import { watchingConnector } from './wireWatch';
import { DbError, withFileLine, wrapError } from './dbError';
import { parseParameterDeclaration, type ProcArg } from './params';
import { num, type ResultSets, type Row } from './rows';
import type { DbTarget } from './target';
import { LeanChannel, takeoverRefusal } from './lean/leanChannel';

function toMssqlConfig(t: DbTarget, database: string | undefined, appName: string, poolMax: number, keep = false): sql.config {
  const authentication: sql.config['authentication'] =
    t.authentication === 'ntlm'
      ? { type: 'ntlm', options: { userName: t.user ?? '', password: t.password ?? '', domain: t.domain ?? '' } }
      : t.authentication === 'azure-active-directory-access-token'
        ? { type: 'azure-active-directory-access-token', options: { token: t.accessToken ?? '' } }
        : undefined;
  return {
    server: t.server,
    port: t.instanceName ? undefined : t.port,
    database: database ?? t.database,
    user: t.authentication === 'sql' ? t.user : undefined,
    password: t.authentication === 'sql' ? t.password : undefined,
    authentication,
    connectionTimeout: t.connectTimeoutMs,
    requestTimeout: t.requestTimeoutMs ?? 0, // 0 = none: workload calls run for the whole measured interval
    // keep: a session that holds session-owned locks must never be closed for idleness (the locks would go with it).
    pool: keep ? { min: 1, max: poolMax, idleTimeoutMillis: 2_147_483_647 } : { min: 0, max: poolMax, idleTimeoutMillis: 30_000 },
    // mssql's default validates a connection with a 'SELECT 1;' round trip every time a request takes it from the
    // pool: one extra batch per workload call (half the client loop's throughput, and batches on the server that no
    // sql/ file sends). 'socket' checks the connection's state and socket instead, with no round trip.
    validateConnection: 'socket',
    options: {
      encrypt: t.encrypt as boolean, // tedious also takes 'strict' (TDS 8); the typings lag
      trustServerCertificate: t.trustServerCertificate,
      ...(t.hostNameInCertificate ? { serverName: t.hostNameInCertificate } : {}),
      instanceName: t.instanceName,
      appName,
      enableArithAbort: true,
      useUTC: true,
    },
  };
}

/** Maps a declared T-SQL parameter type ('sysname', 'nvarchar(16)', 'bigint') to the driver's type. */
export function driverType(decl: string): sql.ISqlType | (() => sql.ISqlType) {
  const m = /^(\w+)\s*(?:\(\s*(max|\d+)\s*\))?$/i.exec(decl.trim());
  if (!m) throw new Error(`unsupported parameter type '${decl}'`);
  const len = m[2] === undefined ? undefined : m[2].toLowerCase() === 'max' ? sql.MAX : Number(m[2]);
  switch (m[1].toLowerCase()) {
    case 'sysname':
      return sql.NVarChar(128);
    case 'nvarchar':
      return sql.NVarChar(len ?? 4000);
    case 'varchar':
      return sql.VarChar(len ?? 8000);
    case 'int':
      return sql.Int;
    case 'bigint':
      return sql.BigInt;
    case 'smallint':
      return sql.SmallInt;
    case 'bit':
      return sql.Bit;
    case 'float':
      return sql.Float;
    default:
      throw new Error(`unsupported parameter type '${decl}'`);
  }
}

/** A parameter ready for tedious: its type resolved once, so a call in a loop only sets the value. */
export interface RpcArg {
  name: string;
  type: (typeof TDS_TYPES)[keyof typeof TDS_TYPES];
  options?: { length?: number };
  value: unknown;
}

/** The tedious type of a declared T-SQL parameter type (the same declarations driverType takes). */
export function rpcArg(a: ProcArg): RpcArg {
  const m = /^(\w+)\s*(?:\(\s*(max|\d+)\s*\))?$/i.exec(a.type.trim());
  if (!m) throw new Error(`unsupported parameter type '${a.type}'`);
  const len = m[2] === undefined ? undefined : m[2].toLowerCase() === 'max' ? 0xffff : Number(m[2]);
  const t = (type: RpcArg['type'], length?: number): RpcArg => ({
    name: a.name,
    type,
    options: length === undefined ? undefined : { length },
    value: a.value ?? null,
  });
  switch (m[1].toLowerCase()) {
    case 'sysname':
      return t(TDS_TYPES.NVarChar, 128);
    case 'nvarchar':
      return t(TDS_TYPES.NVarChar, len ?? 4000);
    case 'varchar':
      return t(TDS_TYPES.VarChar, len ?? 8000);
    case 'int':
      return t(TDS_TYPES.Int);
    case 'bigint':
      return t(TDS_TYPES.BigInt);
    case 'smallint':
      return t(TDS_TYPES.SmallInt);
    case 'bit':
      return t(TDS_TYPES.Bit);
    case 'float':
      return t(TDS_TYPES.Float);
    default:
      throw new Error(`unsupported parameter type '${a.type}'`);
  }
}

/**
 * A workload session's connection, held for a whole load phase: each call is one RPC sent straight through tedious,
 * with no pool acquire, request object or result collection per call (the client loop's calls return nothing it
 * reads). Cancel sends ATTENTION, as a pooled request's cancel does. Release gives the connection back to the pool.
 */
export class RpcChannel {
  private released = false;
  private inFlight = false;
  private readonly onAbort = () => {
    if (this.inFlight) this.conn.cancel();
  };

  /** `signal` stops the phase: the call in flight is cancelled with ATTENTION and no further call is sent. */
  constructor(
    private readonly conn: TdsConnection,
    private readonly onRelease: () => void,
    private readonly signal?: AbortSignal,
  ) {
    // One listener for the whole phase rather than one per call: EventTarget bookkeeping costs more than the RPC's
    // own client work in a tight loop.
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  call(procedure: string, args: readonly RpcArg[]): Promise<void> {
    if (this.signal?.aborted) return Promise.reject(new DbError('cancelled', undefined, 'ECANCEL', undefined, undefined, []));
    return new Promise((resolve, reject) => {
      const request = new TdsRequest(procedure, (err) => {
        this.inFlight = false;
        if (err) reject(wrapError(err));
        else resolve();
      });
      for (const a of args) request.addParameter(a.name, a.type, a.value ?? null, a.options);
      this.inFlight = true;
      this.conn.callProcedure(request);
    });
  }

  /**
   * Sends a custom workload's batch: plain when it takes no parameters, else as sp_executesql with typed parameters
   * (never spliced into the text). `timeoutMs` > 0 cancels a call that runs longer (the error's code is ETIMEOUT).
   */
  exec(text: string, args: readonly RpcArg[], timeoutMs = 0): Promise<void> {
    if (this.signal?.aborted) return Promise.reject(new DbError('cancelled', undefined, 'ECANCEL', undefined, undefined, []));
    return new Promise((resolve, reject) => {
      const request = new TdsRequest(text, (err) => {
        this.inFlight = false;
        if (err) reject(wrapError(err));
        else resolve();
      });
      if (timeoutMs > 0) request.setTimeout(timeoutMs);
      for (const a of args) request.addParameter(a.name, a.type, a.value ?? null, a.options);
      this.inFlight = true;
      if (args.length) this.conn.execSql(request);
      else this.conn.execSqlBatch(request);
    });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.onRelease();
  }
}

function abortable<T>(signal: AbortSignal | undefined, request: sql.Request, run: () => Promise<T>): Promise<T> {
  if (!signal) return run();
  if (signal.aborted) return Promise.reject(new DbError('cancelled', undefined, 'ECANCEL', undefined, undefined, []));
  const onAbort = () => request.cancel(); // sends ATTENTION: the server stops the batch
  signal.addEventListener('abort', onAbort, { once: true });
  return run().finally(() => signal.removeEventListener('abort', onAbort));
}

/** A file prepared on one connection (DbSession.prepare). */
export interface PreparedFile {
  file: SqlFile;
  handle: number;
}

/** One connection (a pool of one), for a workload session, the monitor, or admin work. */
export class DbSession {
  private closed = false;
  private constructor(
    private readonly pool: sql.ConnectionPool,
    readonly database: string | undefined,
    private readonly lost: { count: number },
  ) {}

  /** keep: never close the connection for idleness (a session holding an experiment's application locks). */
  static async open(target: DbTarget, opts: { database?: string; appName?: string; keep?: boolean } = {}): Promise<DbSession> {
    const lost = { count: 0 };
    // Every error the server sent while logging in: tedious keeps only the last (18456), but a database that cannot
    // be opened comes first as Msg 4060, and that is the one a user can act on.
    const loginErrors: { number: number; message: string }[] = [];
    // What the socket saw, so a failure can say whether something answered and whether it was SQL Server.
    const wire = noWireFacts();
    const base = toMssqlConfig(target, opts.database, opts.appName ?? 'Spinlock Lab', 1, opts.keep);
    // The pool replaces a lost connection silently on the next request; counting the connections that failed at the
    // socket (not those the pool closed itself when idle) lets a caller, the monitor, notice that it happened.
    const config: sql.config = {
      ...base,
      options: { ...base.options, connector: watchingConnector(wire, target.encrypt === 'strict') } as sql.config['options'],
      beforeConnect: (conn) => {
        let counted = false;
        (conn as unknown as NodeJS.EventEmitter).on('errorMessage', (t: { number?: number; message?: string }) => {
          if (typeof t?.number === 'number') loginErrors.push({ number: t.number, message: String(t.message ?? '') });
        });
        (conn as unknown as NodeJS.EventEmitter).on('error', (e: { code?: string }) => {
          if (!counted && e?.code === 'ESOCKET') {
            counted = true;
            lost.count++;
          }
        });
      },
    };
    const pool = new sql.ConnectionPool(config);
    pool.on('error', () => undefined); // surfaced through the next request instead
    try {
      await pool.connect();
    } catch (err) {
      // Whatever stops the first connection is a connection failure, whatever number the server gave it.
      const wrapped = wrapError(err);
      if (!(wrapped instanceof DbError))
        throw new DbError(wrapped.message, undefined, undefined, undefined, undefined, [], undefined, 'connection');
      const e = loginCause(wrapped, loginErrors);
      const explained = explainConnectFailure(e.message, e.number, target, wire);
      const failed = new DbError(explained ?? e.message, e.number, e.code, e.state, e.severity, e.all, undefined, 'connection');
      failed.connectFailure = { message: e.message, number: e.number, wire };
      throw failed;
    }
    return new DbSession(pool, opts.database ?? target.database, lost);
  }

  /** How many of this session's connections were lost at the socket (the pool opens a new one on the next request). */
  get connectionsLost(): number {
    return this.lost.count;
  }

  get connected(): boolean {
    return !this.closed && this.pool.connected;
  }

  /**
   * Runs a file from sql/: each batch in turn, as a plain batch when the file takes no parameters, else as one
   * sp_executesql call with the declared parameters bound by name from `params`. Returns every result set.
   */
  async runFile(idOrFile: string | SqlFile, params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<ResultSets> {
    const file = typeof idOrFile === 'string' ? loadSqlFile(idOrFile) : idOrFile;
    const declared = parseParameterDeclaration(file.parameters);
    const sets: ResultSets = [];
    for (const [index, batch] of file.batches.entries()) {
      const request = this.pool.request();
      for (const [name, type] of declared) {
        if (!(name in params)) throw new Error(`sql/${file.id}.sql needs parameter @${name}`);
        request.input(name, driverType(type), params[name] ?? null);
      }
      const result = await abortable(signal, request, () =>
        (declared.length ? request.query(batch) : request.batch(batch)).catch((err) => {
          throw withFileLine(wrapError(err), file, index);
        }),
      );
      sets.push(...((result.recordsets as unknown as Row[][]) ?? []));
    }
    return sets;
  }

  /**
   * Prepares a parameterised single-batch file on this session's connection (sp_prepare): its text crosses the wire
   * once; each run is then a short sp_execute. The handle lives as long as the connection (Msg 8179 after a reconnect).
   */
  async prepare(id: string): Promise<PreparedFile> {
    const file = loadSqlFile(id);
    const request = this.pool.request();
    request.output('handle', sql.Int);
    request.input('params', sql.NVarChar(sql.MAX), file.parameters || null);
    request.input('stmt', sql.NVarChar(sql.MAX), file.batches[0]);
    request.input('options', sql.Int, 1);
    const result = await request.execute('sp_prepare').catch((err) => {
      throw withFileLine(wrapError(err), file, 0);
    });
    return { file, handle: num(result.output.handle) };
  }

  /** Runs a prepared file (sp_execute) with its declared parameters bound by name from `params`. */
  async executePrepared(p: PreparedFile, params: Record<string, unknown> = {}): Promise<ResultSets> {
    const request = this.pool.request();
    request.input('handle', sql.Int, p.handle);
    for (const [name, type] of parseParameterDeclaration(p.file.parameters)) {
      if (!(name in params)) throw new Error(`sql/${p.file.id}.sql needs parameter @${name}`);
      request.input(name, driverType(type), params[name] ?? null);
    }
    const result = await request.execute('sp_execute').catch((err) => {
      throw withFileLine(wrapError(err), p.file, 0);
    });
    return (result.recordsets as unknown as Row[][]) ?? [];
  }

  /** This session's connection for a phase of calls (see RpcChannel); release it before the next request. */
  async rpcChannel(signal?: AbortSignal): Promise<RpcChannel> {
    const pool = this.pool as unknown as { acquire(requester: unknown): Promise<TdsConnection>; release(conn: TdsConnection): void };
    let conn: TdsConnection;
    try {
      conn = await pool.acquire(this.pool);
    } catch (err) {
      throw wrapError(err);
    }
    return new RpcChannel(conn, () => pool.release(conn), signal);
  }

  /**
   * This session's connection taken over by the lean client path (lean/leanChannel.ts), or why it cannot be (an
   * encrypted session, for one). The connection is the lean channel's from then on; when it closes, the pool opens a
   * new one for this session's next request (its server session id then differs).
   */
  async leanChannel(): Promise<{ channel: LeanChannel } | { refused: string }> {
    const pool = this.pool as unknown as { acquire(requester: unknown): Promise<TdsConnection>; release(conn: TdsConnection): void };
    let conn: TdsConnection;
    try {
      conn = await pool.acquire(this.pool);
    } catch (err) {
      throw wrapError(err);
    }
    const refused = takeoverRefusal(conn);
    if (refused) {
      pool.release(conn);
      return { refused };
    }
    const channel = LeanChannel.takeOver(
      conn,
      () => this.lost.count++,
      () => {
        // The socket is gone: tedious closes its side, and the pool, finding it closed, drops it on the next acquire.
        conn.close();
        pool.release(conn);
      },
    );
    return { channel };
  }

  /** Calls a stored procedure by name (an RPC, no statement text to parse). */
  async callProc(name: string, args: ProcArg[], signal?: AbortSignal): Promise<ResultSets> {
    const request = this.pool.request();
    for (const a of args) request.input(a.name, driverType(a.type), a.value ?? null);
    const result = await abortable(signal, request, () =>
      request.execute(name).catch((err) => {
        throw wrapError(err);
      }),
    );
    return (result.recordsets as unknown as Row[][]) ?? [];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.close().catch(() => undefined);
  }
}

/** The login's own cause when the server sent one before its 18456 (4060: the database could not be opened). */
function loginCause(e: DbError, sent: { number: number; message: string }[]): DbError {
  const cause = sent.find((m) => m.number === 4060);
  if (!cause) return e;
  return new DbError(cause.message, cause.number, e.code, e.state, e.severity, sent, undefined, 'connection');
}
