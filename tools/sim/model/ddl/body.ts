// A stored procedure's text split into its header (name, parameters, WITH options) and the shape of its body: blocks,
// WHILE and IF with their conditions, transactions (BEGIN TRANSACTION ... COMMIT, or BEGIN ATOMIC), TRY/CATCH, and
// the simple statements between them as their tokens. procPlan.ts reads what a call does from this tree.
import { lex, Lex } from '../../grammar/lex';

export type Node =
  | { n: 'block'; body: Node[]; atomic: boolean }
  | { n: 'while'; cond: Lex[]; body: Node }
  | { n: 'if'; cond: Lex[]; then: Node; else?: Node }
  | { n: 'try'; body: Node[]; handler: Node[] }
  | { n: 'begin-tran' }
  | { n: 'commit' }
  | { n: 'stmt'; toks: Lex[] };

export interface ProcText {
  native: boolean;
  body: Node;
}

/** Not understood: the analysis says where, and the call is refused rather than guessed. */
export class BodyError extends Error {}

/** Words that start a statement, so end a WHILE / IF condition. */
const STARTS = new Set([
  'begin',
  'set',
  'select',
  'insert',
  'update',
  'delete',
  'exec',
  'execute',
  'throw',
  'return',
  'if',
  'while',
  'declare',
  'commit',
  'break',
  'continue',
]);

const isWord = (t: Lex | undefined, ...w: string[]) => !!t && t.k === 'word' && w.includes(t.v.toLowerCase());
const isOp = (t: Lex | undefined, v: string) => !!t && t.k === 'op' && t.v === v;

class BodyReader {
  i = 0;
  constructor(private readonly t: Lex[]) {}

  fail(what: string): never {
    const at = this.t[this.i];
    throw new BodyError(`${what} near '${at?.v ?? 'end'}'`);
  }

  /** CREATE PROC[EDURE] name params [WITH options] AS body */
  header(): ProcText {
    while (this.i < this.t.length && !isWord(this.t[this.i], 'as', 'with')) this.i++;
    let native = false;
    if (isWord(this.t[this.i], 'with')) {
      this.i++;
      while (this.i < this.t.length && !isWord(this.t[this.i], 'as')) {
        if (isWord(this.t[this.i], 'native_compilation')) native = true;
        this.i++;
      }
    }
    if (!isWord(this.t[this.i], 'as')) this.fail('no AS');
    this.i++;
    const body: Node[] = [];
    for (;;) {
      while (isOp(this.t[this.i], ';')) this.i++;
      if (this.i >= this.t.length) break;
      body.push(this.node());
    }
    return { native, body: { n: 'block', body, atomic: false } };
  }

  node(): Node {
    while (isOp(this.t[this.i], ';')) this.i++;
    const w = this.t[this.i]?.k === 'word' ? this.t[this.i].v.toLowerCase() : '';
    const w1 = this.t[this.i + 1]?.v.toLowerCase();
    if (w === 'begin' && (w1 === 'tran' || w1 === 'transaction')) return this.skipStmt({ n: 'begin-tran' });
    if (w === 'commit') return this.skipStmt({ n: 'commit' });
    if (w === 'begin' && w1 === 'try') return this.tryBlock();
    if (w === 'begin') return this.block();
    if (w === 'while') {
      this.i++;
      return { n: 'while', cond: this.cond(), body: this.node() };
    }
    if (w === 'if') {
      this.i++;
      const cond = this.cond();
      const then = this.node();
      while (isOp(this.t[this.i], ';')) this.i++;
      if (!isWord(this.t[this.i], 'else')) return { n: 'if', cond, then };
      this.i++;
      return { n: 'if', cond, then, else: this.node() };
    }
    if (!STARTS.has(w)) this.fail('an unknown statement');
    return { n: 'stmt', toks: this.stmt() };
  }

  private skipStmt(n: Node): Node {
    this.stmt();
    return n;
  }

  private block(): Node {
    this.i++;
    let atomic = false;
    if (isWord(this.t[this.i], 'atomic')) {
      atomic = true;
      this.i++;
      if (isWord(this.t[this.i], 'with')) this.balanced();
    }
    const body = this.until(['end']);
    this.i++;
    return { n: 'block', body, atomic };
  }

  private tryBlock(): Node {
    this.i += 2;
    const body = this.until(['end']);
    this.i += 2; // END TRY
    if (!isWord(this.t[this.i], 'begin') || !isWord(this.t[this.i + 1], 'catch')) this.fail('TRY without CATCH');
    this.i += 2;
    const handler = this.until(['end']);
    this.i += 2; // END CATCH
    return { n: 'try', body, handler };
  }

  private until(ends: string[]): Node[] {
    const out: Node[] = [];
    for (;;) {
      while (isOp(this.t[this.i], ';')) this.i++;
      if (this.i >= this.t.length) this.fail('a block without END');
      if (isWord(this.t[this.i], ...ends)) return out;
      out.push(this.node());
    }
  }

  /** WITH ( ... ): skipped whole. */
  private balanced(): void {
    this.i++;
    if (!isOp(this.t[this.i], '(')) this.fail('WITH without options');
    let depth = 0;
    do {
      if (isOp(this.t[this.i], '(')) depth++;
      if (isOp(this.t[this.i], ')')) depth--;
      this.i++;
    } while (depth > 0 && this.i < this.t.length);
  }

  /** A condition: tokens up to the statement that follows it at parenthesis depth 0. */
  private cond(): Lex[] {
    const out: Lex[] = [];
    let depth = 0;
    while (this.i < this.t.length) {
      const t = this.t[this.i];
      if (depth === 0 && t.k === 'word' && STARTS.has(t.v.toLowerCase()) && out.length > 0) return out;
      if (isOp(t, '(')) depth++;
      if (isOp(t, ')')) depth--;
      out.push(t);
      this.i++;
    }
    return this.fail('a condition without a statement');
  }

  /** A simple statement: its tokens up to its ';' (CASE ... END inside it does not end it). */
  private stmt(): Lex[] {
    const out: Lex[] = [];
    let depth = 0;
    let cases = 0;
    while (this.i < this.t.length) {
      const t = this.t[this.i];
      if (depth === 0 && isOp(t, ';')) {
        this.i++;
        return out;
      }
      if (isOp(t, '(')) depth++;
      if (isOp(t, ')')) depth--;
      if (isWord(t, 'case')) cases++;
      if (isWord(t, 'end')) {
        if (cases === 0) this.fail('a statement without its ;');
        cases--;
      }
      out.push(t);
      this.i++;
    }
    return out;
  }
}

export function readProcedure(text: string): ProcText {
  return new BodyReader(lex(text)).header();
}
