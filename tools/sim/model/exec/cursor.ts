// The token cursor the executor's parser (parseExpr.ts, parse.ts) reads with: words, operators, names, and the
// refusal of anything it does not implement (Msg 50000 naming the text, never an approximation).
import type { Lex } from '../../grammar/lex';
import { unsupported, SqlError } from '../errors';

export const STOP = new Set([
  'from', 'where', 'group', 'having', 'order', 'union', 'except', 'intersect', 'into', 'on', 'join', 'inner', 'left',
  'right', 'full', 'cross', 'outer', 'when', 'then', 'else', 'end', 'and', 'or', 'not', 'as', 'select', 'option', 'asc',
  'desc', 'is', 'like', 'in', 'between', 'set', 'declare', 'insert', 'delete', 'values', 'with', 'by', 'top', 'exec',
  'execute', 'if', 'while', 'begin', 'print', 'raiserror', 'throw', 'return', 'waitfor', 'commit', 'rollback', 'save',
  'break', 'continue', 'truncate', 'update', 'drop', 'create', 'output', 'out',
]); // prettier-ignore

export class Cursor {
  protected i = 0;
  constructor(
    protected readonly toks: Lex[],
    protected readonly text: string,
  ) {}

  protected refuse(): never {
    const t = this.toks[this.i];
    throw new SqlError([unsupported(t ? this.text.slice(t.start, t.start + 80) : this.text)]);
  }
  protected peek(o = 0): Lex | undefined {
    return this.toks[this.i + o];
  }
  protected word(o = 0): string {
    const t = this.peek(o);
    return t && t.k === 'word' ? t.v.toLowerCase() : '';
  }
  protected isOp(v: string, o = 0): boolean {
    const t = this.peek(o);
    return !!t && t.k === 'op' && t.v === v;
  }
  protected eatWord(w: string): boolean {
    if (this.word() !== w) return false;
    this.i++;
    return true;
  }
  protected eatOp(v: string): boolean {
    if (!this.isOp(v)) return false;
    this.i++;
    return true;
  }
  protected needWord(w: string): void {
    if (!this.eatWord(w)) this.refuse();
  }
  protected needOp(v: string): void {
    if (!this.eatOp(v)) this.refuse();
  }
  atEnd(): boolean {
    while (this.isOp(';')) this.i++;
    return this.i >= this.toks.length;
  }
  protected name(): string {
    const t = this.peek();
    if (!t || (t.k !== 'word' && t.k !== 'qname')) this.refuse();
    this.i++;
    return t.v;
  }
  /** A dotted name (master.sys.dm_os_sys_info), lower-cased parts joined by '.'. */
  protected dotted(): string {
    const parts = [this.name()];
    while (this.isOp('.')) {
      this.i++;
      parts.push(this.name());
    }
    return parts.join('.');
  }
}
