// Expressions for the executor's parser, by precedence: OR < AND < NOT < comparison and predicates < + - < * / % <
// unary; CASE, CAST/CONVERT, function calls, variables, literals, columns and subqueries.
import type { Expr, OrderItem, Query, TypeName } from './ast';
import { Cursor } from './cursor';

export abstract class ExprParser extends Cursor {
  abstract query(): Query;

  expr(): Expr {
    let a = this.andExpr();
    while (this.eatWord('or')) a = { t: 'or', a, b: this.andExpr() };
    return a;
  }
  protected andExpr(): Expr {
    let a = this.notExpr();
    while (this.eatWord('and')) a = { t: 'and', a, b: this.notExpr() };
    return a;
  }
  protected notExpr(): Expr {
    if (this.eatWord('not')) return { t: 'not', e: this.notExpr() };
    return this.predicate();
  }
  protected predicate(): Expr {
    if (this.eatWord('exists')) {
      this.needOp('(');
      const q = this.query();
      this.needOp(')');
      return { t: 'exists', q };
    }
    const e = this.additive();
    const t = this.peek();
    if (t?.k === 'op' && ['=', '<>', '!=', '<', '>', '<=', '>=', '!<', '!>'].includes(t.v)) {
      this.i++;
      const op = t.v === '!=' ? '<>' : t.v === '!<' ? '>=' : t.v === '!>' ? '<=' : t.v;
      return { t: 'bin', op, a: e, b: this.additive() };
    }
    if (this.eatWord('is')) {
      const neg = this.eatWord('not');
      this.needWord('null');
      return { t: 'isnull', e, neg };
    }
    const neg = this.word() === 'not' && ['like', 'in', 'between'].includes(this.word(1)) ? (this.i++, true) : false;
    if (this.eatWord('like')) {
      const pat = this.additive();
      if (this.word() === 'escape') this.refuse();
      return { t: 'like', e, pat, neg };
    }
    if (this.eatWord('in')) {
      if (this.isOp('(') && this.word(1) === 'select') this.refuse();
      return { t: 'in', e, list: this.exprList(), neg };
    }
    if (this.eatWord('between')) {
      const lo = this.additive();
      this.needWord('and');
      return { t: 'between', e, lo, hi: this.additive(), neg };
    }
    return e;
  }
  protected additive(): Expr {
    let a = this.term();
    for (;;) {
      const t = this.peek();
      if (t?.k !== 'op' || !['+', '-', '&', '|', '^'].includes(t.v)) return a;
      this.i++;
      a = { t: 'bin', op: t.v, a, b: this.term() };
    }
  }
  protected term(): Expr {
    let a = this.unary();
    for (;;) {
      const t = this.peek();
      if (t?.k !== 'op' || !['*', '/', '%'].includes(t.v)) return a;
      this.i++;
      a = { t: 'bin', op: t.v, a, b: this.unary() };
    }
  }
  protected unary(): Expr {
    if (this.eatOp('-')) return { t: 'neg', e: this.unary() };
    if (this.eatOp('+')) return this.unary();
    if (this.isOp('~')) this.refuse();
    return this.primary();
  }

  protected primary(): Expr {
    const t = this.peek();
    if (!t) return this.refuse();
    if (t.k === 'num') {
      this.i++;
      if (/^0x/i.test(t.v))
        return { t: 'lit', v: Buffer.from(t.v.slice(2).padStart(t.v.length % 2 ? t.v.length - 1 : t.v.length - 2, '0'), 'hex') };
      return { t: 'lit', v: Number(t.v), text: t.v };
    }
    if (t.k === 'str') {
      this.i++;
      return { t: 'lit', v: t.v, unicode: t.unicode };
    }
    if (t.k === 'var') {
      this.i++;
      return { t: 'var', name: t.v.toLowerCase() };
    }
    if (t.k === 'op' && t.v === '(') {
      this.i++;
      if (this.word() === 'select' || this.word() === 'with') {
        const q = this.query();
        this.needOp(')');
        return { t: 'subq', q };
      }
      const e = this.expr();
      this.needOp(')');
      return e;
    }
    if (t.k !== 'word' && t.k !== 'qname') return this.refuse();
    const w = t.v.toLowerCase();
    if (t.k === 'word') {
      if (w === 'null') return (this.i++, { t: 'lit', v: null });
      if (w === 'case') return this.caseExpr();
      if ((w === 'cast' || w === 'try_cast') && this.isOp('(', 1)) {
        this.i += 2;
        const e = this.expr();
        this.needWord('as');
        const type = this.typeName();
        this.needOp(')');
        return { t: 'cast', e, type, try: w === 'try_cast' };
      }
      if ((w === 'convert' || w === 'try_convert') && this.isOp('(', 1)) {
        this.i += 2;
        const type = this.typeName();
        this.needOp(',');
        const e = this.expr();
        const style = this.eatOp(',') ? this.expr() : undefined;
        this.needOp(')');
        return { t: 'cast', e, type, style, try: w === 'try_convert' };
      }
      if (w === 'next' && this.word(1) === 'value' && this.word(2) === 'for') {
        this.i += 3;
        return { t: 'nextval', seq: this.dotted() };
      }
      if (['current_timestamp', 'system_user', 'session_user', 'current_user', 'user'].includes(w) && !this.isOp('(', 1))
        return (this.i++, { t: 'fn', name: w.toUpperCase(), args: [] });
    }
    if (this.isOp('(', 1)) {
      this.i += 2;
      if (this.isOp('*')) {
        this.i++;
        this.needOp(')');
        return { t: 'fn', name: w.toUpperCase(), args: [], star: true };
      }
      const distinct = this.eatWord('distinct');
      const args: Expr[] = [];
      if (!this.isOp(')')) {
        do args.push(this.expr());
        while (this.eatOp(','));
      }
      this.needOp(')');
      if (this.word() === 'over') return { t: 'fn', name: w.toUpperCase(), args, distinct, over: this.over(w) };
      return { t: 'fn', name: w.toUpperCase(), args, distinct };
    }
    // A column: name, qual.name, or a longer dotted name whose last two parts matter.
    this.i++;
    const parts = [t.v];
    while (this.isOp('.') && (this.peek(1)?.k === 'word' || this.peek(1)?.k === 'qname')) {
      parts.push(this.toks[this.i + 1].v);
      this.i += 2;
    }
    const name = parts[parts.length - 1].toLowerCase();
    return parts.length > 1 ? { t: 'col', qual: parts[parts.length - 2].toLowerCase(), name } : { t: 'col', name };
  }

  /** OVER (ORDER BY ...) of ROW_NUMBER(); PARTITION BY, frames and the other window functions are refused. */
  private over(fn: string): OrderItem[] {
    if (fn !== 'row_number') this.refuse();
    this.i++;
    this.needOp('(');
    this.needWord('order');
    this.needWord('by');
    const out: OrderItem[] = [];
    do {
      const expr = this.expr();
      const desc = this.eatWord('desc');
      if (!desc) this.eatWord('asc');
      out.push({ expr, desc });
    } while (this.eatOp(','));
    this.needOp(')');
    return out;
  }

  protected caseExpr(): Expr {
    this.i++;
    const operand = this.word() === 'when' ? undefined : this.expr();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.eatWord('when')) {
      const when = this.expr();
      this.needWord('then');
      whens.push({ when, then: this.expr() });
    }
    const e = this.eatWord('else') ? this.expr() : undefined;
    this.needWord('end');
    return { t: 'case', operand, whens, else: e };
  }

  protected typeName(): TypeName {
    const base = this.name().toLowerCase();
    const t: TypeName = { base };
    if (this.eatOp('(')) {
      if (this.eatWord('max')) t.length = 'max';
      else {
        const n = Number(this.peek()?.v);
        this.i++;
        if (base === 'decimal' || base === 'numeric') {
          t.precision = n;
          t.scale = this.eatOp(',') ? Number(this.toks[this.i++].v) : 0;
        } else if (base === 'datetime2' || base === 'time' || base === 'datetimeoffset') t.scale = n;
        else t.length = n;
      }
      this.needOp(')');
    }
    return t;
  }

  protected exprList(): Expr[] {
    this.needOp('(');
    const out: Expr[] = [];
    do out.push(this.expr());
    while (this.eatOp(','));
    this.needOp(')');
    return out;
  }
}
