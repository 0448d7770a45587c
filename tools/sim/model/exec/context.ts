// The executor's shapes, types only: a relation, the batch's context and a row's environment. Kept apart from env.ts
// so the built-ins, which read the context, and the evaluator, which calls the built-ins, import no circle.
import type { Column, ResponseItem, Value } from '../../tds/contract';
import type { TempTable } from '../tempstore';
import type { QueryContext } from '../types';
import type { Query, Stmt } from './ast';
import type { Typed } from './values';

export interface Relation {
  cols: Column[];
  rows: Value[][];
}

export interface ExecContext extends QueryContext {
  /** sp_executesql parameters by lower-case name with the @. */
  params: Map<string, Value>;
  vars: Map<string, Typed>;
  ctes: Map<string, Relation>;
  rowCount: number;
  /** Whether this batch has moved the model to now (query.ts, at its first view read). */
  advanced?: boolean;
  /** Rows the statement running now read, wrote and deleted (its synthetic cost, temp.ts). */
  work: { read: number; written: number; deleted: number };
  /** Runs a subquery (query.ts), kept here to avoid an import cycle. */
  run(q: Query, env: Env | undefined, typing: boolean): Relation;
  /** Table variables (@t) by lower-case name: this scope's only. */
  tables: Map<string, TempTable>;
  signal: AbortSignal;
  /** 0 for the batch; +1 in each EXEC'd procedure or dynamic batch (a scope of its own). */
  depth: number;
  /** TRY blocks open around the statement running now, this scope's and its callers'. */
  tryDepth: number;
  /** The depth of the scope the innermost open TRY is in. */
  tryScope: number;
  /** The errors the open CATCH blocks handle, innermost last (ERROR_NUMBER() and the rest read it). */
  errors: ServerMessageInfo[];
  /** RETURN n of this scope. */
  returnStatus?: number;
  /** Runs one statement that is not control of flow (batch.ts): plan, run, charge. */
  simple(s: Stmt): Promise<ResponseItem[]>;
  /** Runs T-SQL text as a batch of its own scope with these variables (sp_executesql, EXEC (@sql)); returns them. */
  nested(text: string, vars: Map<string, Typed>, out: ResponseItem[]): Promise<Map<string, Typed>>;
}

/** An error a CATCH block handles. */
export interface ServerMessageInfo {
  number: number;
  message: string;
  severity: number;
  state: number;
  procedure?: string;
}

export interface Source {
  alias: string;
  /** The object's name, lower case ('sys.dm_os_schedulers'), for unaliased qualification. */
  table: string;
  cols: Column[];
}

export interface Env {
  ctx: ExecContext;
  sources: Source[];
  /** One values array per source (all NULL for the missing side of a LEFT JOIN). */
  row: Value[][];
  /** The group's rows when aggregates are evaluated. */
  group?: Value[][][];
  outer?: Env;
  /** ROW_NUMBER()'s value for this row (query.ts numbers the rows; undefined where no window function may stand). */
  rowNumber?: number;
  /** Types only: no view is read, aggregates see no rows. */
  typing: boolean;
}
