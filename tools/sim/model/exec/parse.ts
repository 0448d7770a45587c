// A recursive-descent parser for the statements the executor runs (ast.ts; control of flow in parseControl.ts), over the grammar's tokens. The batch has
// already passed the full T-SQL grammar (grammar/tsql.ts), so this parser only has to build the tree; a construct it
// does not know is refused as unsupported, never approximated.
import { lex } from '../../grammar/lex';
import type { ColumnDef, Expr, Hints, OrderItem, Query, QueryBody, SelectCore, SelectItem, Stmt, TableRef, TypeName } from './ast';
import { STOP } from './cursor';
import { ControlParser } from './parseControl';
import { VALUED_OPTIONS } from './options';

export class Parser extends ControlParser {
  static of(text: string): Parser {
    return new Parser(lex(text), text);
  }

  /** A type name alone ('nvarchar(128)'), as a parameter definition gives it. */
  typeOnly(): TypeName {
    const t = this.typeName();
    if (!this.atEnd()) this.refuse();
    return t;
  }

  statement(): Stmt {
    const w = this.word();
    const c = this.control(w);
    if (c) return c;
    if (w === 'with') {
      // WITH ... INSERT ... SELECT: the CTEs belong to the INSERT's query (docs: WITH common_table_expression).
      const at = this.i;
      const ctes = this.cteList();
      if (this.word() === 'insert') {
        const s = this.insert();
        if (s.kind !== 'insert' || !s.q) return this.refuse();
        return { ...s, q: { ...s.q, ctes: [...ctes, ...s.q.ctes] }, hints: this.hints() };
      }
      this.i = at;
    }
    if (w === 'select' || w === 'with' || this.isOp('(')) return { kind: 'query', q: this.query(), hints: this.hints() };
    if (w === 'declare') return this.declare();
    if (w === 'set') return this.set();
    if (w === 'insert') {
      const s = this.insert();
      return s.kind === 'insert' && s.q ? { ...s, hints: this.hints() } : s;
    }
    if (w === 'delete') {
      this.i++;
      this.eatWord('from');
      const table = this.tableName();
      const alias = this.alias();
      const where = this.eatWord('where') ? this.expr() : undefined;
      return { kind: 'delete', table, alias, where, hints: this.hints() };
    }
    if (w === 'create' && this.word(1) === 'table') return this.create();
    if (w === 'drop' && this.word(1) === 'table') {
      this.i += 2;
      const ifExists = this.word() === 'if' && this.word(1) === 'exists';
      if (ifExists) this.i += 2;
      const table = this.dotted();
      if (this.isOp(',')) this.refuse(); // several tables in one DROP: not in this slice
      return { kind: 'drop', table, ifExists };
    }
    if (w === 'truncate') {
      this.i++;
      this.needWord('table');
      return { kind: 'truncate', table: this.dotted() };
    }
    return this.refuse();
  }

  /**
   * OPTION ( hint, ... ) at the end of a statement (docs: Query hints). Only KEEPFIXED PLAN is modelled (model/planCost.ts);
   * any other hint is refused rather than ignored, since it could change what a plan does.
   */
  private hints(): Hints | undefined {
    if (!this.eatWord('option')) return undefined;
    this.needOp('(');
    const out: Hints = [];
    do {
      if (this.word() !== 'keepfixed' || this.word(1) !== 'plan') this.refuse();
      this.i += 2;
      out.push('KEEPFIXED PLAN');
    } while (this.eatOp(','));
    this.needOp(')');
    return out;
  }

  /** CREATE TABLE #t (column type [NULL | NOT NULL], ...): columns only; constraints, defaults, identity are refused. */
  private create(): Stmt {
    this.i += 2;
    return { kind: 'create', table: this.dotted(), cols: this.columnDefs() };
  }

  protected columnDefs(): ColumnDef[] {
    this.needOp('(');
    const cols: ColumnDef[] = [];
    do {
      const name = this.name();
      const type = this.typeName();
      let nullable: boolean | undefined;
      if (this.word() === 'not' && this.word(1) === 'null') {
        this.i += 2;
        nullable = false;
      } else if (this.eatWord('null')) nullable = true;
      if (!this.isOp(',') && !this.isOp(')')) this.refuse();
      cols.push({ name, type, nullable });
    } while (this.eatOp(','));
    this.needOp(')');
    return cols;
  }

  private declare(): Stmt {
    this.i++;
    const vars: { name: string; type: TypeName; init?: Expr }[] = [];
    do {
      const t = this.peek();
      if (t?.k !== 'var') this.refuse();
      this.i++;
      this.eatWord('as');
      if (this.word() === 'table' && vars.length === 0 && !this.isOp(',', 1)) return this.declareTable(t.v.toLowerCase());
      const type = this.typeName();
      const init = this.eatOp('=') ? this.expr() : undefined;
      vars.push({ name: t.v.toLowerCase(), type, init });
    } while (this.eatOp(','));
    return { kind: 'declare', vars };
  }

  private set(): Stmt {
    this.i++;
    const t = this.peek();
    if (t?.k === 'var') {
      this.i++;
      const op = this.peek();
      if (op?.k !== 'op' || !['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^='].includes(op.v)) this.refuse();
      this.i++;
      return { kind: 'setvar', name: t.v.toLowerCase(), op: op.v, e: this.expr() };
    }
    // Valued options the batch may set for itself (docs: SET LOCK_TIMEOUT, DEADLOCK_PRIORITY, TEXTSIZE, ROWCOUNT).
    const valued = this.word();
    if (VALUED_OPTIONS.has(valued.toUpperCase())) {
      this.i++;
      const v = this.peek();
      if (!v || (v.k !== 'num' && v.k !== 'word' && !(v.k === 'op' && v.v === '-'))) this.refuse();
      let value = v.v;
      this.i++;
      if (v.k === 'op') value += this.peek()?.v ?? this.refuse();
      if (v.k === 'op') this.i++;
      if (valued === 'deadlock_priority' ? !/^(low|normal|high|-?\d+)$/i.test(value) : !/^-?\d+$/.test(value)) this.refuse();
      // TEXTSIZE and ROWCOUNT take a count: a negative one is refused here and left to the session layer's check.
      if ((valued === 'textsize' || valued === 'rowcount') && value.startsWith('-')) this.refuse();
      return { kind: 'setvalue', name: valued.toUpperCase(), value: value.toUpperCase() };
    }
    const names: string[] = [];
    do names.push(this.name().toUpperCase());
    while (this.eatOp(','));
    const v = this.word();
    if (v !== 'on' && v !== 'off') this.refuse();
    this.i++;
    return { kind: 'setopt', names, on: v === 'on' };
  }

  private insert(): Stmt {
    this.i++;
    this.eatWord('into');
    const table = this.tableName();
    let tableHints: string[] | undefined;
    if (this.word() === 'with' && this.isOp('(', 1)) {
      // Table hints on the target: TABLOCK only; any other could change what the statement does and is refused.
      this.i += 2;
      tableHints = [];
      do {
        if (this.word() !== 'tablock') this.refuse();
        this.i++;
        tableHints.push('TABLOCK');
      } while (this.eatOp(','));
      this.needOp(')');
    }
    let cols: string[] | undefined;
    if (this.isOp('(') && this.word(1) !== 'select') {
      this.i++;
      cols = [];
      do cols.push(this.name());
      while (this.eatOp(','));
      this.needOp(')');
    }
    if (this.eatWord('values')) {
      const values: Expr[][] = [];
      do values.push(this.exprList());
      while (this.eatOp(','));
      return { kind: 'insert', table, tableHints, cols, values };
    }
    if (this.word() === 'exec' || this.word() === 'execute') return { kind: 'insert', table, tableHints, cols, exec: this.exec() };
    return { kind: 'insert', table, tableHints, cols, q: this.query() };
  }

  query(): Query {
    const ctes = this.cteList();
    return this.queryTail(ctes, this.setExpr());
  }

  /** WITH name [(cols)] AS (query), ...: none when no WITH comes next. */
  private cteList(): Query['ctes'] {
    const ctes: Query['ctes'] = [];
    if (this.eatWord('with')) {
      do {
        const name = this.name();
        let colNames: string[] | undefined;
        if (this.eatOp('(')) {
          colNames = [];
          do colNames.push(this.name());
          while (this.eatOp(','));
          this.needOp(')');
        }
        this.needWord('as');
        this.needOp('(');
        const q = this.query();
        this.needOp(')');
        ctes.push({ name: name.toLowerCase(), colNames, q });
      } while (this.eatOp(','));
    }
    return ctes;
  }

  /** Finishes query(): ORDER BY after the body. */
  private queryTail(ctes: Query['ctes'], body: QueryBody): Query {
    const orderBy: OrderItem[] = [];
    if (this.eatWord('order')) {
      this.needWord('by');
      do {
        const expr = this.expr();
        const desc = this.eatWord('desc');
        if (!desc) this.eatWord('asc');
        orderBy.push({ expr, desc });
      } while (this.eatOp(','));
    }
    if (this.word() === 'for') this.refuse(); // OPTION (...) ends a statement, not a query: statement() reads it
    return { ctes, body, orderBy };
  }

  private setExpr(): QueryBody {
    let a = this.setTerm();
    for (;;) {
      const w = this.word();
      if (w !== 'union' && w !== 'except') return a;
      this.i++;
      const op = w === 'union' && this.eatWord('all') ? 'union all' : w;
      a = { kind: 'setop', op, a, b: this.setTerm() };
    }
  }
  // INTERSECT binds tighter than UNION and EXCEPT (docs: set operators, precedence).
  private setTerm(): QueryBody {
    let a = this.primaryQuery();
    while (this.eatWord('intersect')) a = { kind: 'setop', op: 'intersect', a, b: this.primaryQuery() };
    return a;
  }
  private primaryQuery(): QueryBody {
    if (this.eatOp('(')) {
      const q = this.setExpr();
      this.needOp(')');
      return q;
    }
    return this.selectCore();
  }

  private selectCore(): SelectCore {
    this.needWord('select');
    const distinct = this.eatWord('distinct');
    if (!distinct) this.eatWord('all');
    let top: Expr | undefined;
    if (this.eatWord('top')) {
      if (this.eatOp('(')) {
        top = this.expr();
        this.needOp(')');
      } else top = this.primary();
      if (this.word() === 'percent' || this.word() === 'with') this.refuse();
    }
    const items: SelectItem[] = [];
    do items.push(this.selectItem());
    while (this.eatOp(','));
    const core: SelectCore = { kind: 'select', distinct, top, items, from: [], groupBy: [] };
    if (this.eatWord('into')) core.into = this.dotted();
    if (this.eatWord('from')) {
      do core.from.push(this.joined());
      while (this.eatOp(','));
    }
    if (this.eatWord('where')) core.where = this.expr();
    if (this.eatWord('group')) {
      this.needWord('by');
      do core.groupBy.push(this.expr());
      while (this.eatOp(','));
    }
    if (this.eatWord('having')) core.having = this.expr();
    return core;
  }

  private selectItem(): SelectItem {
    if (this.eatOp('*')) return { star: {} };
    const t = this.peek();
    if (t && (t.k === 'word' || t.k === 'qname') && this.isOp('.', 1) && this.isOp('*', 2)) {
      this.i += 3;
      return { star: { qual: t.v.toLowerCase() } };
    }
    if (t?.k === 'var' && this.isOp('=', 1)) {
      this.i += 2;
      return { expr: this.expr(), assign: t.v.toLowerCase() };
    }
    // alias = expr
    if (t && (t.k === 'word' || t.k === 'qname') && this.isOp('=', 1) && !STOP.has(t.v.toLowerCase())) {
      this.i += 2;
      return { expr: this.expr(), alias: t.v };
    }
    const expr = this.expr();
    return { expr, alias: this.alias() };
  }

  private alias(): string | undefined {
    if (this.eatWord('as')) {
      const t = this.peek();
      if (t?.k === 'str') {
        this.i++;
        return t.v;
      }
      return this.name();
    }
    const t = this.peek();
    if (t && (t.k === 'qname' || (t.k === 'word' && !STOP.has(t.v.toLowerCase())))) {
      this.i++;
      return t.v;
    }
    return undefined;
  }

  private joined(): TableRef {
    let left = this.tableRef();
    for (;;) {
      let type: 'inner' | 'left' | 'cross' | 'cross apply' | 'outer apply';
      if (this.eatWord('join')) type = 'inner';
      else if (this.word() === 'inner' && this.word(1) === 'join') {
        this.i += 2;
        type = 'inner';
      } else if (this.word() === 'left') {
        this.i++;
        this.eatWord('outer');
        this.needWord('join');
        type = 'left';
      } else if (this.word() === 'cross' && this.word(1) === 'join') {
        this.i += 2;
        type = 'cross';
      } else if ((this.word() === 'cross' || this.word() === 'outer') && this.word(1) === 'apply') {
        type = this.word() === 'cross' ? 'cross apply' : 'outer apply';
        this.i += 2;
        // APPLY of a table-valued function (its arguments may name the left side's columns); a derived table: not yet.
        if (this.isOp('(')) this.refuse();
      } else if (['right', 'full', 'cross', 'outer'].includes(this.word())) return this.refuse();
      else return left;
      const right = this.tableRef();
      let on: Expr | undefined;
      if (type === 'inner' || type === 'left') {
        this.needWord('on');
        on = this.expr();
      }
      left = { kind: 'join', type, left, right, on };
    }
  }

  private tableRef(): TableRef {
    if (this.eatOp('(')) {
      if (this.eatWord('values')) {
        const rows: Expr[][] = [this.exprList()];
        while (this.eatOp(',')) rows.push(this.exprList());
        this.needOp(')');
        return { kind: 'values', rows, alias: this.needAlias(), colNames: this.colNames() ?? this.refuse() };
      }
      const q = this.query();
      this.needOp(')');
      return { kind: 'derived', q, alias: this.needAlias(), colNames: this.colNames() };
    }
    const name = this.tableName();
    const args = this.isOp('(') ? this.argList() : undefined;
    const alias = this.alias();
    if (this.word() === 'with' && this.isOp('(', 1)) this.refuse(); // table hints
    return { kind: 'named', name, args, alias };
  }
  private needAlias(): string {
    return this.alias() ?? this.refuse();
  }
  private colNames(): string[] | undefined {
    if (!this.eatOp('(')) return undefined;
    const out: string[] = [];
    do out.push(this.name());
    while (this.eatOp(','));
    this.needOp(')');
    return out;
  }
  private argList(): Expr[] {
    this.needOp('(');
    const out: Expr[] = [];
    if (this.eatOp(')')) return out;
    do out.push(this.expr());
    while (this.eatOp(','));
    this.needOp(')');
    return out;
  }
}
