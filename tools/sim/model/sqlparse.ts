// A small tokenizer and parser for the statements the simulator answers outside the sql/ files: probes
// (SELECT @@VERSION, SERVERPROPERTY(...)...), USE db, and single-table SELECTs over the modelled DMVs with a column list
// or *, TOP n, a simple WHERE and ORDER BY. Anything else is reported as unsupported by the caller.

export type Tok =
  | { k: 'id'; v: string; quoted: boolean }
  | { k: 'var'; v: string } // @x or @@x, with the @s
  | { k: 'num'; v: number; text: string }
  | { k: 'str'; v: string; unicode: boolean }
  | { k: 'op'; v: string };

export class SqlSyntaxError extends Error {}

export function tokenize(sql: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (sql.startsWith('--', i)) {
      while (i < sql.length && sql[i] !== '\n') i++;
      continue;
    }
    if (sql.startsWith('/*', i)) {
      const e = sql.indexOf('*/', i + 2);
      i = e < 0 ? sql.length : e + 2;
      continue;
    }
    if (c === '[') {
      let v = '';
      i++;
      while (i < sql.length) {
        if (sql[i] === ']') {
          if (sql[i + 1] === ']') {
            v += ']';
            i += 2;
            continue;
          }
          break;
        }
        v += sql[i++];
      }
      i++;
      out.push({ k: 'id', v, quoted: true });
      continue;
    }
    if (c === "'" || ((c === 'N' || c === 'n') && sql[i + 1] === "'")) {
      const unicode = c !== "'";
      i += c === "'" ? 1 : 2;
      let v = '';
      while (i < sql.length) {
        if (sql[i] === "'") {
          if (sql[i + 1] === "'") {
            v += "'";
            i += 2;
            continue;
          }
          break;
        }
        v += sql[i++];
      }
      if (i >= sql.length) throw new SqlSyntaxError('Unclosed quotation mark after the character string.');
      i++;
      out.push({ k: 'str', v, unicode });
      continue;
    }
    const m = /^(@@?[A-Za-z_#$][\w#$@]*)|^(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|^([A-Za-z_#][\w#$@]*)|^(<>|!=|<=|>=|[=<>*,().;+\-/%])/.exec(
      sql.slice(i, i + 200),
    );
    if (!m) throw new SqlSyntaxError(`Incorrect syntax near '${c}'.`);
    if (m[1]) out.push({ k: 'var', v: m[1] });
    else if (m[2]) out.push({ k: 'num', v: Number(m[2]), text: m[2] });
    else if (m[3]) out.push({ k: 'id', v: m[3], quoted: false });
    else out.push({ k: 'op', v: m[4] });
    i += m[0].length;
  }
  return out;
}

export type Expr =
  /** text: a number as written (its type follows it); unicode: N'...'. */
  | { t: 'lit'; v: null | number | string; text?: string; unicode?: boolean }
  | { t: 'col'; qual?: string; name: string }
  | { t: 'var'; name: string }
  | { t: 'fn'; name: string; args: Expr[] }
  | { t: 'cast'; e: Expr; type: string }
  | { t: 'neg'; e: Expr }
  | { t: 'bin'; op: string; a: Expr; b: Expr }
  | { t: 'not'; e: Expr }
  | { t: 'like'; e: Expr; pat: Expr; neg: boolean }
  | { t: 'in'; e: Expr; list: Expr[]; neg: boolean }
  | { t: 'isnull'; e: Expr; neg: boolean };

export interface SelectItem {
  star: boolean;
  expr?: Expr;
  alias?: string;
}
export interface Select {
  kind: 'select';
  top: number | null;
  items: SelectItem[];
  from: { name: string; args: Expr[] | null; alias?: string } | null;
  where: Expr | null;
  orderBy: { expr: Expr; desc: boolean }[];
}
export interface Use {
  kind: 'use';
  db: string;
}

const KEYWORDS = new Set([
  'from',
  'where',
  'order',
  'by',
  'and',
  'or',
  'not',
  'like',
  'in',
  'is',
  'null',
  'as',
  'asc',
  'desc',
  'top',
  'with',
  'select',
  'group',
  'having',
  'union',
  'join',
  'inner',
  'left',
  'right',
  'cross',
  'on',
  'into',
]);

export function parseStatement(sql: string): Select | Use {
  const p = new Parser(tokenize(sql));
  const st = p.statement();
  p.optional(';');
  if (!p.done()) throw new SqlSyntaxError(`Incorrect syntax near '${p.peekText()}'.`);
  return st;
}

class Parser {
  private i = 0;
  constructor(private toks: Tok[]) {}
  done() {
    return this.i >= this.toks.length;
  }
  peekText(): string {
    const t = this.toks[this.i];
    return t ? String(t.v) : '';
  }
  private isKw(t: Tok | undefined, kw: string) {
    return !!t && t.k === 'id' && !t.quoted && t.v.toLowerCase() === kw;
  }
  private kw(kw: string): boolean {
    if (this.isKw(this.toks[this.i], kw)) {
      this.i++;
      return true;
    }
    return false;
  }
  private expectKw(kw: string) {
    if (!this.kw(kw)) throw new SqlSyntaxError(`Incorrect syntax near '${this.peekText()}'.`);
  }
  optional(op: string): boolean {
    const t = this.toks[this.i];
    if (t && t.k === 'op' && t.v === op) {
      this.i++;
      return true;
    }
    return false;
  }
  private expect(op: string) {
    if (!this.optional(op)) throw new SqlSyntaxError(`Incorrect syntax near '${this.peekText()}'.`);
  }
  private ident(): string {
    const t = this.toks[this.i];
    if (!t || t.k !== 'id' || (!t.quoted && KEYWORDS.has(t.v.toLowerCase())))
      throw new SqlSyntaxError(`Incorrect syntax near '${this.peekText()}'.`);
    this.i++;
    return t.v;
  }

  statement(): Select | Use {
    if (this.kw('use')) return { kind: 'use', db: this.ident() };
    this.expectKw('select');
    let top: number | null = null;
    if (this.kw('top')) {
      const paren = this.optional('(');
      const t = this.toks[this.i++];
      if (!t || t.k !== 'num') throw new SqlSyntaxError('Incorrect syntax near TOP.');
      top = t.v;
      if (paren) this.expect(')');
    }
    const items: SelectItem[] = [];
    do {
      if (this.optional('*')) {
        items.push({ star: true });
        continue;
      }
      const expr = this.expr();
      let alias: string | undefined;
      if (this.kw('as')) alias = this.aliasName();
      else {
        const t = this.toks[this.i];
        if (t && (t.k === 'str' || (t.k === 'id' && (t.quoted || !KEYWORDS.has(t.v.toLowerCase()))))) alias = this.aliasName();
      }
      items.push({ star: false, expr, alias });
    } while (this.optional(','));
    let from: Select['from'] = null;
    if (this.kw('from')) {
      const parts = [this.ident()];
      while (this.optional('.')) parts.push(this.ident());
      let args: Expr[] | null = null;
      if (this.optional('(')) {
        args = [];
        if (!this.optional(')')) {
          do args.push(this.expr());
          while (this.optional(','));
          this.expect(')');
        }
      }
      let alias: string | undefined;
      if (this.kw('as')) alias = this.ident();
      else if (this.toks[this.i]?.k === 'id' && !KEYWORDS.has(String(this.toks[this.i].v).toLowerCase())) alias = this.ident();
      if (this.kw('with')) {
        this.expect('(');
        while (!this.optional(')')) this.i++;
      }
      from = { name: parts.join('.'), args, alias };
    }
    const where = this.kw('where') ? this.expr() : null;
    const orderBy: Select['orderBy'] = [];
    if (this.kw('order')) {
      this.expectKw('by');
      do {
        const expr = this.expr();
        const desc = this.kw('desc');
        if (!desc) this.kw('asc');
        orderBy.push({ expr, desc });
      } while (this.optional(','));
    }
    return { kind: 'select', top, items, from, where, orderBy };
  }

  private aliasName(): string {
    const t = this.toks[this.i++];
    if (!t || (t.k !== 'id' && t.k !== 'str')) throw new SqlSyntaxError('Incorrect syntax near AS.');
    return String(t.v);
  }

  expr(): Expr {
    let a = this.and();
    while (this.kw('or')) a = { t: 'bin', op: 'or', a, b: this.and() };
    return a;
  }
  private and(): Expr {
    let a = this.not();
    while (this.kw('and')) a = { t: 'bin', op: 'and', a, b: this.not() };
    return a;
  }
  private not(): Expr {
    return this.kw('not') ? { t: 'not', e: this.not() } : this.cmp();
  }
  private cmp(): Expr {
    const a = this.add();
    const t = this.toks[this.i];
    if (t && t.k === 'op' && ['=', '<>', '!=', '<', '>', '<=', '>='].includes(t.v)) {
      this.i++;
      return { t: 'bin', op: t.v === '!=' ? '<>' : t.v, a, b: this.add() };
    }
    if (this.kw('is')) {
      const neg = this.kw('not');
      this.expectKw('null');
      return { t: 'isnull', e: a, neg };
    }
    const neg = this.kw('not');
    if (this.kw('like')) return { t: 'like', e: a, pat: this.add(), neg };
    if (this.kw('in')) {
      this.expect('(');
      const list: Expr[] = [];
      do list.push(this.add());
      while (this.optional(','));
      this.expect(')');
      return { t: 'in', e: a, list, neg };
    }
    if (neg) throw new SqlSyntaxError(`Incorrect syntax near 'NOT'.`);
    return a;
  }
  private add(): Expr {
    let a = this.mul();
    for (;;) {
      const t = this.toks[this.i];
      if (t && t.k === 'op' && (t.v === '+' || t.v === '-')) {
        this.i++;
        a = { t: 'bin', op: t.v, a, b: this.mul() };
      } else return a;
    }
  }
  /** * / % bind tighter than + and - (docs: "Operator Precedence (Transact-SQL)"). */
  private mul(): Expr {
    let a = this.primary();
    for (;;) {
      const t = this.toks[this.i];
      if (t && t.k === 'op' && (t.v === '*' || t.v === '/' || t.v === '%')) {
        this.i++;
        a = { t: 'bin', op: t.v, a, b: this.primary() };
      } else return a;
    }
  }
  private primary(): Expr {
    const t = this.toks[this.i];
    if (!t) throw new SqlSyntaxError('Incorrect syntax near the end of the statement.');
    if (t.k === 'num') {
      this.i++;
      return { t: 'lit', v: t.v, text: t.text };
    }
    if (t.k === 'str') {
      this.i++;
      return { t: 'lit', v: t.v, unicode: t.unicode };
    }
    if (t.k === 'var') {
      this.i++;
      return { t: 'var', name: t.v.toLowerCase() };
    }
    if (t.k === 'op' && t.v === '-') {
      this.i++;
      return { t: 'neg', e: this.primary() };
    }
    if (t.k === 'op' && t.v === '(') {
      this.i++;
      const e = this.expr();
      this.expect(')');
      return e;
    }
    if (this.kw('null')) return { t: 'lit', v: null };
    if (this.isKw(t, 'cast') && this.toks[this.i + 1]?.v === '(') {
      this.i += 2;
      const e = this.expr();
      this.expectKw('as');
      let type = this.ident().toLowerCase();
      if (this.optional('(')) {
        const parts: string[] = [];
        while (!this.optional(')')) parts.push(String(this.toks[this.i++].v));
        type += `(${parts.join('')})`;
      }
      this.expect(')');
      return { t: 'cast', e, type };
    }
    const name = this.ident();
    if (this.optional('(')) {
      const args: Expr[] = [];
      if (!this.optional(')')) {
        do args.push(this.expr());
        while (this.optional(','));
        this.expect(')');
      }
      return { t: 'fn', name: name.toUpperCase(), args };
    }
    if (this.optional('.')) return { t: 'col', qual: name.toLowerCase(), name: this.ident().toLowerCase() };
    return { t: 'col', name: name.toLowerCase() };
  }
}
