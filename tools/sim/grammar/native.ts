// Natively compiled modules are compiled at CREATE time, and SQL Server refuses there what they do not support. The
// rules are Microsoft's docs pages "Transact-SQL Constructs Not Supported by In-Memory OLTP" (most features: Msg 10794,
// naming the construct) and "Supported Features for Natively Compiled T-SQL Modules" (the built-in functions allowed),
// with the versions those pages give (CASE and APPLY from 2017, WITH TIES from 2017, ...). The message text follows
// 10794's pattern "The <kind> '<name>' is not supported with natively compiled modules."; the docs do not give a
// number for a missing SCHEMABINDING or BEGIN ATOMIC, so those use 10794 too (marked in the message list below).
import type { ServerMessage } from '../tds/contract';

interface Rule {
  kind: string;
  name: string;
  re: RegExp;
  until?: number;
}

const RULES: Rule[] = [
  ...[
    'GOTO',
    'OFFSET',
    'INTERSECT',
    'EXCEPT',
    'PIVOT',
    'UNPIVOT',
    'CONTAINS',
    'FREETEXT',
    'TSEQUAL',
    'LIKE',
    'OPENROWSET',
    'OPENQUERY',
    'OPENDATASOURCE',
    'OPENXML',
    'CONTAINSTABLE',
    'FREETEXTTABLE',
    'CHANGETABLE',
    'TABLESAMPLE',
  ].map((op) => ({ kind: 'operator', name: op, re: new RegExp(`\\b${op}\\b`, 'i') })),
  { kind: 'operator', name: 'NEXT VALUE FOR', re: /\bNEXT\s+VALUE\s+FOR\b/i },
  { kind: 'operator', name: 'APPLY', re: /\b(?:CROSS|OUTER)\s+APPLY\b/i, until: 13 },
  { kind: 'feature', name: 'CASE', re: /\bCASE\b/i, until: 13 },
  { kind: 'feature', name: 'cursors', re: /\bCURSOR\b/i },
  {
    kind: 'feature',
    name: 'Common Table Expressions (CTEs)',
    re: /(?:^|;|\bBEGIN\b|\bATOMIC\b[^)]*\))\s*WITH\s+\w+\s*(?:\([^)]*\))?\s*AS\s*\(/i,
  },
  { kind: 'feature', name: 'SELECT INTO', re: /\bSELECT\b[^;]*?\bINTO\s+[#@\w[]/i },
  { kind: 'feature', name: 'multi-row INSERT ... VALUES statements', re: /\bVALUES\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*,\s*\(/i },
  { kind: 'feature', name: 'BEGIN TRANSACTION', re: /\bBEGIN\s+TRAN(?:SACTION)?\b/i },
  { kind: 'feature', name: 'COMMIT TRANSACTION', re: /\bCOMMIT\b/i },
  { kind: 'feature', name: 'ROLLBACK TRANSACTION', re: /\bROLLBACK\b/i },
  { kind: 'option', name: 'PRINT', re: /\bPRINT\b/i },
  { kind: 'set option', name: 'SET', re: /\bSET\s+(?!@)[A-Z_]+\s+(?:ON|OFF)\b/i },
  { kind: 'feature', name: 'DDL', re: /\b(?:CREATE|ALTER|DROP)\s+(?:TABLE|PROC|PROCEDURE|FUNCTION|INDEX|VIEW|TYPE|SEQUENCE)\b/i },
  { kind: 'feature', name: 'temporary tables', re: /(?:FROM|JOIN|INTO|UPDATE)\s+#/i },
  { kind: 'option', name: 'FOR XML', re: /\bFOR\s+XML\b/i },
  { kind: 'option', name: 'FOR BROWSE', re: /\bFOR\s+BROWSE\b/i },
  { kind: 'option', name: 'PERCENT', re: /\bTOP\s*\(?[^)]*\)?\s*PERCENT\b/i },
  { kind: 'option', name: 'WITH TIES', re: /\bWITH\s+TIES\b/i, until: 13 },
  { kind: 'ranking function', name: 'ROW_NUMBER', re: /\b(?:ROW_NUMBER|RANK|DENSE_RANK|NTILE)\s*\(/i },
  { kind: 'feature', name: 'GROUP BY ALL', re: /\bGROUP\s+BY\s+ALL\b/i },
  { kind: 'feature', name: 'ROLLUP', re: /\bROLLUP\b/i },
  { kind: 'feature', name: 'CUBE', re: /\bCUBE\b/i },
  { kind: 'feature', name: 'GROUPING SETS', re: /\bGROUPING\s+SETS\b/i },
  { kind: 'feature', name: 'UPDATE with FROM clause', re: /\bUPDATE\b[^;]*?\bSET\b[^;]*?\bFROM\b/i },
];

// Built-in functions the supported-features page allows (all mathematical functions, the listed date, string, identity,
// NULL, uniqueidentifier, error, security and aggregate functions; TRIM, TRANSLATE, CONCAT_WS and JSON from 2017), and
// the conversion forms. Any other built-in function name is refused.
const MATH = 'ABS ACOS ASIN ATAN ATN2 CEILING COS COT DEGREES EXP FLOOR LOG LOG10 PI POWER RADIANS RAND ROUND SIGN SIN SQRT SQUARE TAN';
const DATE =
  'CURRENT_TIMESTAMP DATEADD DATEDIFF DATEFROMPARTS DATEPART DATETIME2FROMPARTS DATETIMEFROMPARTS DAY EOMONTH GETDATE GETUTCDATE MONTH SMALLDATETIMEFROMPARTS SYSDATETIME SYSUTCDATETIME YEAR';
const OTHER =
  'LEN LTRIM RTRIM SUBSTRING SCOPE_IDENTITY ISNULL NEWID NEWSEQUENTIALID ERROR_LINE ERROR_MESSAGE ERROR_NUMBER ERROR_PROCEDURE ERROR_SEVERITY ERROR_STATE IS_MEMBER IS_ROLEMEMBER IS_SRVROLEMEMBER ORIGINAL_LOGIN SUSER_ID SUSER_SID SUSER_SNAME SUSER_NAME USER_ID USER_NAME CONTEXT_INFO AVG COUNT COUNT_BIG MIN MAX SUM CAST CONVERT TRY_CAST TRY_CONVERT';
const FROM_2017 = 'TRIM TRANSLATE CONCAT_WS ISJSON JSON_VALUE JSON_QUERY JSON_MODIFY';
// Words followed by '(' that are syntax, not function calls.
const SYNTAX = new Set(
  'VALUES IN EXISTS WITH AS TOP ATOMIC AND OR NOT WHERE ON SELECT INTO INSERT RETURNS RETURN IF WHILE THROW OVER BETWEEN'.split(' '),
);
const BUILTINS_REFUSED =
  'CONCAT REPLACE UPPER LOWER LEFT RIGHT CHARINDEX PATINDEX FORMAT STRING_AGG STRING_SPLIT STUFF REVERSE REPLICATE SPACE STR COALESCE NULLIF IIF CHOOSE OBJECT_ID OBJECT_NAME DB_ID DB_NAME SCHEMA_NAME HOST_NAME APP_NAME SESSION_CONTEXT SERVERPROPERTY DATABASEPROPERTYEX CHECKSUM BINARY_CHECKSUM HASHBYTES COMPRESS DECOMPRESS SOUNDEX DIFFERENCE QUOTENAME FORMATMESSAGE DATENAME ISDATE ISNUMERIC SWITCHOFFSET TODATETIMEOFFSET SYSDATETIMEOFFSET CURRENT_TRANSACTION_ID IDENT_CURRENT';

function allowedFunctions(version: number): Set<string> {
  return new Set(`${MATH} ${DATE} ${OTHER} ${version >= 14 ? FROM_2017 : ''}`.split(/\s+/).filter(Boolean));
}

/** Comments and string literals blanked, same length and lines, so no rule matches inside them. */
function codeOnly(text: string): string {
  return text.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|N?'(?:[^']|'')*'/g, (m) => m.replace(/[^\n]/g, ' '));
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

const refuse = (kind: string, name: string, line: number): ServerMessage => ({
  kind: 'error',
  number: 10794,
  state: 1,
  class: 16,
  message: `The ${kind} '${name}' is not supported with natively compiled modules.`,
  line,
});

/** SQL Server's refusal of a CREATE of a natively compiled module in `text` at `version`, or null. */
export function checkNativeModule(text: string, version: number): ServerMessage | null {
  const code = codeOnly(text);
  const head = /\bCREATE\s+(?:OR\s+ALTER\s+)?(?:PROC(?:EDURE)?|FUNCTION|TRIGGER)\b([\s\S]*?)\bAS\b/i.exec(code);
  if (!head || !/\bNATIVE_COMPILATION\b/i.test(head[1])) return null;
  const withList = /\bWITH\b([\s\S]*)$/i.exec(head[1])?.[1] ?? '';
  const headLine = lineAt(code, head.index);
  // Module options the docs refuse with NATIVE_COMPILATION, and the two it requires (numbers not given: 10794).
  for (const opt of ['RECOMPILE', 'ENCRYPTION']) if (new RegExp(`\\b${opt}\\b`, 'i').test(withList)) return refuse('option', opt, headLine);
  if (/\bFOR\s+REPLICATION\b/i.test(head[1])) return refuse('option', 'FOR REPLICATION', headLine);
  if (!/\bSCHEMABINDING\b/i.test(withList)) return refuse('option', 'NATIVE_COMPILATION without SCHEMABINDING', headLine);
  const bodyStart = head.index + head[0].length;
  // @variables blanked (an @offset is no OFFSET); @@functions kept for their own check.
  const body = code.slice(bodyStart).replace(/(?<!@)@\w+/g, (m) => ' '.repeat(m.length));
  if (!/^\s*BEGIN\s+ATOMIC\b/i.test(body)) return refuse('feature', 'a body that is not BEGIN ATOMIC', lineAt(code, bodyStart));
  let first: { at: number; msg: ServerMessage } | null = null;
  const consider = (at: number, kind: string, name: string) => {
    if (!first || at < first.at) first = { at, msg: refuse(kind, name, lineAt(code, bodyStart + at)) };
  };
  for (const r of RULES) {
    if (r.until !== undefined && version > r.until) continue;
    const m = r.re.exec(body);
    if (m) consider(m.index, r.kind, r.name);
  }
  const allowed = allowedFunctions(version);
  const refused = new Set(BUILTINS_REFUSED.split(' ').filter((f) => !allowed.has(f)));
  for (const m of body.matchAll(/(^|[^.\w@])([A-Za-z_]\w*)\s*\(/g)) {
    const name = m[2].toUpperCase();
    if (SYNTAX.has(name) || allowed.has(name)) continue;
    if (refused.has(name)) consider(m.index! + m[1].length, 'function', name);
  }
  for (const m of body.matchAll(/@@(\w+)/g))
    if (m[1].toUpperCase() !== 'ROWCOUNT') consider(m.index!, 'function', `@@${m[1].toUpperCase()}`);
  return first ? (first as { msg: ServerMessage }).msg : null;
}
