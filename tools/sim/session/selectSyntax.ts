// The plain syntax checks the session layer makes on a statement before it goes on: SQL Server's Msg 102 / 156 (level
// 15) for a token out of place, and the shape of a SELECT's head (TOP n *, DISTINCT *).
import type { ResponseItem } from '../tds/contract';
import { err } from '../model/errors';
import type { Lex } from '../grammar/lex';
import { RESERVED } from './statements';

export function syntaxNear(t: Lex | undefined): ResponseItem {
  if (!t) return err(102, 'Incorrect syntax near the end of the statement.', 15, 1);
  if (t.k === 'word' && RESERVED.has(t.v.toLowerCase())) return err(156, `Incorrect syntax near the keyword '${t.v}'.`, 15, 1);
  return err(102, `Incorrect syntax near '${t.v}'.`, 15, 1);
}

const CLAUSES = new Set(['from', 'where', 'order', 'group', 'having', 'union', 'into']);
const BINARY = new Set([',', '+', '-', '*', '/', '%', '=', '<', '>', '<=', '>=', '<>', '!=', '&', '|', '^', '.']);

/**
 * The plain syntax errors a SELECT can have whatever else it says (Msg 102 or 156 at level 15, as SQL Server's
 * parser reports them): an empty select list, a clause with nothing after it, a dangling operator or comma,
 * unbalanced parentheses. A full grammar check is separate; this keeps the session layer from sending such text on.
 */
export function selectSyntax(toks: Lex[]): ResponseItem | undefined {
  const w = (t: Lex | undefined) => (t && t.k === 'word' ? t.v.toLowerCase() : '');
  let depth = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    if (t.k === 'op' && t.v === '(') depth++;
    if (t.k === 'op' && t.v === ')') {
      if (depth === 0) return syntaxNear(t);
      depth--;
    }
    const isClause = CLAUSES.has(w(t)) || w(t) === 'select';
    if (isClause && (!next || CLAUSES.has(w(next)) || (next.k === 'op' && next.v !== '(' && next.v !== '*' && next.v !== '-'))) {
      return next ? syntaxNear(next) : syntaxNear(t);
    }
    if (
      t.k === 'op' &&
      BINARY.has(t.v) &&
      !(t.v === '*' && (w(toks[i - 1]) === 'select' || toks[i - 1]?.v === ',' || toks[i - 1]?.v === '.' || toks[i - 1]?.v === '(')) &&
      !(t.v === '*' && afterSelectHead(toks, i))
    ) {
      if (!next) return syntaxNear(t);
      if (next.k === 'op' && BINARY.has(next.v) && next.v !== '-' && next.v !== '*' && !(t.v === '.' && next.v === '.'))
        return syntaxNear(next);
      if (CLAUSES.has(w(next))) return syntaxNear(next);
    }
  }
  if (depth > 0) return syntaxNear(toks[toks.length - 1]);
  return undefined;
}

/**
 * Whether the '*' at toks[i] is a select list's star after SELECT's head: DISTINCT / ALL, or TOP n, TOP (expr),
 * TOP ... PERCENT, TOP ... WITH TIES (docs: "SELECT Clause (Transact-SQL)").
 */
function afterSelectHead(toks: Lex[], i: number): boolean {
  const w = (t: Lex | undefined) => (t && t.k === 'word' ? t.v.toLowerCase() : '');
  let j = i - 1;
  if (w(toks[j]) === 'ties' && w(toks[j - 1]) === 'with') j -= 2;
  if (w(toks[j]) === 'percent') j--;
  const prev = toks[j];
  if (!prev) return false;
  if ((w(prev) === 'distinct' || w(prev) === 'all') && j === i - 1) return w(toks[j - 1]) === 'select';
  let k = j;
  if (prev.k === 'op' && prev.v === ')') {
    let depth = 0;
    for (; k >= 0; k--) {
      if (toks[k].k === 'op' && toks[k].v === ')') depth++;
      if (toks[k].k === 'op' && toks[k].v === '(' && --depth === 0) break;
    }
  } else if (prev.k !== 'num' && prev.k !== 'var') return false;
  if (w(toks[k - 1]) !== 'top') return false;
  const head = w(toks[k - 2]);
  return head === 'select' || ((head === 'distinct' || head === 'all') && w(toks[k - 3]) === 'select');
}
