// Where the published grammar is looser than SQL Server, checked on its parse tree:
//   - it reads a batch as several when a statement starts with a bare name (a procedure call without EXEC), which SQL
//     Server allows only as the first statement of a batch: "END ELSEE SELECT ..." is a syntax error there;
//   - it accepts column definitions without the comma between them ("c2 int NULL CONSTRAINTT DF DEFAULT (1)");
//   - a column name where no table is in scope (a query without FROM, SET/IF/WHILE/RETURN/THROW outside a query, or the
//     arguments of a table-valued function in FROM) cannot be bound: Msg 207 "Invalid column name".
import type { ParserRuleContext } from 'antlr4ts/ParserRuleContext';
import type { ParseTree } from 'antlr4ts/tree/ParseTree';
import { TSqlParser } from 'antlr4ts-sql/dist/src/grammar-output/tsql/TSqlParser';

export interface Position {
  line: number;
  start: number;
  stop: number;
}

const rule = (n: ParseTree): string | undefined => {
  const i = (n as ParserRuleContext).ruleIndex;
  return i === undefined ? undefined : TSqlParser.ruleNames[i];
};
const kids = (n: ParseTree): ParseTree[] => Array.from({ length: n.childCount }, (_, i) => n.getChild(i));
const pos = (n: ParseTree): Position => {
  const c = n as ParserRuleContext;
  return { line: c.start.line, start: c.start.startIndex, stop: c.start.stopIndex };
};

function* all(n: ParseTree): Generator<ParseTree> {
  yield n;
  for (const c of kids(n)) yield* all(c);
}

// Statements and clauses that put a table in scope for the names under them.
const SCOPES = new Set([
  'select_statement',
  'order_by_clause',
  'query_specification',
  'update_statement',
  'delete_statement',
  'insert_statement',
  'merge_statement',
  'create_table',
  'alter_table',
  'create_index',
  'column_definition',
  'table_constraint',
  'create_or_alter_procedure',
  'create_or_alter_function',
]);

export function stricterThanTheGrammar(tree: ParseTree, src: string): { at: Position; invalidColumn?: boolean } | null {
  const batches = kids(tree).filter((c) => rule(c) === 'batch');
  if (batches.length > 1) return { at: pos(batches[1]) };
  for (const n of all(tree)) {
    const r = rule(n);
    if (r === 'column_def_table_constraints') {
      const cs = kids(n);
      for (let i = 1; i < cs.length; i++) {
        if (rule(cs[i]) === 'column_def_table_constraint' && rule(cs[i - 1]) === 'column_def_table_constraint') return { at: pos(cs[i]) };
      }
    }
    if (r === 'full_column_name') {
      const c = n as ParserRuleContext;
      const text = src.slice(c.start.startIndex, (c.stop ?? c.start).stopIndex + 1);
      if (text.includes('.') || text.startsWith('@')) continue;
      // The grammar reads the N of some N'...' literals as a name.
      if (/^n$/i.test(text) && src[c.start.stopIndex + 1] === "'") continue;
      let p: ParseTree | undefined = c.parent;
      let unbound = true;
      let inTvfArgs = false;
      while (p) {
        const pr = rule(p);
        if (pr === 'function_call' && p.parent && rule(p.parent) === 'table_source_item') inTvfArgs = true;
        if (pr === 'query_specification') {
          unbound = inTvfArgs || !kids(p).some((k) => (k as { symbol?: { type: number } }).symbol?.type === TSqlParser.FROM);
          break;
        }
        if (pr && SCOPES.has(pr)) {
          unbound = inTvfArgs;
          break;
        }
        p = p.parent;
      }
      if (unbound) return { at: pos(c), invalidColumn: true };
    }
  }
  return null;
}
