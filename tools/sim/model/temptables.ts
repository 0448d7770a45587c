// What a session does with its own #temp tables, executed as SQL Server executes it: CREATE TABLE #t (...), DROP TABLE
// [IF EXISTS] #t, DELETE FROM #t, INSERT INTO #t [(columns)] VALUES (...) or SELECT ..., SELECT COUNT(*) FROM #t, and
// SELECT ... EXCEPT SELECT ... (distinct rows of the first not in the second; NULLs compare equal, strings by the
// server's case-insensitive collation). The rows are whatever earlier statements put there: nothing here knows what a
// caller keeps in them. Errors as SQL Server gives them: 2714 (exists), 208 (no such table), 3701 (drop of none),
// 213 (column count), 205 (EXCEPT column count), 515 (NULL into NOT NULL), 8152 (string too long), and a value outside
// an integer column's type: 8115 (an expression, e.g. a bigint column into int), 220 (an integer literal into
// smallint/tinyint), 232 (a fractional number). A failed INSERT stores none of its rows.
import type { Column, ResultSet, SqlType, Value } from '../tds/contract';
import { err, SqlError, unsupported } from './errors';
import type { BatchCall } from './statements';
import { findTemp, requireTemp, tempTables } from './tempstore';
import { T } from './types';
import { select } from './handlers/util';
import { charge, COST, hasKeepFixed, pages, usePlan } from './planCost';

const fail = (number: number, message: string, state = 1): never => {
  throw new SqlError([err(number, message, 16, state)]);
};

/** The statement's code: comment lines gone, whitespace collapsed, the closing semicolon dropped. */
export function codeOf(text: string): string {
  return text
    .replace(/--[^\n]*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/;$/, '')
    .trim();
}

/** True when the statement touches a #table (and so is this module's to run). */
export function isTempStatement(text: string): boolean {
  return /(^|[\s(,])#\w+/.test(codeOf(text).replace(/N?'(?:[^']|'')*'/g, "''"));
}

function columnType(spec: string): SqlType {
  const m = /^(\w+)(?:\s*\(\s*(\d+|max)\s*\))?$/i.exec(spec.trim());
  if (!m) return fail(2715, `Column, parameter, or variable #1: Cannot find data type ${spec}.`, 6);
  const len = m[2] === undefined ? undefined : m[2].toLowerCase() === 'max' ? 'max' : Number(m[2]);
  switch (m[1].toLowerCase()) {
    case 'bigint':
      return T.bigint;
    case 'int':
      return T.int;
    case 'smallint':
      return T.smallint;
    case 'tinyint':
      return T.tinyint;
    case 'bit':
      return T.bit;
    case 'float':
      return T.float;
    case 'real':
      return T.real;
    case 'datetime2':
      return T.datetime2;
    case 'sysname':
      return T.sysname;
    case 'nvarchar':
      return T.nvarchar(len ?? 1);
    case 'varchar':
      return T.varchar(typeof len === 'number' ? len : 8000);
    default:
      return fail(2715, `Column, parameter, or variable #1: Cannot find data type ${m[1]}.`, 6);
  }
}

/** Splits at top-level commas. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0,
    start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out.filter(Boolean);
}

function createTable(c: BatchCall, name: string, body: string): void {
  if (name.startsWith('##')) throw new SqlError([unsupported(`CREATE TABLE ${name} (global temporary tables)`)]);
  if (findTemp(c.session, name)) fail(2714, `There is already an object named '${name}' in the database.`, 6);
  const columns: Column[] = splitTop(body).map((def) => {
    const m = /^(\w+)\s+(\w+(?:\s*\(\s*(?:\d+|max)\s*\))?)\s*((?:NOT\s+)?NULL)?\s*(PRIMARY\s+KEY)?$/i.exec(def);
    if (!m) throw new SqlError([unsupported(`the column definition '${def}'`)]);
    return { name: m[1], sqlType: columnType(m[2]), nullable: !/NOT/i.test(m[3] ?? '') && !m[4] };
  });
  tempTables(c.session).set(name.toLowerCase(), { name, columns, rows: [], stats: { modifications: 0, version: 0 } });
}

/** The range of each integer type (docs: int, bigint, smallint, and tinyint). */
const INT_RANGE: Record<string, [bigint, bigint]> = {
  bigint: [-(2n ** 63n), 2n ** 63n - 1n],
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  smallint: [-32768n, 32767n],
  tinyint: [0n, 255n],
};

/** Msg 8115 as SQL Server raises it: statement-terminating (the batch goes on unless XACT_ABORT is ON). */
export const ARITH_OVERFLOW = 8115;

/**
 * An integer value in a column of integer type `type`, or the overflow SQL Server raises: 8115 for an expression
 * (a column's value), 220 for an integer literal into smallint or tinyint, 232 for a fractional number out of range.
 */
function storeInteger(v: Value, type: string, literal: boolean): Value {
  const [lo, hi] = INT_RANGE[type];
  if (
    !(typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v))) ||
    Number.isNaN(v)
  ) {
    fail(245, `Conversion failed when converting the value '${String(v)}' to data type ${type}.`, 1);
  }
  const fractional = typeof v === 'number' && !Number.isInteger(v);
  const n =
    typeof v === 'bigint'
      ? v
      : typeof v === 'boolean'
        ? BigInt(Number(v))
        : typeof v === 'string'
          ? BigInt(v.trim())
          : BigInt(Math.trunc(v as number));
  if (n < lo || n > hi) {
    if (fractional) fail(232, `Arithmetic overflow error for type ${type}, value = ${(v as number).toFixed(6)}.`, 1);
    if (literal && (type === 'smallint' || type === 'tinyint'))
      fail(220, `Arithmetic overflow error for data type ${type}, value = ${n}.`, 1);
    fail(ARITH_OVERFLOW, `Arithmetic overflow error converting expression to data type ${type}.`, 2);
  }
  return type === 'bigint' ? n : Number(n);
}

/** A value stored in a column of the given type, converted as an implicit conversion would. */
function store(v: Value, col: Column, table: string, literal: boolean): Value {
  if (v === null) {
    if (col.nullable === false)
      fail(
        515,
        `Cannot insert the value NULL into column '${col.name}', table 'tempdb.dbo.${table}'; column does not allow nulls. INSERT fails.`,
        2,
      );
    return null;
  }
  const t = col.sqlType;
  switch (t.type) {
    case 'bigint':
    case 'int':
    case 'smallint':
    case 'tinyint':
      return storeInteger(v, t.type, literal);
    // Any non-zero number converts to 1: bit never overflows.
    case 'bit':
      return v === true || Number(v) !== 0;
    case 'float':
    case 'real':
      return Number(v);
    case 'nvarchar':
    case 'varchar': {
      const s = v instanceof Date ? v.toISOString() : String(v);
      const len = (t as { length?: number | 'max' }).length;
      if (typeof len === 'number' && s.trimEnd().length > len) fail(8152, 'String or binary data would be truncated.', 14);
      return s;
    }
    default:
      return v;
  }
}

function insertRows(c: BatchCall, name: string, list: string | undefined, rows: Value[][], literal: boolean): void {
  const t = requireTemp(c.session, name);
  const targets = list
    ? splitTop(list).map((n) => {
        const i = t.columns.findIndex((col) => col.name.toLowerCase() === n.replace(/[[\]]/g, '').toLowerCase());
        if (i < 0) fail(207, `Invalid column name '${n}'.`);
        return i;
      })
    : t.columns.map((_, i) => i);
  const width = rows[0]?.length ?? targets.length;
  if (width !== targets.length) fail(213, 'Column name or number of supplied values does not match table definition.');
  const add = rows.map((r) => {
    const out: Value[] = t.columns.map(() => null);
    targets.forEach((ti, k) => {
      out[ti] = r[k];
    });
    return out.map((v, i) => store(v, t.columns[i], t.name, literal));
  });
  t.rows.push(...add);
  t.stats.modifications += add.length;
  work.written += add.length;
}

/** Rows the statement running now read and wrote, for its synthetic cost. */
const work = { read: 0, written: 0, deleted: 0 };

function literalValue(s: string): Value {
  if (/^null$/i.test(s)) return null;
  // An integer literal past 2^53 keeps its digits (SQL Server types it numeric, which converts exactly).
  if (/^-?\d+$/.test(s) && !Number.isSafeInteger(Number(s))) return BigInt(s);
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  const m = /^N?'((?:[^']|'')*)'$/s.exec(s);
  if (m) return m[1].replace(/''/g, "'");
  throw new SqlError([unsupported(`the VALUES item '${s}'`)]);
}

/** Equality as SQL Server's set operators see it: NULL = NULL; strings case-insensitive, trailing blanks ignored. */
function rowKey(r: Value[]): string {
  return JSON.stringify(
    r.map((v) =>
      v === null
        ? null
        : typeof v === 'string'
          ? `s${v.trimEnd().toLowerCase()}`
          : typeof v === 'bigint' || typeof v === 'number'
            ? `n${String(v)}`
            : typeof v === 'boolean'
              ? `n${v ? 1 : 0}`
              : v instanceof Date
                ? `d${v.getTime()}`
                : Buffer.isBuffer(v)
                  ? `b${v.toString('hex')}`
                  : String(v),
    ),
  );
}

/** The position of a top-level EXCEPT keyword (outside strings and parentheses), or -1. */
function topLevelExcept(code: string): number {
  const masked = code.replace(/N?'(?:[^']|'')*'/g, (m) => '_'.repeat(m.length));
  let depth = 0;
  for (let i = 0; i < masked.length; i++) {
    if (masked[i] === '(') depth++;
    else if (masked[i] === ')') depth--;
    else if (depth === 0 && /^EXCEPT\b/i.test(masked.slice(i)) && (i === 0 || /\s/.test(masked[i - 1]))) return i;
  }
  return -1;
}

function except(c: BatchCall, left: string, right: string): ResultSet {
  const a = select(c, left),
    b = select(c, right);
  work.read += a.rows.length + b.rows.length;
  if (a.columns.length !== b.columns.length)
    fail(
      205,
      'All queries combined using a UNION, INTERSECT or EXCEPT operator must have an equal number of expressions in their target lists.',
    );
  const gone = new Set(b.rows.map(rowKey));
  const seen = new Set<string>();
  const rows = a.rows.filter((r) => {
    const k = rowKey(r);
    if (gone.has(k) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { kind: 'resultSet', columns: a.columns, rows };
}

/**
 * Runs one statement that touches a #table. Returns its result set, or null for a statement that returns none.
 * Anything else about #tables is refused as not supported by the simulator.
 */
export function runTempStatement(c: BatchCall, text: string): ResultSet | null {
  const full = codeOf(text);
  let m: RegExpExecArray | null;
  if ((m = /^CREATE TABLE (#\w+) \((.*)\)$/i.exec(full))) {
    createTable(c, m[1], m[2]);
    return null;
  }
  if ((m = /^DROP TABLE (IF EXISTS )?(#\w+)$/i.exec(full))) {
    if (!tempTables(c.session).delete(m[2].toLowerCase()) && !m[1])
      fail(3701, `Cannot drop the table '${m[2]}', because it does not exist or you do not have permission.`, 5);
    return null;
  }
  // A DML statement or query over #tables: its plan is checked (and maybe recompiled) first, then it runs and is charged.
  // The plan rests on the statistics of the tables it reads; an INSERT's target is written, not read.
  const refs = [...full.replace(/N?'(?:[^']|'')*'/g, "''").matchAll(/#\w+/g)].map((x) => x[0].toLowerCase());
  const target = /^INSERT (?:INTO )?(#\w+)/i.exec(full)?.[1].toLowerCase();
  const read = [...new Set(refs.filter((n, i) => n !== target || refs.indexOf(n) !== i))];
  const tables = [...new Set(refs)].map((n) => requireTemp(c.session, n));
  usePlan(c.model, c.session, full, { tables: read.map((n) => requireTemp(c.session, n)), keepFixed: hasKeepFixed(full) });
  work.read = 0;
  work.written = 0;
  work.deleted = 0;
  const rs = runTempDml(c, full.replace(/\s*\bOPTION\s*\([^)]*\)\s*$/i, ''));
  const rows = work.read + work.written + work.deleted;
  charge(c.model, c.session, {
    cpuMs: COST.statementMs + rows * COST.rowMs,
    logicalReads: tables.length + pages(work.read + work.deleted),
    writes: pages(work.written) + pages(work.deleted),
  });
  return rs;
}

function runTempDml(c: BatchCall, code: string): ResultSet | null {
  let m: RegExpExecArray | null;
  if ((m = /^DELETE (?:FROM )?(#\w+)$/i.exec(code))) {
    const t = requireTemp(c.session, m[1]);
    work.deleted += t.rows.length;
    t.stats.modifications += t.rows.length;
    t.rows = [];
    return null;
  }
  if ((m = /^INSERT (?:INTO )?(#\w+)(?: ?\(([^)]*)\))? VALUES ?\((.*)\)$/i.exec(code))) {
    insertRows(c, m[1], m[2], [splitTop(m[3]).map(literalValue)], true);
    return null;
  }
  if ((m = /^INSERT (?:INTO )?(#\w+)(?: ?\(([^)]*)\))? (SELECT .*)$/i.exec(code))) {
    requireTemp(c.session, m[1]);
    const from = topLevelExcept(m[3]) >= 0 ? null : select(c, m[3]);
    if (!from) throw new SqlError([unsupported('INSERT ... SELECT ... EXCEPT')]);
    work.read += from.rows.length;
    insertRows(c, m[1], m[2], from.rows, false);
    return null;
  }
  if ((m = /^SELECT COUNT\(\*\)(?: AS (\w+))? FROM (#\w+)$/i.exec(code))) {
    const t = requireTemp(c.session, m[2]);
    work.read += t.rows.length;
    return { kind: 'resultSet', columns: [{ name: m[1] ?? '', sqlType: T.int, nullable: true }], rows: [[t.rows.length]] };
  }
  const at = topLevelExcept(code);
  if (/^SELECT\b/i.test(code) && at > 0) return except(c, code.slice(0, at).trim(), code.slice(at + 'EXCEPT'.length).trim());
  if (/^SELECT\b/i.test(code)) {
    const rs = select(c, code);
    work.read += rs.rows.length;
    return rs;
  }
  throw new SqlError([unsupported(code.slice(0, 120))]);
}
