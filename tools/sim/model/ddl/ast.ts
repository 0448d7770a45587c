// The DDL the executor runs (ddl/parse.ts builds it, ddl/run.ts applies it to the simulator's catalog): databases,
// their filegroups and options, tables, sequences, procedures, the server's process affinity and event sessions.
// Column types and defaults are kept as written: the catalog shows them, nothing evaluates them. (No import of
// exec/ast.ts, which names this union: type imports count as circles too.)

export interface TableColumn {
  name: string;
  /** As written: 'char(111)'. */
  type: string;
  nullable?: boolean;
  identity?: { seed: bigint; increment: bigint };
  /** As written: '(GETDATE())'. */
  default?: string;
}

export interface IndexDef {
  name?: string;
  primaryKey: boolean;
  unique: boolean;
  hash: boolean;
  clustered: boolean;
  cols: string[];
  bucketCount?: number;
}

export type AlterDatabaseAction =
  | { a: 'add-filegroup'; filegroup: string; memoryOptimized: boolean }
  | { a: 'add-file'; file: string; filegroup: string }
  | { a: 'recovery'; model: 'SIMPLE' | 'FULL' | 'BULK_LOGGED' }
  | { a: 'delayed-durability'; mode: 'DISABLED' | 'ALLOWED' | 'FORCED' }
  | { a: 'user-access'; mode: 'SINGLE_USER' | 'RESTRICTED_USER' | 'MULTI_USER' };

export type DdlStmt =
  | { d: 'create-database'; name: string }
  | { d: 'drop-database'; names: string[]; ifExists: boolean }
  | { d: 'alter-database'; name: string; action: AlterDatabaseAction }
  | {
      d: 'create-table';
      name: string;
      cols: TableColumn[];
      indexes: IndexDef[];
      memoryOptimized: boolean;
      durability: 'SCHEMA_AND_DATA' | 'SCHEMA_ONLY';
    }
  | { d: 'drop-object'; type: 'U' | 'P' | 'SO'; names: string[]; ifExists: boolean }
  | { d: 'create-sequence'; name: string; type: string; start?: bigint; increment: bigint; cache: number | null }
  | { d: 'create-procedure'; name: string; text: string; first: boolean }
  | { d: 'affinity'; spec: string }
  /** CREATE / ALTER / DROP EVENT SESSION, as written: grammar/xe.ts parses it again at the server's version to run it. */
  | { d: 'event-session'; text: string };
