// The executor's syntax tree: the reading statements the product sends (SELECT with joins, grouping, set operators and
// CTEs; DECLARE / SET @v; SET options; INSERT, DELETE and TRUNCATE on #temp tables and table variables) and control of
// flow (IF, WHILE, TRY...CATCH, EXEC, transactions), as parse.ts and parseControl.ts build them.
import type { Value } from '../../tds/contract';
import type { DdlStmt } from '../ddl/ast';

export interface TypeName {
  base: string; // lower case: int, nvarchar, decimal, sysname...
  length?: number | 'max';
  precision?: number;
  scale?: number;
}

export type Expr =
  | { t: 'lit'; v: Value; text?: string; unicode?: boolean }
  | { t: 'col'; qual?: string; name: string }
  | { t: 'var'; name: string }
  | { t: 'fn'; name: string; args: Expr[]; star?: boolean; distinct?: boolean; over?: OrderItem[] }
  | { t: 'cast'; e: Expr; type: TypeName; style?: Expr; try?: boolean }
  | { t: 'neg'; e: Expr }
  | { t: 'bin'; op: string; a: Expr; b: Expr }
  | { t: 'and' | 'or'; a: Expr; b: Expr }
  | { t: 'not'; e: Expr }
  | { t: 'isnull'; e: Expr; neg: boolean }
  | { t: 'like'; e: Expr; pat: Expr; neg: boolean }
  | { t: 'in'; e: Expr; list: Expr[]; neg: boolean }
  | { t: 'between'; e: Expr; lo: Expr; hi: Expr; neg: boolean }
  | { t: 'exists'; q: Query }
  | { t: 'case'; operand?: Expr; whens: { when: Expr; then: Expr }[]; else?: Expr }
  | { t: 'subq'; q: Query }
  /** NEXT VALUE FOR sequence (docs: NEXT VALUE FOR): one draw per row that reads it. */
  | { t: 'nextval'; seq: string };

export interface SelectItem {
  /** '*' or 'alias.*' */
  star?: { qual?: string };
  expr?: Expr;
  alias?: string;
  /** SELECT @v = expr: the variable the value goes to (the statement then returns no rows). */
  assign?: string;
}

export type TableRef =
  | { kind: 'named'; name: string; args?: Expr[]; alias?: string }
  | { kind: 'derived'; q: Query; alias: string; colNames?: string[] }
  | { kind: 'values'; rows: Expr[][]; alias: string; colNames: string[] }
  | { kind: 'join'; type: 'inner' | 'left' | 'cross' | 'cross apply' | 'outer apply'; left: TableRef; right: TableRef; on?: Expr };

export interface SelectCore {
  kind: 'select';
  distinct: boolean;
  top?: Expr;
  items: SelectItem[];
  into?: string;
  from: TableRef[];
  where?: Expr;
  groupBy: Expr[];
  having?: Expr;
}

export type QueryBody = SelectCore | { kind: 'setop'; op: 'union' | 'union all' | 'except' | 'intersect'; a: QueryBody; b: QueryBody };

export interface OrderItem {
  expr: Expr;
  desc: boolean;
}

export interface Query {
  ctes: { name: string; colNames?: string[]; q: Query }[];
  body: QueryBody;
  orderBy: OrderItem[];
}

/** A column of CREATE TABLE #t (...). */
export interface ColumnDef {
  name: string;
  type: TypeName;
  /** NULL / NOT NULL as written; undefined: the session's default (nullable, as ANSI_NULL_DFLT_ON gives it). */
  nullable?: boolean;
}

/** OPTION ( ... ) query hints, upper case ('KEEPFIXED PLAN'). */
export type Hints = string[];

export type Stmt =
  | { kind: 'query'; q: Query; hints?: Hints }
  | { kind: 'declare'; vars: { name: string; type: TypeName; init?: Expr }[] }
  | { kind: 'setvar'; name: string; op: string; e: Expr }
  | { kind: 'setopt'; names: string[]; on: boolean }
  | { kind: 'setvalue'; name: string; value: string }
  | {
      kind: 'insert';
      table: string;
      /** WITH (TABLOCK) on the target: the only table hint read (it changes locking and logging, not the rows). */
      tableHints?: string[];
      cols?: string[];
      values?: Expr[][];
      q?: Query;
      exec?: ExecStmt;
      hints?: Hints;
    }
  | { kind: 'delete'; table: string; alias?: string; where?: Expr; hints?: Hints }
  | { kind: 'truncate'; table: string }
  | { kind: 'create'; table: string; cols: ColumnDef[] }
  | { kind: 'drop'; table: string; ifExists: boolean }
  | { kind: 'ddl'; d: DdlStmt }
  /** KILL session_id (a number: KILL takes no variable); the UOW and WITH STATUSONLY forms are refused. */
  | { kind: 'kill'; spid: number }
  /** DBCC TRACESTATUS (flag, ...) [WITH NO_INFOMSGS]: the only DBCC command modelled. */
  | { kind: 'tracestatus'; flags: number[]; noInfoMsgs: boolean }
  | ControlStmt;

/** An argument of EXEC proc: [@name =] value | DEFAULT [OUTPUT]. */
export interface ExecArg {
  name?: string;
  e?: Expr;
  output: boolean;
}

/** EXEC [@status =] proc args, or EXEC (string expression). */
export type ExecStmt = { kind: 'exec'; status?: string; proc: string; args: ExecArg[] } | { kind: 'execsql'; e: Expr };

/** Control of flow, procedures and the statements SQL Server runs itself (control.ts, procs.ts). */
export type ControlStmt =
  | ExecStmt
  | { kind: 'block'; body: Stmt[] }
  | { kind: 'if'; cond: Expr; then: Stmt; else?: Stmt }
  | { kind: 'while'; cond: Expr; body: Stmt }
  | { kind: 'break' | 'continue' }
  | { kind: 'try'; body: Stmt[]; catch: Stmt[] }
  | { kind: 'throw'; args?: [Expr, Expr, Expr] }
  | { kind: 'raiserror'; args: Expr[]; opts: string[] }
  | { kind: 'print'; e: Expr }
  | { kind: 'return'; e?: Expr }
  | { kind: 'waitfor'; delay: Expr }
  | { kind: 'tran'; op: 'begin' | 'commit' | 'rollback' | 'save'; name: string }
  | { kind: 'declaretable'; name: string; cols: ColumnDef[] };
