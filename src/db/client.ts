// The one module that touches the SQL driver (mssql over tedious). Everything else speaks in SqlFile ids,
// procedure names and plain values, so the engine can be read and tested without the driver's types.
import * as sql from 'mssql';
import { loadSqlFile, type SqlFile } from '../engine/sqlFiles';

/** Where and how to connect. Secrets stay in this object: never log it (see describeTarget). */
export interface DbTarget {
  server: string;
  port?: number;
  instanceName?: string;
  database?: string;
  user?: string;
  password?: string;
  authentication: 'sql' | 'ntlm' | 'azure-active-directory-access-token';
  domain?: string;
  accessToken?: string;
  encrypt: boolean | 'strict';
  trustServerCertificate: boolean;
  connectTimeoutMs: number;
  requestTimeoutMs?: number;
  appName?: string;
}

export type Row = Record<string, unknown>;
export type ResultSets = Row[][];

/** A SQL Server error as the driver reports it, with the fields a message needs. */
export class DbError extends Error {
  constructor(
    message: string,
    readonly number: number | undefined,
    readonly code: string | undefined,
    readonly state: number | undefined,
    readonly severity: number | undefined,
    /** Every error the server sent for the request (e.g. Msg 300 then Msg 297). */
    readonly all: { number?: number; message: string }[],
  ) {
    super(message);
    this.name = 'DbError';
  }
}

export function describeTarget(t: DbTarget): string {
  const where = t.instanceName ? `${t.server}\\${t.instanceName}` : `${t.server}${t.port ? ',' + t.port : ''}`;
  return `${where}${t.user ? ` as ${t.user}` : ''}`;
}

/** host,port or host\instance: the address a restore journal is keyed by, the same for a run and for `restore`. */
export function targetAddress(t: DbTarget): string {
  return t.instanceName ? `${t.server}\\${t.instanceName}` : `${t.server},${t.port ?? 1433}`;
}

function toMssqlConfig(t: DbTarget, database: string | undefined, appName: string, poolMax: number): sql.config {
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
    pool: { min: 0, max: poolMax, idleTimeoutMillis: 30_000 },
    options: {
      encrypt: t.encrypt as boolean, // tedious also takes 'strict' (TDS 8); the typings lag
      trustServerCertificate: t.trustServerCertificate,
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
    case 'sysname': return sql.NVarChar(128);
    case 'nvarchar': return sql.NVarChar(len ?? 4000);
    case 'varchar': return sql.VarChar(len ?? 8000);
    case 'int': return sql.Int;
    case 'bigint': return sql.BigInt;
    case 'smallint': return sql.SmallInt;
    case 'bit': return sql.Bit;
    case 'float': return sql.Float;
    default: throw new Error(`unsupported parameter type '${decl}'`);
  }
}

/** '@db sysname, @mode nvarchar(16)' → [['db','sysname'], ['mode','nvarchar(16)']]. */
export function parseParameterDeclaration(decl: string): [string, string][] {
  if (!decl.trim()) return [];
  const out: [string, string][] = [];
  for (const part of decl.split(/,(?![^()]*\))/)) {
    const m = /^\s*@(\w+)\s+(.+?)\s*$/.exec(part);
    if (!m) throw new Error(`bad parameter declaration '${part.trim()}'`);
    out.push([m[1], m[2]]);
  }
  return out;
}

function wrapError(err: unknown): Error {
  const e = err as { message?: string; number?: number; code?: string; state?: number; class?: number;
    originalError?: { info?: { number?: number; state?: number; class?: number } }; precedingErrors?: { message: string; number?: number }[] };
  if (!e || typeof e !== 'object') return new Error(String(err));
  const info = e.originalError?.info;
  const number = e.number ?? info?.number;
  const all = [...(e.precedingErrors ?? []).map((p) => ({ number: p.number, message: p.message })), { number, message: e.message ?? '' }];
  return new DbError(e.message ?? String(err), number, e.code, e.state ?? info?.state, e.class ?? info?.class, all);
}

function abortable<T>(signal: AbortSignal | undefined, request: sql.Request, run: () => Promise<T>): Promise<T> {
  if (!signal) return run();
  if (signal.aborted) return Promise.reject(new DbError('cancelled', undefined, 'ECANCEL', undefined, undefined, []));
  const onAbort = () => request.cancel(); // sends ATTENTION: the server stops the batch
  signal.addEventListener('abort', onAbort, { once: true });
  return run().finally(() => signal.removeEventListener('abort', onAbort));
}

export interface ProcArg {
  name: string;
  type: string;
  value: unknown;
}

/** One connection (a pool of one), for a workload session, the monitor, or admin work. */
export class DbSession {
  private closed = false;
  private constructor(private readonly pool: sql.ConnectionPool, readonly database: string | undefined) {}

  static async open(target: DbTarget, opts: { database?: string; appName?: string } = {}): Promise<DbSession> {
    const pool = new sql.ConnectionPool(toMssqlConfig(target, opts.database, opts.appName ?? 'Spinlock Lab', 1));
    pool.on('error', () => undefined); // surfaced through the next request instead
    try {
      await pool.connect();
    } catch (err) {
      throw wrapError(err);
    }
    return new DbSession(pool, opts.database ?? target.database);
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
    for (const batch of file.batches) {
      const request = this.pool.request();
      for (const [name, type] of declared) {
        if (!(name in params)) throw new Error(`sql/${file.id}.sql needs parameter @${name}`);
        request.input(name, driverType(type), params[name] ?? null);
      }
      const result = await abortable(signal, request, () =>
        (declared.length ? request.query(batch) : request.batch(batch)).catch((err) => { throw wrapError(err); }),
      );
      sets.push(...((result.recordsets as unknown as Row[][]) ?? []));
    }
    return sets;
  }

  /** Calls a stored procedure by name (an RPC, no statement text to parse). */
  async callProc(name: string, args: ProcArg[], signal?: AbortSignal): Promise<ResultSets> {
    const request = this.pool.request();
    for (const a of args) request.input(a.name, driverType(a.type), a.value ?? null);
    const result = await abortable(signal, request, () => request.execute(name).catch((err) => { throw wrapError(err); }));
    return (result.recordsets as unknown as Row[][]) ?? [];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.close().catch(() => undefined);
  }
}

/** Numbers from the driver: bigint columns arrive as strings (tedious keeps their precision); null stays null. */
export function num(v: unknown): number {
  if (v === null || v === undefined) return 0;
  return typeof v === 'number' ? v : Number(v);
}
export function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : num(v);
}
export function str(v: unknown): string {
  return v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v);
}
