// HASHBYTES and SUBSTRING, as SQL Server computes them: a monitor may key names by the first bytes of their SHA-256,
// so the simulator hashes what arrives the way the server would. Docs: HASHBYTES (varchar hashed as its bytes,
// nvarchar as UTF-16LE; returns varbinary(8000); MD2/MD4/MD5/SHA/SHA1 deprecated since 2016 but still answered),
// SUBSTRING (1-based, on character or binary data). The binary-to-integer CAST is exec/values.ts's.
import { createHash } from 'node:crypto';
import type { SqlType, Value } from '../tds/contract';
import { err, SqlError } from './errors';
import { T } from './types';

interface Typed {
  v: Value;
  type: SqlType;
}

const ALGORITHMS: Record<string, string> = { MD5: 'md5', SHA: 'sha1', SHA1: 'sha1', SHA2_256: 'sha256', SHA2_512: 'sha512' };

export function hashBytes(algorithm: Typed, input: Typed): Typed {
  const out: Typed = { v: null, type: T.varbinary(8000) };
  const alg = typeof algorithm.v === 'string' ? ALGORITHMS[algorithm.v.toUpperCase()] : undefined;
  // Anything but the documented algorithms (and MD2/MD4, absent from Node's OpenSSL) is refused, never guessed at.
  if (!alg) throw new SqlError([err(50000, `the simulator does not compute HASHBYTES('${String(algorithm.v)}')`)]);
  if (input.v === null) return out;
  let bytes: Buffer;
  if (Buffer.isBuffer(input.v)) bytes = input.v;
  else if (input.type.type === 'varchar' || input.type.type === 'char') bytes = Buffer.from(String(input.v), 'latin1');
  else bytes = Buffer.from(String(input.v), 'utf16le');
  return { v: createHash(alg).update(bytes).digest(), type: out.type };
}

/** SUBSTRING(expression, start, length): characters of a string, bytes of a binary; start may be 0 or negative. */
export function substring(x: Typed, start: Typed, length: Typed): Typed {
  if (length.v !== null && Number(length.v) < 0)
    throw new SqlError([err(537, 'Invalid length parameter passed to the substring function.', 16, 1)]);
  if (x.v === null || start.v === null || length.v === null) return { v: null, type: x.type };
  const from = Number(start.v),
    n = Number(length.v);
  const lo = Math.max(from, 1) - 1,
    hi = Math.max(from + n - 1, 0);
  if (Buffer.isBuffer(x.v)) return { v: Buffer.from(x.v.subarray(lo, Math.max(lo, hi))), type: x.type };
  return { v: String(x.v).slice(lo, Math.max(lo, hi)), type: x.type };
}
