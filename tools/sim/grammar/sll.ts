// The grammar's fast parse: SLL prediction, stopping at the first error. It decides almost every batch the product
// sends; a batch it cannot parse is parsed again in full LL mode by its caller (same verdict, minutes slower on the
// large files: full-context prediction over this grammar dominates everything else).
import { CharStreams } from 'antlr4ts/CharStreams';
import { CommonTokenStream } from 'antlr4ts/CommonTokenStream';
import { BailErrorStrategy } from 'antlr4ts/BailErrorStrategy';
import { PredictionMode } from 'antlr4ts/atn/PredictionMode';
import type { ParseTree } from 'antlr4ts/tree/ParseTree';
import { CaseChangingStream } from 'antlr4ts-sql/dist/src/models/CaseChangingStream';
import { TSqlLexer } from 'antlr4ts-sql/dist/src/grammar-output/tsql/TSqlLexer';
import { TSqlParser } from 'antlr4ts-sql/dist/src/grammar-output/tsql/TSqlParser';

/** The parse tree of `source`, or null when the lexer or the SLL parse met an error. */
export function sllParse(source: string): ParseTree | null {
  const lexer = new TSqlLexer(new CaseChangingStream(CharStreams.fromString(source), true));
  lexer.removeErrorListeners();
  let lexError = false;
  lexer.addErrorListener({
    syntaxError: () => {
      lexError = true;
    },
  });
  const parser = new TSqlParser(new CommonTokenStream(lexer));
  parser.removeErrorListeners();
  parser.interpreter.setPredictionMode(PredictionMode.SLL);
  parser.errorHandler = new BailErrorStrategy();
  try {
    const tree = parser.tsql_file();
    return lexError ? null : tree;
  } catch {
    return null;
  }
}
