// Transaction manager requests (MS-TDS 2.2.6.9), which tedious uses for beginTransaction/commit/rollback. The model
// sees them as the equivalent T-SQL; the wire layer adds the ENVCHANGE that carries the transaction descriptor.

import { BufReader } from './bufreader';
import { BufWriter } from './bufwriter';
import type { TransactionRequest } from './contract';
import { ProtocolError, UnsupportedError } from './protocol';
import { skipAllHeaders } from './requests';
import { writeEnvChangeBytes } from './tokens';

// Transaction names are sized in bytes (tedious writes name.length * 2; FreeTDS an empty name).
const TM_BEGIN_XACT = 5;
const TM_COMMIT_XACT = 7;
const TM_ROLLBACK_XACT = 8;
const TM_SAVE_XACT = 9;
const ENV_BEGIN_TXN = 8;
const ENV_COMMIT_TXN = 9;
const ENV_ROLLBACK_TXN = 10;

export interface TxnRequest extends TransactionRequest {
  /** The T-SQL handed to a model without a transaction() method. */
  sql: string;
}

/** Isolation level bytes of TM_BEGIN_XACT (MS-TDS 2.2.6.9); 0 keeps the current one. */
const ISOLATION = ['', 'READ UNCOMMITTED', 'READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE', 'SNAPSHOT'];

function isolation(b: number): string {
  if (b >= ISOLATION.length) throw new ProtocolError(`bad isolation level ${b} in a transaction manager request`);
  return ISOLATION[b];
}

export function parseTransactionRequest(p: Buffer): TxnRequest {
  const r = new BufReader(p, skipAllHeaders(p));
  const type = r.u16();
  const suffix = (name: string) => (name ? ` ${name}` : '');
  switch (type) {
    case TM_BEGIN_XACT: {
      const iso = isolation(r.u8());
      const name = r.ucs2(r.u8());
      return { op: 'begin', name, isolation: iso, sql: `BEGIN TRANSACTION${suffix(name)}` };
    }
    case TM_COMMIT_XACT:
    case TM_ROLLBACK_XACT: {
      const op = type === TM_COMMIT_XACT ? 'commit' : 'rollback';
      const name = r.ucs2(r.u8());
      // fBeginXact: start a new transaction once this one ends (FreeTDS does this for autocommit off).
      const beginAfter = r.remaining > 0 && r.u8() === 1;
      let newIsolation = '';
      if (beginAfter && r.remaining > 0) {
        newIsolation = isolation(r.u8());
        if (r.remaining > 0) r.ucs2(r.u8());
      }
      const sql = `${op === 'commit' ? 'COMMIT' : 'ROLLBACK'} TRANSACTION${suffix(name)}`;
      return { op, name, beginAfter, newIsolation, sql: beginAfter ? `${sql}; BEGIN TRANSACTION` : sql };
    }
    case TM_SAVE_XACT: {
      const name = r.ucs2(r.u8());
      return { op: 'save', name, sql: `SAVE TRANSACTION${suffix(name)}` };
    }
    default:
      throw new UnsupportedError(`transaction manager request type ${type} is not supported`);
  }
}

/** The ENVCHANGE SQL Server sends for a successful begin/commit/rollback (none for a savepoint). */
export function writeTxnEnvChange(w: BufWriter, req: TxnRequest, counter: number): void {
  const descriptor = Buffer.alloc(8);
  descriptor.writeUInt32LE(counter, 0);
  const empty = Buffer.alloc(0);
  if (req.op === 'begin') writeEnvChangeBytes(w, ENV_BEGIN_TXN, descriptor, empty);
  else if (req.op === 'commit') writeEnvChangeBytes(w, ENV_COMMIT_TXN, empty, descriptor);
  else if (req.op === 'rollback') writeEnvChangeBytes(w, ENV_ROLLBACK_TXN, empty, descriptor);
}
