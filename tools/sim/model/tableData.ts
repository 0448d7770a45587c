// What a user table created by DDL holds, for INSERT into it (exec/userInsert.ts): its columns as typed, its keys, and
// its rows. A table can hold millions of rows (the lab seeds 16M), so rows are counted; the model keeps every row only
// while there are few, and otherwise the rows it evaluated (a sample), which is what its key checks can see.
import type { SqlType, Value } from '../tds/contract';

export interface DataColumn {
  name: string;
  sqlType: SqlType;
  nullable: boolean;
  identity?: { seed: bigint; increment: bigint };
  /** The DEFAULT expression as written ('(GETDATE())'), evaluated for each row that omits the column. */
  default?: string;
}

/** A PRIMARY KEY or UNIQUE constraint (2627 on a duplicate; a unique index is held as one too). */
export interface DataKey {
  name: string;
  kind: 'PRIMARY KEY' | 'UNIQUE KEY';
  cols: number[];
  /** A HASH index's BUCKET_COUNT as created (sys.hash_indexes). */
  bucketCount?: number;
}

export interface TableData {
  columns: DataColumn[];
  keys: DataKey[];
  /** Rows the table holds. */
  count: number;
  /** Every row while `complete`; after a counted insert, the rows the model evaluated of it. */
  known: Value[][];
  complete: boolean;
  /** The IDENTITY column's next value. */
  nextIdentity?: bigint;
}

/** The most rows an INSERT evaluates one by one (and the table keeps): a larger one is counted (exec/lazy.ts). */
export const MATERIALISE_ROWS = 10_000;
