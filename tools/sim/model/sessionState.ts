// Per-connection session state SQL Server keeps and drivers rely on: the transaction count and its descriptor, the
// SET options, prepared statement handles and #temp tables. Kept in the wire layer's SessionContext.state under one
// key; the session layer (session/) keeps the transaction and the options, the model reads them and keeps the rest.
import type { Column, SessionContext, Value } from '../tds/contract';

export interface Prepared {
  /** The parameter definitions ('@a int, @b nvarchar(10)'), as sp_prepare got them. */
  params: string;
  stmt: string;
}

export interface SessionState {
  tranCount: number;
  /** The current transaction's descriptor (8 bytes, MS-TDS 2.2.5.8 ALL_HEADERS / ENVCHANGE type 8). */
  descriptor: Buffer | null;
  savepoints: string[];
  /** The outermost BEGIN TRAN's name ('' when it had none): ROLLBACK may name only it or a savepoint. */
  tranName?: string;
  implicitTransactions: boolean;
  isolation: string;
  /** ON/OFF options by upper-case name (ANSI_NULLS, ARITHABORT, ...), and the valued ones (TEXTSIZE, LOCK_TIMEOUT). */
  options: Map<string, string>;
  prepared: Map<number, Prepared>;
  nextHandle: number;
  /** Local #temp tables by lower-case name (model/tempstore.ts); a reset drops them, as sp_reset_connection does. */
  tempTables: Map<
    string,
    { name: string; columns: Column[]; rows: Value[][]; stats: { modifications: number; rowsAtStats?: number; version: number } }
  >;
}

const KEY = 'spinlab.session';
let descriptors = 0n;

export function sessionState(s: SessionContext): SessionState {
  let st = s.state.get(KEY) as SessionState | undefined;
  if (!st) {
    st = fresh();
    s.state.set(KEY, st);
  }
  return st;
}

function fresh(): SessionState {
  return {
    tranCount: 0,
    descriptor: null,
    savepoints: [],
    implicitTransactions: false,
    isolation: 'READ COMMITTED',
    options: new Map(),
    prepared: new Map(),
    nextHandle: 1,
    tempTables: new Map(),
  };
}

/** sp_reset_connection: options and handles go; with keepTransaction (RESETCONNECTIONSKIPTRAN) the transaction stays. */
export function resetSession(s: SessionContext, keepTransaction: boolean): SessionState {
  const old = sessionState(s);
  const st = fresh();
  if (keepTransaction) {
    st.tranCount = old.tranCount;
    st.descriptor = old.descriptor;
    st.savepoints = old.savepoints;
  }
  s.state.set(KEY, st);
  s.noCount = false;
  return st;
}

/** A new, server-unique transaction descriptor. */
export function newDescriptor(): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(++descriptors);
  return b;
}
