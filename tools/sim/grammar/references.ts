// Which columns of which sys.* views a batch names, read from the grammar's parse tree (and from the dynamic SQL the
// batch builds out of string literals, e.g. N'SELECT ... FROM ' + QUOTENAME(@db) + N'.sys.tables AS t'). Used by the
// column-catalogue test: every column a sql/ file names must exist in every supported version.
import { CharStreams } from 'antlr4ts/CharStreams';
import { CommonTokenStream } from 'antlr4ts/CommonTokenStream';
import type { ParseTree } from 'antlr4ts/tree/ParseTree';
import type { ParserRuleContext } from 'antlr4ts/ParserRuleContext';
import { CaseChangingStream } from 'antlr4ts-sql/dist/src/models/CaseChangingStream';
import { TSqlLexer } from 'antlr4ts-sql/dist/src/grammar-output/tsql/TSqlLexer';
import { TSqlParser } from 'antlr4ts-sql/dist/src/grammar-output/tsql/TSqlParser';
import { applyShims } from './shims';
import { sllParse } from './sll';

export interface ColumnRef {
  view: string;
  column: string;
  /** 1-based line in the batch (of the dynamic SQL's first literal when the reference is inside one). */
  line: number;
  dynamic: boolean;
  /** The qualifier as written (alias or view name, lower case), when the reference has one. */
  alias?: string;
}

const rule = (n: ParseTree): string | undefined => {
  const idx = (n as ParserRuleContext).ruleIndex;
  return idx === undefined ? undefined : TSqlParser.ruleNames[idx];
};

function children(n: ParseTree): ParseTree[] {
  const out: ParseTree[] = [];
  for (let i = 0; i < n.childCount; i++) out.push(n.getChild(i));
  return out;
}

/** Nodes named `name` under `n`, not descending into nested query specifications. */
function find(n: ParseTree, name: string, out: ParseTree[] = [], top = true): ParseTree[] {
  for (const c of children(n)) {
    const r = rule(c);
    if (r === name) out.push(c);
    if (r === 'query_specification' && !top) continue;
    if (r !== 'query_specification') find(c, name, out, false);
  }
  return out;
}

function textOf(src: string, n: ParseTree): string {
  const ctx = n as ParserRuleContext;
  if (!ctx.start) return n.text; // a terminal
  return src.slice(ctx.start.startIndex, (ctx.stop ?? ctx.start).stopIndex + 1);
}

function parseTree(text: string): { tree: ParseTree; src: string } {
  const shimmed = applyShims(text);
  const src = 'text' in shimmed ? shimmed.text : text;
  // The fast parse first (a valid batch); a faulty one (the mutation test's mutants) is read as the full parse
  // recovers it, which still names the columns around the fault.
  const fast = sllParse(src);
  if (fast) return { tree: fast, src };
  const parser = new TSqlParser(new CommonTokenStream(new TSqlLexer(new CaseChangingStream(CharStreams.fromString(src), true))));
  parser.removeErrorListeners();
  return { tree: parser.tsql_file(), src };
}

const norm = (s: string) => s.replace(/[[\]\s]/g, '').toLowerCase();

function refsOf(text: string, lineOffset: number, dynamic: boolean): ColumnRef[] {
  const { tree, src } = parseTree(text);
  const out: ColumnRef[] = [];
  const specs: ParseTree[] = [];
  const collect = (n: ParseTree) => {
    for (const c of children(n)) {
      if (rule(c) === 'query_specification') specs.push(c);
      collect(c);
    }
  };
  collect(tree);
  for (const spec of specs) {
    const sources = find(spec, 'table_source_item');
    const aliases = new Map<string, string | null>();
    for (const s of sources) {
      const [named] = children(s);
      const name = norm(rule(named) === 'function_call' ? textOf(src, named).replace(/\(.*$/s, '') : textOf(src, named));
      const m = /(?:^|\.)sys\.(\w+)$/.exec(name);
      const view = m ? `sys.${m[1]}` : null;
      const alias = find(s, 'as_table_alias')[0];
      aliases.set(alias ? norm(textOf(src, alias).replace(/^as\s+/i, '')) : name, view);
      if (!alias) aliases.set(name.split('.').pop()!, view);
    }
    // An unqualified column belongs to the one table the query reads, when it reads one.
    const single = sources.length === 1 ? [...aliases.values()][0] : null;
    for (const col of find(spec, 'full_column_name')) {
      const parts = norm(textOf(src, col)).split('.');
      // The grammar reads the N of some N'...' literals as a column: not one.
      if (parts.length === 1 && parts[0] === 'n' && src[(col as ParserRuleContext).start.stopIndex + 1] === "'") continue;
      const line = (col as ParserRuleContext).start.line + lineOffset;
      if (parts.length >= 2) {
        const view = aliases.get(parts[parts.length - 2]);
        if (view) out.push({ view, column: parts[parts.length - 1], line, dynamic, alias: parts[parts.length - 2] });
      } else if (single) {
        out.push({ view: single, column: parts[0], line, dynamic });
      }
    }
  }
  return out;
}

/** Dynamic SQL built from string literals (and QUOTENAME(...) / @variables between them) that names a sys view. */
function dynamicSql(text: string): { sql: string; line: number }[] {
  const out: { sql: string; line: number }[] = [];
  const lit = String.raw`N?'(?:[^']|'')*'`;
  const piece = String.raw`(?:${lit}|QUOTENAME\s*\([^)]*\)|@\w+)`;
  const re = new RegExp(String.raw`${lit}(?:\s*\+\s*${piece})*`, 'gi');
  for (const m of text.matchAll(re)) {
    if (!/sys\./i.test(m[0])) continue;
    const sql = [...m[0].matchAll(new RegExp(piece, 'gi'))]
      .map((p) =>
        p[0].startsWith("'") || /^N'/i.test(p[0])
          ? p[0].replace(/^N?'/i, '').replace(/'$/, '').replace(/''/g, "'")
          : p[0].startsWith('@')
            ? ' '
            : 'db',
      )
      .join('');
    out.push({ sql, line: text.slice(0, m.index).split('\n').length });
  }
  return out;
}

/** Comments blanked (same length, line breaks kept); string literals are left whole. */
function withoutComments(text: string): string {
  return text.replace(/N?'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\//g, (m) =>
    m.startsWith('--') || m.startsWith('/*') ? m.replace(/[^\n]/g, ' ') : m,
  );
}

export function columnReferences(text: string): ColumnRef[] {
  return [...refsOf(text, 0, false), ...dynamicSql(withoutComments(text)).flatMap((d) => refsOf(d.sql, d.line - 1, true))];
}
