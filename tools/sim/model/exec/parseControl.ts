// The control-of-flow statements for the executor's parser: BEGIN...END, IF/ELSE, WHILE with BREAK/CONTINUE,
// TRY...CATCH, THROW, RAISERROR, PRINT, RETURN, EXEC, WAITFOR DELAY, transaction control, and the server's own KILL
// and DBCC TRACESTATUS. parse.ts reads the rest.
import { err, SqlError } from '../errors';
import type { ColumnDef, ExecArg, ExecStmt, Expr, Stmt } from './ast';
import { ExprParser } from './parseExpr';

/** Words that start a statement: an EXEC's argument list, or a statement without ';', ends before them. */
const STARTS = new Set(['select', 'with', 'declare', 'set', 'insert', 'delete', 'update', 'if', 'while', 'begin', 'end', 'else']);

export abstract class ControlParser extends ExprParser {
  abstract statement(): Stmt;
  protected abstract columnDefs(): ColumnDef[];
  /** WHILE loops open around the statement being read (BREAK and CONTINUE need one). */
  private loops = 0;

  /** A control statement, or undefined when `w` starts none (parse.ts then reads the statement). */
  protected control(w: string): Stmt | undefined {
    const w1 = this.word(1);
    if (w === 'begin' && w1 === 'try') return this.tryCatch();
    if (w === 'begin' && ['tran', 'transaction'].includes(w1)) return this.tran('begin');
    if (w === 'begin' && w1 !== 'distributed') {
      this.i++;
      return { kind: 'block', body: this.until('end') };
    }
    if (w === 'commit' || w === 'rollback' || w === 'save') return this.tran(w);
    if (w === 'if') {
      this.i++;
      const cond = this.expr();
      const then = this.statement();
      this.atEnd();
      return { kind: 'if', cond, then, else: this.eatWord('else') ? this.statement() : undefined };
    }
    if (w === 'while') {
      this.i++;
      const cond = this.expr();
      this.loops++;
      const body = this.statement();
      this.loops--;
      return { kind: 'while', cond, body };
    }
    if (w === 'break' || w === 'continue') {
      // A compile error: the batch does not start (Msg 135 / 136).
      if (this.loops === 0)
        throw new SqlError([
          err(w === 'break' ? 135 : 136, `Cannot use a ${w.toUpperCase()} statement outside the scope of a WHILE statement.`, 15, 1),
        ]);
      this.i++;
      return { kind: w };
    }
    if (w === 'throw') return this.throwStmt();
    if (w === 'raiserror') return this.raiserror();
    if (w === 'print') {
      this.i++;
      return { kind: 'print', e: this.expr() };
    }
    if (w === 'return') {
      this.i++;
      return { kind: 'return', e: this.ended() ? undefined : this.expr() };
    }
    if (w === 'waitfor') {
      this.i++;
      if (!this.eatWord('delay')) this.refuse(); // WAITFOR TIME / RECEIVE: not modelled
      return { kind: 'waitfor', delay: this.primary() };
    }
    if (w === 'exec' || w === 'execute') return this.exec();
    if (w === 'kill') return this.kill();
    if (w === 'dbcc' && w1 === 'tracestatus') return this.traceStatus();
    return undefined;
  }

  /** KILL session_id: a number literal (docs: KILL); KILL UOW and WITH STATUSONLY are not modelled. */
  private kill(): Stmt {
    this.i++;
    const t = this.peek();
    if (t?.k !== 'num' || !/^\d+$/.test(t.v)) this.refuse();
    this.i++;
    if (this.word() === 'with') this.refuse();
    return { kind: 'kill', spid: Number(t.v) };
  }

  /** DBCC TRACESTATUS [( [flag [, ...]] )] [WITH NO_INFOMSGS] (docs: DBCC TRACESTATUS). */
  private traceStatus(): Stmt {
    this.i += 2;
    const flags: number[] = [];
    if (this.eatOp('(')) {
      while (!this.isOp(')')) {
        const neg = this.eatOp('-');
        const t = this.peek();
        if (t?.k !== 'num' || !/^\d+$/.test(t.v)) this.refuse();
        this.i++;
        flags.push(neg ? -Number(t.v) : Number(t.v));
        if (!this.eatOp(',')) break;
      }
      this.needOp(')');
    }
    let noInfoMsgs = false;
    if (this.eatWord('with')) {
      if (this.word() !== 'no_infomsgs') this.refuse();
      this.i++;
      noInfoMsgs = true;
    }
    return { kind: 'tracestatus', flags, noInfoMsgs };
  }

  /** Whether the statement ends here: ';', the end of the batch, or a word that starts the next one. */
  private ended(): boolean {
    const t = this.peek();
    return !t || (t.k === 'op' && t.v === ';') || (t.k === 'word' && (STARTS.has(t.v.toLowerCase()) || this.isStarter(t.v)));
  }
  private isStarter(w: string): boolean {
    return [
      'exec',
      'execute',
      'print',
      'raiserror',
      'throw',
      'return',
      'commit',
      'rollback',
      'save',
      'waitfor',
      'break',
      'continue',
      'truncate',
    ].includes(w.toLowerCase());
  }

  /** Statements up to END [word]. */
  private until(end: string, word?: string): Stmt[] {
    const body: Stmt[] = [];
    for (;;) {
      if (this.atEnd()) this.refuse();
      if (this.word() === end && (!word || this.word(1) === word)) {
        this.i += word ? 2 : 1;
        return body;
      }
      body.push(this.statement());
    }
  }

  private tryCatch(): Stmt {
    this.i += 2;
    const body = this.until('end', 'try');
    this.atEnd();
    if (this.word() !== 'begin' || this.word(1) !== 'catch') this.refuse();
    this.i += 2;
    return { kind: 'try', body, catch: this.until('end', 'catch') };
  }

  private tran(op: 'begin' | 'commit' | 'rollback' | 'save'): Stmt {
    this.i++;
    if (['tran', 'transaction', 'work'].includes(this.word())) this.i++;
    const t = this.peek();
    let name = '';
    if (t && (t.k === 'qname' || t.k === 'var' || (t.k === 'word' && !STARTS.has(t.v.toLowerCase()) && !this.isStarter(t.v)))) {
      if (t.k === 'var') this.refuse(); // a name held in a variable: not modelled
      name = t.v;
      this.i++;
    }
    if (op === 'save' && !name) this.refuse();
    return { kind: 'tran', op, name };
  }

  private throwStmt(): Stmt {
    this.i++;
    if (this.ended()) return { kind: 'throw' };
    const n = this.expr();
    this.needOp(',');
    const msg = this.expr();
    this.needOp(',');
    return { kind: 'throw', args: [n, msg, this.expr()] };
  }

  private raiserror(): Stmt {
    this.i++;
    this.needOp('(');
    const args: Expr[] = [];
    do args.push(this.expr());
    while (this.eatOp(','));
    this.needOp(')');
    const opts: string[] = [];
    if (this.eatWord('with')) {
      do opts.push(this.name().toUpperCase());
      while (this.eatOp(','));
    }
    if (args.length < 3) this.refuse();
    return { kind: 'raiserror', args, opts };
  }

  /** EXEC [@status =] name [arg, ...] | EXEC ( string expression ). */
  protected exec(): ExecStmt {
    this.i++;
    if (this.eatOp('(')) {
      const e = this.expr();
      this.needOp(')');
      if (this.word() === 'at' || this.word() === 'as') this.refuse();
      return { kind: 'execsql', e };
    }
    let status: string | undefined;
    const v = this.peek();
    if (v?.k === 'var' && this.isOp('=', 1)) {
      status = v.v.toLowerCase();
      this.i += 2;
    }
    if (this.peek()?.k === 'var') this.refuse(); // EXEC @procname: not modelled
    const proc = this.dotted();
    const args: ExecArg[] = [];
    if (!this.ended() && this.word() !== 'with') {
      do args.push(this.execArg());
      while (this.eatOp(','));
    }
    if (this.word() === 'with') this.refuse(); // WITH RECOMPILE / RESULT SETS
    return { kind: 'exec', status, proc, args };
  }

  private execArg(): ExecArg {
    const t = this.peek();
    let name: string | undefined;
    if (t?.k === 'var' && this.isOp('=', 1)) {
      name = t.v.toLowerCase();
      this.i += 2;
    }
    const e = this.eatWord('default') ? undefined : this.expr();
    const output = this.eatWord('output') || this.eatWord('out');
    return { name, e, output };
  }

  /** A table name, or a table variable (@t). */
  protected tableName(): string {
    const t = this.peek();
    if (t?.k === 'var') {
      this.i++;
      return t.v.toLowerCase();
    }
    return this.dotted();
  }

  /** DECLARE @t TABLE ( columns ): the DECLARE's only variable. */
  protected declareTable(name: string): Stmt {
    this.i++;
    return { kind: 'declaretable', name, cols: this.columnDefs() };
  }
}
