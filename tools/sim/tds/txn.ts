// Transaction manager requests (MS-TDS 2.2.6.9), which tedious uses for beginTransaction/commit/rollback. The model
// sees them as the equivalent T-SQL; the wire layer adds the ENVCHANGE that carries the transaction descriptor.

import { BufReader } from './bufreader';
import { BufWriter } from './bufwriter';
import { UnsupportedError } from './protocol';
import { skipAllHeaders } from './requests';
import { writeEnvChangeBytes } from './tokens';

const TM_BEGIN_XACT = 5;
const TM_COMMIT_XACT = 7;
const TM_ROLLBACK_XACT = 8;
const TM_SAVE_XACT = 9;
const ENV_BEGIN_TXN = 8;
const ENV_COMMIT_TXN = 9;
const ENV_ROLLBACK_TXN = 10;

export interface TxnRequest {
  op: 'begin' | 'commit' | 'rollback' | 'save';
  name: string;
  /** The T-SQL handed to the model. */
  sql: string;
}

export function parseTransactionRequest(p: Buffer): TxnRequest {
  const r = new BufReader(p, skipAllHeaders(p));
  const type = r.u16();
  let name = '';
  const suffix = () => (name ? ` ${name}` : '');
  switch (type) {
    case TM_BEGIN_XACT:
      r.u8(); // isolation level (0 = no change)
      name = r.ucs2(r.u8());
      return { op: 'begin', name, sql: `BEGIN TRANSACTION${suffix()}` };
    case TM_COMMIT_XACT:
      name = r.ucs2(r.u8());
      return { op: 'commit', name, sql: `COMMIT TRANSACTION${suffix()}` };
    case TM_ROLLBACK_XACT:
      name = r.ucs2(r.u8());
      return { op: 'rollback', name, sql: `ROLLBACK TRANSACTION${suffix()}` };
    case TM_SAVE_XACT:
      name = r.ucs2(r.u8());
      return { op: 'save', name, sql: `SAVE TRANSACTION${suffix()}` };
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
