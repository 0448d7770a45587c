// Syntax check of every batch the simulator receives, before the executor parses it. The grammar is not ours:
// it is the ANTLR grammars-v4 T-SQL grammar as generated and published on npm by antlr4ts-sql (TSqlLexer/TSqlParser).
// That grammar predates three constructs the product sends, so a small documented shim (shims.ts) checks those against
// Microsoft's syntax pages and hands the grammar an equivalent of the same length; everything else is the grammar's
// verdict. An error is answered as SQL Server does: Msg 102 (or 156 for a reserved keyword), level 15, with the line in
// the batch. Results are cached by text, so the product's fixed batches are parsed once.
import { CharStreams } from 'antlr4ts/CharStreams';
import { CommonTokenStream } from 'antlr4ts/CommonTokenStream';
import type { Token } from 'antlr4ts/Token';
import type { ParseTree } from 'antlr4ts/tree/ParseTree';
import { CaseChangingStream } from 'antlr4ts-sql/dist/src/models/CaseChangingStream';
import { TSqlLexer } from 'antlr4ts-sql/dist/src/grammar-output/tsql/TSqlLexer';
import { TSqlParser } from 'antlr4ts-sql/dist/src/grammar-output/tsql/TSqlParser';
import type { ServerMessage } from '../tds/contract';
import { RESERVED_KEYWORDS } from './keywords';
import type { SyntaxFault } from './fault';
import { applyShims } from './shims';
import { sllParse } from './sll';
import { stricterThanTheGrammar } from './strict';
import { isXeDdl, parseXeDdl } from './xe';

export type { SyntaxFault } from './fault';

const cache = new Map<string, SyntaxFault | null>();
/** Thrown from the error listeners to end a full parse at its first error (caught in parse()). */
const FIRST_ERROR = new Error('first syntax error found');
const CACHE_MAX = 5000;

/** The first syntax error in `text` (a whole batch, or an sp_executesql statement), or null when it parses. */
export function findSyntaxError(text: string, paramDeclaration = ''): SyntaxFault | null {
  const key = paramDeclaration + '\u0000' + text;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const result = parse(text, paramDeclaration);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(key, result);
  return result;
}

/** The ERROR token SQL Server sends for a syntax fault. */
export function syntaxErrorMessage(f: SyntaxFault): ServerMessage {
  if (f.invalidColumn)
    return { kind: 'error', number: 207, state: 1, class: 16, message: `Invalid column name '${f.near}'.`, line: f.line };
  return f.keyword
    ? { kind: 'error', number: 156, state: 1, class: 15, message: `Incorrect syntax near the keyword '${f.near}'.`, line: f.line }
    : { kind: 'error', number: 102, state: 1, class: 15, message: `Incorrect syntax near '${f.near}'.`, line: f.line };
}

function fault(text: string, tok: { line: number; start: number; stop: number }): SyntaxFault {
  const near = text.slice(tok.start, tok.stop + 1);
  return { line: tok.line, near, keyword: RESERVED_KEYWORDS.has(near.toUpperCase()) };
}

function parse(text: string, paramDeclaration: string): SyntaxFault | null {
  // Extended Events DDL is beyond the grammar: checked by its own strict parser (xe.ts).
  if (isXeDdl(text)) {
    const xe = parseXeDdl(text);
    return 'fault' in xe ? xe.fault : null;
  }
  const shimmed = applyShims(text);
  if ('fault' in shimmed) return shimmed.fault;
  // sp_executesql's parameters are declared for the statement: the grammar sees them as a DECLARE on the same line,
  // so line numbers stay those of the statement text.
  // OUTPUT / OUT / READONLY belong to a parameter, not to DECLARE: dropped from that prefix.
  const declared = paramDeclaration.replace(/\b(OUTPUT|OUT|READONLY)\b/gi, '').trim();
  const prefix = declared ? `DECLARE ${declared}; ` : '';
  const source = prefix + shimmed.text;
  // Two-stage parse: the fast SLL mode decides almost every batch; only a batch it cannot parse is parsed again in full
  // LL mode, which finds the error (the grammar's verdict is the same, only slower).
  const fast = sllParse(source);
  if (fast) {
    const strict = stricterThanTheGrammar(fast, source);
    if (!strict) return null;
    const f = strict.at;
    return {
      ...fault(text, { line: f.line, start: Math.max(0, f.start - prefix.length), stop: Math.max(0, f.stop - prefix.length) }),
      ...(strict.invalidColumn ? { invalidColumn: true } : {}),
    };
  }
  const lexer = new TSqlLexer(new CaseChangingStream(CharStreams.fromString(source), true));
  const tokens = new CommonTokenStream(lexer);
  const parser = new TSqlParser(tokens);
  let first: { line: number; start: number; stop: number } | null = null;
  const at = (tok: Token | undefined, line: number, col: number) => {
    if (first) return;
    if (tok && tok.type !== -1 /* EOF */) {
      first = { line: tok.line, start: tok.startIndex, stop: tok.stopIndex };
    } else {
      // At the end of the batch SQL Server names the last token it read.
      const all = tokens.getTokens().filter((t) => t.channel === 0 && t.type !== -1);
      const last = all[all.length - 1];
      first = last ? { line: last.line, start: last.startIndex, stop: last.stopIndex } : { line, start: col, stop: col };
    }
    // Only the first error is answered: the full LL parse of the rest of the batch, recovering from error to error, was
    // nearly all of its cost (the mutation test's minutes), so the parse stops here.
    throw FIRST_ERROR;
  };
  lexer.removeErrorListeners();
  lexer.addErrorListener({ syntaxError: (_r, _o, line, col) => at(undefined, line, col) });
  parser.removeErrorListeners();
  parser.addErrorListener({ syntaxError: (_r, offending, line, col) => at(offending as Token | undefined, line, col) });
  let tree: ParseTree | null = null;
  try {
    tree = parser.tsql_file();
  } catch (e) {
    if (e !== FIRST_ERROR) throw e;
  }
  if (!first && tree) {
    const strict = stricterThanTheGrammar(tree, source);
    if (strict) first = strict.at;
    if (strict?.invalidColumn) {
      const f = strict.at;
      return {
        ...fault(text, { line: f.line, start: Math.max(0, f.start - prefix.length), stop: Math.max(0, f.stop - prefix.length) }),
        invalidColumn: true,
      };
    }
  }
  if (!first) return null;
  const f = first as { line: number; start: number; stop: number };
  // Positions in the source are those of the text as sent minus the prefix (the shims keep lengths and lines).
  return fault(text, { line: f.line, start: Math.max(0, f.start - prefix.length), stop: Math.max(0, f.stop - prefix.length) });
}
