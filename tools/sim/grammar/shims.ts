// What the published grammar (antlr4ts-sql's TSqlParser, generated from an older grammars-v4 T-SQL grammar) lacks but
// SQL Server 2016+ accepts, checked here against Microsoft's syntax pages and rewritten to an equivalent the grammar
// knows, of the same length with the same line breaks (so error positions stay those of the text as sent):
//   - NEXT VALUE FOR sequence_name                        (docs: "NEXT VALUE FOR (Transact-SQL)")
//   - WITH NATIVE_COMPILATION, SCHEMABINDING on a module  (docs: "CREATE PROCEDURE (Transact-SQL)", natively compiled)
//   - BEGIN ATOMIC WITH ( <atomic_block_option> , ... )   (docs: "ATOMIC Blocks in Native Procedures")
//   - NONCLUSTERED HASH [(cols)] WITH (BUCKET_COUNT = n) (docs: "CREATE TABLE (Transact-SQL)", memory-optimized)
//   - ALTER DATABASE db ADD FILEGROUP fg [CONTAINS MEMORY_OPTIMIZED_DATA | FILESTREAM] and ADD FILE ( NAME = ..,
//     FILENAME = '..' [, SIZE | MAXSIZE | FILEGROWTH = ..] ) TO FILEGROUP fg (docs: "ALTER DATABASE File and
//     Filegroup Options"): handed to the grammar as ALTER DATABASE db SET MULTI_USER
//   - SET TEXTSIZE { number | @variable }                  (docs: "SET TEXTSIZE (Transact-SQL)"; sent by DB-Library
//     clients such as pymssql at every login): handed to the grammar as SET ROWCOUNT, which takes the same operand
// Anything that does not match these exact documented shapes is left alone for the grammar to reject.
import { RESERVED_KEYWORDS } from './keywords';
import type { SyntaxFault } from './fault';

const NAME = String.raw`(?:\[[^\]]+\]|[A-Za-z_#][\w@$#]*)`;
const MULTIPART = String.raw`${NAME}(?:\s*\.\s*${NAME}){0,3}`;

/** Same length, same line breaks: `replacement` then blanks. */
function blankTo(original: string, replacement: string): string {
  let out = replacement;
  for (let i = replacement.length; i < original.length; i++) out += original[i] === '\n' ? '\n' : ' ';
  return out;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Comments and string literals blanked (same length), so the patterns below never match inside them. */
function codeOnly(text: string): string {
  return text.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|N?'(?:[^']|'')*'/g, (m) =>
    blankTo(m, m.startsWith("N'") || m.startsWith("'") ? (m[0] === 'N' ? "N''" : "''") : ''),
  );
}

const ATOMIC_OPTIONS: RegExp[] = [
  /^TRANSACTION\s+ISOLATION\s+LEVEL\s*=\s*(SNAPSHOT|REPEATABLE\s+READ|SERIALIZABLE)$/i,
  /^LANGUAGE\s*=\s*(N?''|@\w+)$/i,
  /^DATEFIRST\s*=\s*([1-7]|@\w+)$/i,
  /^DATEFORMAT\s*=\s*(mdy|dmy|ymd|ydm|myd|dym|@\w+)$/i,
  /^DELAYED_DURABILITY\s*=\s*(ON|OFF)$/i,
];

export function applyShims(text: string): { text: string } | { fault: SyntaxFault } {
  const code = codeOnly(text);
  let out = text;
  const splice = (start: number, len: number, repl: string) => {
    out = out.slice(0, start) + blankTo(out.slice(start, start + len), repl) + out.slice(start + len);
  };

  // NEXT VALUE FOR seq  ->  a scalar call of the same length.
  for (const m of code.matchAll(new RegExp(String.raw`\bNEXT\s+VALUE\s+FOR\s+${MULTIPART}`, 'gi'))) {
    splice(m.index!, m[0].length, 'NVF(0)');
  }

  // Module options: drop NATIVE_COMPILATION and SCHEMABINDING from a CREATE PROCEDURE's WITH list.
  for (const m of code.matchAll(/\bCREATE\s+(?:OR\s+ALTER\s+)?PROC(?:EDURE)?\b[\s\S]*?\bWITH\b([\s\S]*?)\bAS\b/gi)) {
    const listStart = m.index! + m[0].length - 2 - m[1].length;
    const items = m[1].split(',');
    const kept = items.filter((i) => !/^\s*(NATIVE_COMPILATION|SCHEMABINDING)\s*$/i.test(i));
    if (kept.length === items.length) continue;
    const withStart = listStart - 4;
    const rebuilt = kept.length ? 'WITH ' + kept.map((k) => k.trim()).join(', ') : '';
    splice(withStart, 4 + m[1].length, rebuilt);
  }

  // NONCLUSTERED HASH  ->  NONCLUSTERED, where a column list or the WITH (BUCKET_COUNT = ...) follows.
  for (const m of code.matchAll(/\bNONCLUSTERED(\s+)HASH\b(?=\s*(?:\(|WITH\s*\(\s*BUCKET_COUNT\b))/gi)) {
    splice(m.index!, m[0].length, 'NONCLUSTERED');
  }

  // ALTER DATABASE db ADD FILEGROUP / ADD FILE  ->  ALTER DATABASE db SET MULTI_USER, for the documented shapes only.
  const fileOpt = String.raw`(?:NAME\s*=\s*(?:${NAME}|N?'')|FILENAME\s*=\s*N?''|(?:SIZE|MAXSIZE|FILEGROWTH)\s*=\s*\w+)`;
  const addFile = String.raw`ADD\s+FILE\s*\(\s*${fileOpt}(?:\s*,\s*${fileOpt})*\s*\)\s*TO\s+FILEGROUP\s+${NAME}`;
  const addGroup = String.raw`ADD\s+FILEGROUP\s+${NAME}(?:\s+CONTAINS\s+(?:MEMORY_OPTIMIZED_DATA|FILESTREAM))?`;
  for (const m of code.matchAll(new RegExp(String.raw`\bALTER\s+DATABASE\s+${NAME}\s+((?:${addFile}|${addGroup}))(?=\s*(?:;|$))`, 'gi'))) {
    splice(m.index! + m[0].length - m[1].length, m[1].length, 'SET MULTI_USER');
  }

  // SET TEXTSIZE n  ->  SET ROWCOUNT n (both keywords are eight letters; the grammar then checks the operand).
  for (const m of code.matchAll(/\bSET(\s+)TEXTSIZE\b(?=\s*(?:-?\d|@))/gi)) {
    splice(m.index! + 3 + m[1].length, 8, 'ROWCOUNT');
  }

  // BEGIN ATOMIC WITH ( options )  ->  BEGIN, once the options are those the docs allow.
  for (const m of code.matchAll(/\bBEGIN\s+ATOMIC\b(\s+WITH\s*\(([^)]*)\))?/gi)) {
    if (!m[1]) {
      const at = m.index! + m[0].length;
      return { fault: { line: lineOf(text, at), near: 'ATOMIC', keyword: false } };
    }
    let offset = m.index! + m[0].length - 1 - m[2].length;
    for (const item of m[2].split(',')) {
      const trimmed = item.trim();
      if (!ATOMIC_OPTIONS.some((re) => re.test(trimmed))) {
        const word = /\w+/.exec(trimmed)?.[0] ?? ')';
        const pos = offset + item.indexOf(word);
        const near = text.slice(pos, pos + word.length);
        return { fault: { line: lineOf(text, pos), near, keyword: RESERVED_KEYWORDS.has(near.toUpperCase()) } };
      }
      offset += item.length + 1;
    }
    splice(m.index!, m[0].length, 'BEGIN');
  }
  return { text: out };
}
