// The contract between the TDS wire layer (tools/sim/tds) and the simulated instance (tools/sim/model).
// The wire layer knows packets, tokens and types; the model knows SQL Server. Neither reaches into the other.

/** A SQL Server data type as it appears in column metadata and RPC parameters. */
export type SqlType =
  | { type: 'bit' }
  | { type: 'tinyint' }
  | { type: 'smallint' }
  | { type: 'int' }
  | { type: 'bigint' }
  | { type: 'real' }
  | { type: 'float' }
  | { type: 'decimal'; precision: number; scale: number }
  | { type: 'nvarchar' | 'nchar' | 'varchar' | 'char'; length: number | 'max' }
  | { type: 'datetime' }
  | { type: 'datetime2'; scale?: number }
  | { type: 'date' }
  | { type: 'time'; scale?: number }
  /** Values: a Date (offset +00:00) or text 'YYYY-MM-DD hh:mm:ss[.fffffff] +hh:mm' that keeps its offset. */
  | { type: 'datetimeoffset'; scale?: number }
  /** Values: number or decimal text, four decimal places. */
  | { type: 'money' | 'smallmoney' }
  | { type: 'varbinary' | 'binary'; length: number | 'max' }
  | { type: 'uniqueidentifier' }
  /** sql_variant (TDS 0x62): each value carries its own base type, inferred from the JS value. */
  | { type: 'sql_variant' };

export interface Column {
  name: string;
  sqlType: SqlType;
  /** Defaults to true. */
  nullable?: boolean;
}

/**
 * A cell or parameter value. Integers may be number or bigint (bigint columns: either is accepted on output,
 * bigint on input). decimal: number or string. uniqueidentifier: the canonical string form.
 */
export type Value = null | boolean | number | bigint | string | Date | Buffer;

export interface ResultSet {
  kind: 'resultSet';
  columns: Column[];
  rows: Value[][];
}

/** An ERROR (class >= 11) or INFO (class <= 10) token, as SQL Server sends them. */
export interface ServerMessage {
  kind: 'error' | 'info';
  number: number;
  state: number;
  class: number;
  message: string;
  procName?: string;
  line?: number;
}

/** A statement that returned no rows but affected some (INSERT/UPDATE/...): a DONE(IN PROC) with a count. */
export interface RowCount {
  kind: 'rowCount';
  count: number;
  /** The statement, for the DONE's CurCmd (informational; INSERT when not said). */
  cmd?: 'insert' | 'delete' | 'select';
}

/** The current database changed (USE): an ENVCHANGE type 1 token. */
export interface DatabaseChange {
  kind: 'database';
  newName: string;
  oldName: string;
}

/** RPC only: the procedure's return status (RETURNSTATUS token). */
export interface ReturnStatus {
  kind: 'returnStatus';
  value: number;
}

/** RPC only: an OUTPUT parameter's value (RETURNVALUE token). */
export interface OutputValue {
  kind: 'outputValue';
  /** With the leading @. */
  name: string;
  sqlType: SqlType;
  value: Value;
  /** The parameter's position in the call (for parameters sent without a name). */
  ordinal?: number;
}

/** A transaction began, committed or rolled back: ENVCHANGE type 8/9/10 with its 8-byte descriptor. */
export interface TransactionChange {
  kind: 'transaction';
  op: 'begin' | 'commit' | 'rollback';
  descriptor: Buffer;
}

export type ResponseItem = ResultSet | ServerMessage | RowCount | DatabaseChange | ReturnStatus | OutputValue | TransactionChange;

/** A transaction-manager request (MS-TDS 2.2.6.9). */
export interface TransactionRequest {
  op: 'begin' | 'commit' | 'rollback' | 'save';
  name: string;
  /** BEGIN: the isolation level to set first ('' for no change). */
  isolation?: string;
  /** COMMIT/ROLLBACK with fBeginXact: start a new transaction afterwards, at newIsolation. */
  beginAfter?: boolean;
  newIsolation?: string;
}

export interface LoginRequest {
  userName: string;
  password: string;
  database: string;
  appName: string;
  hostName: string;
  serverName: string;
  language: string;
  clientPid: number;
  packetSize: number;
  tdsVersion: number;
}

/** A refused login: its messages in order (a database that cannot be opened is Msg 4060 and then 18456, as SQL Server sends them). */
export type LoginResult = { ok: true; database: string; spid?: number } | { ok: false; error: ServerMessage | readonly ServerMessage[] };

/** Per-connection state the model may keep; the wire layer owns the object and passes it back on each call. */
export interface SessionContext {
  readonly spid: number;
  readonly login: string;
  readonly appName: string;
  readonly hostName: string;
  /** The client's process id from LOGIN7 (sys.dm_exec_sessions.host_process_id). */
  readonly clientPid?: number;
  readonly encrypted: boolean;
  /** Current database; the model updates it on USE (and returns a DatabaseChange item). */
  database: string;
  /** SET NOCOUNT ON: DONE tokens go without the row count. */
  noCount?: boolean;
  /** Free-form per-session state for the model. */
  readonly state: Map<string, unknown>;
}

export interface RpcParam {
  /** With the leading @; empty for a positional parameter. */
  name: string;
  sqlType: SqlType;
  value: Value;
  output: boolean;
}

/**
 * What the wire layer calls. Each call may take as long as it likes (a workload call holds the session busy for
 * its modelled time); `signal` aborts when the client sends ATTENTION or the connection goes away, and the handler
 * should then settle promptly (its items are discarded and the wire layer answers DONE with the attention bit).
 */
export interface SimHandler {
  login(req: LoginRequest, info: { encrypted: boolean; remoteAddress: string }): LoginResult | Promise<LoginResult>;
  /** Called once per session after a successful login. */
  sessionStarted?(session: SessionContext): void;
  sqlBatch(session: SessionContext, text: string, signal: AbortSignal): Promise<ResponseItem[]>;
  /**
   * procName is as sent (e.g. 'dbo.spinlab_insert_batch'), or the well-known name for a procedure sent by id
   * ('sp_executesql', 'sp_prepare', 'sp_execute', 'sp_prepexec', 'sp_unprepare', ...).
   */
  rpc(session: SessionContext, procName: string, params: RpcParam[], signal: AbortSignal): Promise<ResponseItem[]>;
  /**
   * Transaction-manager requests. Without it, the wire layer hands the model the equivalent T-SQL and adds the
   * ENVCHANGE itself.
   */
  transaction?(session: SessionContext, req: TransactionRequest, signal: AbortSignal): Promise<ResponseItem[]>;
  /**
   * The client set the RESETCONNECTION bit (a pooled connection was reused): drop per-session state; with
   * keepTransaction (RESETCONNECTIONSKIPTRAN) the open transaction stays.
   */
  resetConnection?(session: SessionContext, keepTransaction?: boolean): void;
  sessionEnded?(session: SessionContext): void;
}
